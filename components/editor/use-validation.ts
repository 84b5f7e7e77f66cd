"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import { api, ApiError } from "@/lib/client/api";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import type { WorkflowProblem } from "@/lib/workflow/validate";

export const VALIDATION_DELAY_MS = 400;

const NO_PROBLEMS: readonly WorkflowProblem[] = [];

export interface ValidationState {
  problems: readonly WorkflowProblem[];
  /** Problems by node id; a node without problems is absent. */
  byNode: ReadonlyMap<string, readonly WorkflowProblem[]>;
  /** Problems about the workflow as a whole (no node). */
  general: readonly WorkflowProblem[];
  checking: boolean;
  /** Why the check itself failed, if it did. */
  error: string | null;
  /** Shows problems found elsewhere (a refused run) until the next check. */
  showProblems: (problems: readonly WorkflowProblem[]) => void;
}

/** Checks the definition (a draft of the saved workflow `workflowId`) with the server ~400 ms after it last changed; the newest answer wins. */
export function useValidation(definition: WorkflowDefinition, workflowId: string, enabled = true): ValidationState {
  const [problems, setProblems] = useState<readonly WorkflowProblem[]>(NO_PROBLEMS);
  // A check is due as soon as the editor opens: "checking" until the first answer.
  const [checking, setChecking] = useState(enabled);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    // Checking is for those who change it (POST /api/workflows/validate needs workflow:edit); a read-only view shows none.
    if (!enabled) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      setChecking(true);
      api<{ valid: boolean; problems: WorkflowProblem[] }>(`/api/workflows/validate?workflowId=${encodeURIComponent(workflowId)}`, { body: definition, signal: controller.signal })
        .then((result) => {
          // A newer definition is being checked: this answer is about one that no longer exists.
          if (controller.signal.aborted) return;
          setProblems(result.problems);
          setError(null);
        })
        .catch((failure: unknown) => {
          if (controller.signal.aborted) return;
          setError(failure instanceof ApiError ? failure.message : "The workflow could not be checked.");
        })
        .finally(() => {
          if (!controller.signal.aborted) setChecking(false);
        });
    }, VALIDATION_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [definition, workflowId, enabled]);

  const showProblems = useCallback((next: readonly WorkflowProblem[]) => setProblems(next), []);

  return useMemo(() => {
    const byNode = new Map<string, WorkflowProblem[]>();
    const general: WorkflowProblem[] = [];
    for (const problem of problems) {
      if (problem.nodeId === null) general.push(problem);
      else {
        const list = byNode.get(problem.nodeId) ?? [];
        list.push(problem);
        byNode.set(problem.nodeId, list);
      }
    }
    return { problems, byNode, general, checking, error, showProblems };
  }, [problems, checking, error, showProblems]);
}
