"use client";

import { useEffect, useState } from "react";
import { api } from "@/lib/client/api";
import type { WorkflowChoice, WorkflowChoicesResponse } from "@/lib/contracts/workflow-list";

export type { WorkflowChoice };

/**
 * The saved workflows but `selfId` (null while loading), by name, as many as
 * GET /api/workflows/choices gives (MAX_WORKFLOW_CHOICES), or why they could
 * not be listed: what the error-workflow picker and a Sub-workflow step
 * choose from (neither may name the workflow itself).
 */
export function useOtherWorkflows(selfId: string | null): { workflows: WorkflowChoice[] | null; error: string | null } {
  const [workflows, setWorkflows] = useState<WorkflowChoice[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api<WorkflowChoicesResponse>("/api/workflows/choices", { signal: controller.signal })
      .then(({ workflows: listed }) => setWorkflows(listed.filter((each) => each.id !== selfId)))
      .catch(() => {
        if (!controller.signal.aborted) setError("The list of workflows could not be loaded.");
      });
    return () => controller.abort();
  }, [selfId]);
  return { workflows, error };
}

/**
 * The options of a select of workflows: the workflows, and a chosen one not
 * among them (deleted, or not loaded yet) kept as an option of its own, so a
 * choice is never lost silently. `chosen` "" is no choice.
 */
export function WorkflowOptions({ chosen, workflows }: { chosen: string; workflows: readonly WorkflowChoice[] | null }) {
  const known = workflows?.some((each) => each.id === chosen) ?? false;
  return (
    <>
      {chosen !== "" && !known ? <option value={chosen}>{workflows === null ? "Loading…" : `A workflow not listed here (${chosen})`}</option> : null}
      {(workflows ?? []).map((each) => (
        <option key={each.id} value={each.id}>
          {each.name}
        </option>
      ))}
    </>
  );
}
