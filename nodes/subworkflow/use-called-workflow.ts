"use client";

import { useParams } from "next/navigation";
import { useEffect, useState } from "react";
import { api } from "@/lib/client/api";
import { useOtherWorkflows, type WorkflowChoice } from "@/components/editor/other-workflows";
import type { InputField, WorkflowDefinition } from "@/lib/workflow/definition";
import { inputFieldsOf } from "@/lib/workflow/run-inputs";
import { PUBLISHED_VERSION, type SubWorkflowNode } from "./definition";

/** A saved workflow as the picker lists it. */
export type CallableWorkflowSummary = WorkflowChoice;

/** The saved workflows a Sub-workflow step may call: every other workflow (the one being edited, `/workflows/<id>`, cannot call itself). */
export function useWorkflowList(): { workflows: CallableWorkflowSummary[] | null; error: string | null } {
  return useOtherWorkflows(useParams<{ id?: string }>()?.id ?? null);
}

/** The version a run would call now: the pinned one, else the published one, else the newest (as runs fall back). */
export function versionToRead(node: Pick<SubWorkflowNode, "version">, workflow: CallableWorkflowSummary | undefined): number | null {
  if (node.version !== PUBLISHED_VERSION) return node.version;
  if (!workflow) return null;
  return workflow.publishedVersion ?? workflow.latestVersion;
}

/** The run inputs of one saved version (what the mapping fills), null while loading or when nothing is chosen. */
export function useCalledInputs(workflowId: string, version: number | null): { fields: InputField[] | null; error: string | null } {
  const [state, setState] = useState<{ key: string; fields: InputField[] | null; error: string | null }>({ key: "", fields: null, error: null });
  const key = workflowId && version !== null ? `${workflowId}@${version}` : "";
  useEffect(() => {
    if (key === "") return;
    const controller = new AbortController();
    api<{ version: { definition: WorkflowDefinition } }>(`/api/workflows/${encodeURIComponent(workflowId)}/versions/${version}`, { signal: controller.signal })
      .then(({ version: read }) => setState({ key, fields: inputFieldsOf(read.definition), error: null }))
      .catch(() => {
        if (!controller.signal.aborted) setState({ key, fields: null, error: "The called workflow's run inputs could not be read." });
      });
    return () => controller.abort();
  }, [key, workflowId, version]);
  return state.key === key ? { fields: state.fields, error: state.error } : { fields: null, error: null };
}
