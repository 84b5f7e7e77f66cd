"use client";

import { Button } from "@/components/ui/button";
import { VisibleText } from "@/components/ui/visible-text";
import type { DraftProblem } from "@/lib/architect/draft-problems";
import type { Draft } from "@/lib/architect/draft-schema";
import { everyChange, type ChangeKind, type Proposal } from "@/lib/architect/proposal";
import type { CatalogTool } from "@/lib/contracts/catalog";
import { cardData } from "@/lib/editor/to-flow";
import type { WorkflowDefinition, WorkflowDefinitionInput, WorkflowNode } from "@/lib/workflow/definition";

const CHANGE_WORDS: Record<ChangeKind, string> = { added: "New", changed: "Changed", removed: "Removed" };
const CHANGE_TONE: Record<ChangeKind, string> = { added: "bg-safe-soft text-safe", changed: "bg-accent-soft text-accent", removed: "bg-danger/10 text-danger" };
const FIELD_WORDS = { name: "Name", description: "Description", mode: "Mode" } as const;

interface ProposalReviewProps {
  proposal: Proposal;
  current: WorkflowDefinition;
  proposed: WorkflowDefinitionInput;
  draft: Draft | null;
  problems: readonly DraftProblem[];
  tools: ReadonlyMap<string, CatalogTool>;
  ticked: ReadonlySet<string>;
  onToggle: (key: string) => void;
  onTick: (keys: ReadonlySet<string>) => void;
  onAccept: () => void;
  onDiscard: () => void;
}

/**
 * The draft as a change to the canvas, each change with a box to tick and the
 * plan's reason beside it; what was declined and what is left for the person
 * listed, never hidden. Accept applies the ticked ones as one undoable edit.
 */
export function ProposalReview({ proposal, current, proposed, draft, problems, tools, ticked, onToggle, onTick, onAccept, onDiscard }: ProposalReviewProps) {
  const all = everyChange(proposal);
  const nodeTitle = (nodeId: string) => {
    const node = (proposed.nodes.find((each) => each.id === nodeId) ?? current.nodes.find((each) => each.id === nodeId)) as WorkflowNode | undefined;
    return node ? cardData(node, node.kind === "tool" ? tools.get(node.tool) : undefined).title : nodeId;
  };
  const problemsOf = (nodeId: string) => problems.filter((problem) => problem.nodeId === nodeId);
  const elsewhere = problems.filter((problem) => problem.nodeId === null || !proposed.nodes.some((node) => node.id === problem.nodeId));
  const declined = draft?.declined ?? [];
  return (
    <div className="space-y-4">
      {all.size === 0 ? (
        <p className="rounded-md bg-surface-sunken px-3 py-2 text-sm">The draft is the workflow as it is: nothing to change.</p>
      ) : (
        <fieldset className="space-y-3">
          <legend className="text-xs font-semibold uppercase tracking-wide text-muted">Changes, highlighted on the canvas</legend>
          <ul className="space-y-2" aria-label="Proposed changes">
            {proposal.workflow.map((change) => (
              <ChangeRow key={change.field} changeKey={`workflow:${change.field}`} kind="changed" ticked={ticked} onToggle={onToggle}>
                {FIELD_WORDS[change.field]}: <VisibleText text={change.to} />
              </ChangeRow>
            ))}
            {proposal.nodes.map((change) => (
              <ChangeRow key={change.key} changeKey={change.key} kind={change.change} ticked={ticked} onToggle={onToggle} problems={problemsOf(change.nodeId)}>
                <VisibleText text={nodeTitle(change.nodeId)} />
                {change.step ? (
                  <span className="block text-xs text-muted">
                    <VisibleText text={change.step} />
                    {change.reason ? (
                      <>
                        {": "}
                        <VisibleText text={change.reason} />
                      </>
                    ) : null}
                  </span>
                ) : null}
              </ChangeRow>
            ))}
            {proposal.edges.map((change) => (
              <ChangeRow key={change.key} changeKey={change.key} kind={change.change} ticked={ticked} onToggle={onToggle}>
                Connection <VisibleText text={nodeTitle(change.source)} /> → <VisibleText text={nodeTitle(change.target)} />
                {change.sourceHandle ? <span className="text-xs text-muted"> (route {change.sourceHandle})</span> : null}
              </ChangeRow>
            ))}
          </ul>
          <div className="flex flex-wrap gap-2">
            <Button variant="primary" size="sm" onClick={onAccept} disabled={ticked.size === 0}>
              {ticked.size === all.size ? `Accept all ${all.size} changes` : `Accept ${ticked.size} of ${all.size} changes`}
            </Button>
            <Button size="sm" onClick={() => onTick(ticked.size === all.size ? new Set() : all)}>
              {ticked.size === all.size ? "Untick all" : "Tick all"}
            </Button>
            <Button size="sm" variant="ghost" onClick={onDiscard}>
              Discard
            </Button>
          </div>
        </fieldset>
      )}
      {declined.length > 0 ? (
        <section aria-labelledby="architect-declined" className="space-y-1 rounded-md border border-caution/40 bg-caution-soft px-3 py-2 text-xs text-caution">
          <h4 id="architect-declined" className="font-semibold">Not set by the Architect: yours to decide</h4>
          <ul className="list-disc space-y-1 pl-4">
            {declined.map((each, index) => (
              <li key={index}>
                <VisibleText text={each.request} />
                {each.reason ? (
                  <>
                    {": "}
                    <VisibleText text={each.reason} />
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {elsewhere.length > 0 ? <ProblemItems title="Problems the model could not fix" problems={elsewhere} /> : null}
    </div>
  );
}

function ChangeRow({
  changeKey,
  kind,
  ticked,
  onToggle,
  problems = [],
  children,
}: {
  changeKey: string;
  kind: ChangeKind;
  ticked: ReadonlySet<string>;
  onToggle: (key: string) => void;
  problems?: readonly DraftProblem[];
  children: React.ReactNode;
}) {
  const id = `architect-change-${changeKey.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  return (
    <li className="rounded-md border border-line px-2.5 py-2">
      <div className="flex items-start gap-2">
        <input id={id} type="checkbox" className="mt-0.5 size-4 shrink-0 accent-accent" checked={ticked.has(changeKey)} onChange={() => onToggle(changeKey)} />
        <label htmlFor={id} className="min-w-0 flex-1 text-sm">
          <span className={`mr-1.5 rounded px-1 text-[0.6875rem] font-semibold ${CHANGE_TONE[kind]}`}>{CHANGE_WORDS[kind]}</span>{" "}
          {children}
        </label>
      </div>
      {problems.length > 0 ? (
        <ul className="mt-1.5 space-y-0.5 pl-6 text-xs text-caution">
          {problems.map((problem, index) => (
            <li key={index}>
              {problem.for === "person" ? "For you: " : "Not fixed: "}
              <span className="font-mono">{problem.path}</span> — <VisibleText text={problem.message} />
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** Problems listed in words, each with where it is. */
export function ProblemItems({ title, problems }: { title: string; problems: readonly DraftProblem[] }) {
  return (
    <section className="space-y-1 rounded-md border border-caution/40 bg-caution-soft px-3 py-2 text-xs text-caution">
      <h4 className="font-semibold">{title}</h4>
      <ul className="list-disc space-y-1 pl-4">
        {problems.map((problem, index) => (
          <li key={index}>
            <span className="font-mono">{problem.path}</span>
            {problem.nodeId ? <span> (step {problem.nodeId})</span> : null} — <VisibleText text={problem.message} />
          </li>
        ))}
      </ul>
    </section>
  );
}
