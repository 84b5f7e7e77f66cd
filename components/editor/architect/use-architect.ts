"use client";

import { useCallback, useMemo, useState } from "react";
import { acceptProposal, everyChange, proposalOf, type Proposal } from "@/lib/architect/proposal";
import { proposalPreview, type ProposalPreview } from "@/lib/editor/proposal-preview";
import { WorkflowDefinitionSchema, type WorkflowDefinition, type WorkflowDefinitionInput } from "@/lib/workflow/definition";
import { useArchitectDraft } from "./use-architect-draft";

type Change = (definition: WorkflowDefinition) => WorkflowDefinition;

/** What was accepted last: how many changes of how many, for the panel to say so. */
export interface Accepted {
  count: number;
  of: number;
}

/**
 * The Architect in the editor: a drafting (useArchitectDraft), then its
 * answer as a proposal against the workflow on the canvas, which changes the
 * person tick, the canvas preview of the result, and accepting the ticked
 * changes as one undoable edit. Nothing is saved or run here.
 */
export function useArchitect({ definition, commit }: { definition: WorkflowDefinition; commit: (change: Change) => void }) {
  const drafting = useArchitectDraft();
  const { state } = drafting;
  const proposed: WorkflowDefinitionInput | null = state.phase === "done" ? state.definition : null;
  const plan = state.phase === "done" ? state.draft?.plan : undefined;
  // Against the canvas as it is now: changes made while drafting are not undone by accepting.
  const proposal = useMemo<Proposal | null>(() => (proposed ? proposalOf(definition, proposed, plan) : null), [definition, proposed, plan]);
  // Ticked: every change of a new proposal, until the person unticks some.
  const [ticks, setTicks] = useState<{ for: WorkflowDefinitionInput; keys: ReadonlySet<string> } | null>(null);
  const ticked = useMemo<ReadonlySet<string>>(() => (proposal && proposed ? (ticks?.for === proposed ? ticks.keys : everyChange(proposal)) : new Set()), [ticks, proposal, proposed]);
  const [accepted, setAccepted] = useState<Accepted | null>(null);
  const [acceptProblem, setAcceptProblem] = useState<string | null>(null);

  const setTicked = useCallback((keys: ReadonlySet<string>) => proposed && setTicks({ for: proposed, keys }), [proposed]);
  const toggle = useCallback(
    (key: string) => {
      const next = new Set(ticked);
      if (!next.delete(key)) next.add(key);
      setTicked(next);
    },
    [ticked, setTicked],
  );

  const problems = state.phase === "done" ? state.problems : undefined;
  const preview = useMemo<ProposalPreview | null>(
    () => (proposal && proposed && hasChanges(proposal) ? proposalPreview(definition, proposed, proposal, ticked, problems) : null),
    [definition, proposed, proposal, ticked, problems],
  );

  const { start, clear } = drafting;
  const accept = useCallback(() => {
    if (!proposal || !proposed) return;
    const next = WorkflowDefinitionSchema.safeParse(acceptProposal(definition, proposed, proposal, ticked));
    if (!next.success) {
      const issue = next.error.issues[0]!;
      setAcceptProblem(`The draft could not be applied: ${issue.path.join(".") || "(workflow)"}: ${issue.message}. Nothing was changed.`);
      return;
    }
    commit(() => next.data);
    setAccepted({ count: ticked.size, of: everyChange(proposal).size });
    setAcceptProblem(null);
    clear();
  }, [proposal, proposed, definition, ticked, commit, clear]);

  const discard = useCallback(() => {
    setAccepted(null);
    setAcceptProblem(null);
    clear();
  }, [clear]);

  const draft = useCallback(
    (...request: Parameters<typeof start>) => {
      setAccepted(null);
      setAcceptProblem(null);
      void start(...request);
    },
    [start],
  );

  return { state, draft, stop: drafting.stop, discard, proposal, ticked, toggle, setTicked, preview, accept, accepted, acceptProblem };
}

export type Architect = ReturnType<typeof useArchitect>;

const hasChanges = (proposal: Proposal) => proposal.nodes.length + proposal.edges.length + proposal.workflow.length > 0;
