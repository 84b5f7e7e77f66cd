"use client";

import { useId, useMemo, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { CONTROL_CLASS, Field } from "@/components/ui/field";
import { DraftRequestSchema, MAX_GOAL_CHARACTERS } from "@/lib/contracts/architect";
import type { CatalogTool } from "@/lib/contracts/catalog";
import { draftOutline } from "@/lib/editor/draft-outline";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import { ModelFields, MODEL_PROVIDERS } from "../model-fields";
import { DraftOutlineView } from "./draft-outline-view";
import { ProblemItems, ProposalReview } from "./proposal-review";
import type { Architect } from "./use-architect";
import type { DraftState, RoundCheck } from "./use-architect-draft";
import { useModelChoice } from "./use-model-choice";

interface ArchitectPanelProps {
  architect: Architect;
  workflowId: string;
  definition: WorkflowDefinition;
  tools: ReadonlyMap<string, CatalogTool>;
  onClose: () => void;
}

const count = (value: number) => value.toLocaleString("en-US");

/**
 * "Describe what it should do": a goal and a model in, a checked draft out,
 * shown as a proposal on the canvas to accept in parts. The plan and the
 * steps appear as the model writes them; Stop ends the model's call and keeps
 * what came. Nothing here saves or runs anything.
 */
export function ArchitectPanel({ architect, workflowId, definition, tools, onClose }: ArchitectPanelProps) {
  const [goal, setGoal] = useState("");
  const [fromCurrent, setFromCurrent] = useState(true);
  const model = useModelChoice(definition);
  // Open at first while no model is chosen; the person opens and shuts it after that.
  const [modelOpen, setModelOpen] = useState(() => model.choice.model.trim() === "");
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const { state } = architect;
  const drafting = state.phase === "drafting";
  const goalId = useId();
  const statusRef = useRef<HTMLParagraphElement>(null);
  // The server's refusal (a 422) names its fields as the form's own check does.
  const errors = state.phase === "failed" && state.issues.length > 0 ? { ...issuesByField(state.issues), ...fieldErrors } : fieldErrors;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const request = { goal, model: model.choice, workflowId, ...(fromCurrent && definition.nodes.length > 0 ? { current: definition } : {}) };
    const parsed = DraftRequestSchema.safeParse(request);
    if (!parsed.success) {
      setFieldErrors(issuesByField(parsed.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }))));
      return;
    }
    setFieldErrors({});
    model.remember(parsed.data.model);
    architect.draft(parsed.data);
    // The model is chosen: its fields make room for the plan, which is brought into view as it streams in.
    setModelOpen(false);
    window.requestAnimationFrame(() => statusRef.current?.scrollIntoView({ block: "start", behavior: "smooth" }));
  };

  const modelReady = model.choice.model.trim() !== "";
  const provider = MODEL_PROVIDERS.find((each) => each.value === model.choice.provider)!;
  return (
    <section aria-labelledby="architect-heading" className="flex min-h-full flex-col" data-testid="architect-panel">
      <div className="flex items-center justify-between gap-2 border-b border-line px-4 py-3">
        <h2 id="architect-heading" className="text-sm font-semibold">
          Describe what it should do
        </h2>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Close<span className="sr-only"> the Architect</span>
        </Button>
      </div>
      <form onSubmit={submit} className="space-y-4 border-b border-line p-4" noValidate>
        <Field
          id={goalId}
          label="Goal"
          required
          help={`${count(goal.trim().length)} of ${count(MAX_GOAL_CHARACTERS)} characters. Say what starts it, what it reads and changes, and what should wait for you.`}
          error={errors.goal}
        >
          <textarea
            id={goalId}
            className={`${CONTROL_CLASS} min-h-28`}
            value={goal}
            placeholder="Every morning, read yesterday's orders from the shop database, write a summary to reports/, and ask me before emailing it."
            aria-invalid={errors.goal ? true : undefined}
            aria-describedby={`${goalId}-help${errors.goal ? ` ${goalId}-error` : ""}`}
            onChange={(event) => setGoal(event.target.value)}
            disabled={drafting}
          />
        </Field>
        {definition.nodes.length > 0 ? (
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" className="mt-0.5 size-4 accent-accent" checked={fromCurrent} onChange={(event) => setFromCurrent(event.target.checked)} disabled={drafting} />
            <span>
              Start from this workflow ({definition.nodes.length} {definition.nodes.length === 1 ? "step" : "steps"})
              <span className="block text-xs text-muted">Unticked, the draft is a new workflow: what is on the canvas is proposed for removal.</span>
            </span>
          </label>
        ) : null}
        <details
          className="group rounded-md border border-line"
          open={modelOpen || Object.keys(errors).some((key) => key.startsWith("model"))}
          onToggle={(event) => setModelOpen(event.currentTarget.open)}
        >
          <summary className="cursor-pointer px-3 py-2 text-sm">
            Model: {modelReady ? <span className="font-medium">{model.choice.model}</span> : <span className="text-caution">none chosen</span>}
            <span className="text-muted"> · {provider.label}</span>
          </summary>
          <div className="space-y-4 border-t border-line px-3 py-3">
            {modelReady ? null : (
              <p className="rounded-md bg-surface-sunken px-3 py-2 text-xs leading-relaxed" data-testid="architect-no-model">
                The Architect drafts with a model you choose. Use a provider&apos;s API key stored under Settings → Secrets, or a local
                OpenAI-compatible server such as Ollama (no key). See README → Connecting a model.
              </p>
            )}
            <ModelFields idPrefix="architect-model" value={model.choice} errorOf={(field) => errors[`model.${field}`]} onChange={model.change} />
            {errors.model ? <p className="text-xs font-medium text-caution">{errors.model}</p> : null}
          </div>
        </details>
        <div className="flex gap-2">
          {/* Keyed apart: a Stop click re-renders at once, and the same <button> turned to submit would draft again. */}
          {drafting ? (
            <Button key="stop" variant="danger" onClick={architect.stop}>
              Stop
            </Button>
          ) : (
            <Button key="draft" type="submit" variant="primary">
              {state.phase === "idle" ? "Draft" : "Draft again"}
            </Button>
          )}
        </div>
      </form>
      <div className="space-y-4 p-4">
        <p ref={statusRef} role="status" className="scroll-mt-2 text-sm text-muted" data-testid="architect-status">
          {statusText(state, architect.accepted)}
        </p>
        {architect.accepted ? <AcceptedNote /> : null}
        <RoundLog checks={"checks" in state ? state.checks : []} final={state.phase === "done"} />
        <DraftBody architect={architect} definition={definition} tools={tools} />
      </div>
    </section>
  );
}

/** What is under way, or how it ended, in one sentence. */
function statusText(state: DraftState, accepted: Architect["accepted"]): string {
  switch (state.phase) {
    case "idle":
      return accepted ? `Accepted ${accepted.count} of ${accepted.of} changes.` : "Say what the workflow should do; the draft is checked by the studio before you see it.";
    case "drafting":
      return state.round === 1 ? "Round 1: the model is writing a draft…" : `Round ${state.round}: the model is repairing what the studio found…`;
    case "done": {
      const tokens = `${count(state.usage.inputTokens)} tokens in, ${count(state.usage.outputTokens)} out`;
      return `Drafted in ${state.rounds} ${state.rounds === 1 ? "round" : "rounds"} (${tokens}). Nothing is applied until you accept it.`;
    }
    case "failed":
      return "Nothing was applied.";
  }
}

function AcceptedNote() {
  return (
    <p className="rounded-md bg-safe-soft px-3 py-2 text-sm text-safe" data-testid="architect-accepted">
      On the canvas, unsaved. Undo (Ctrl/⌘+Z) takes it all back; fill in what the cards mark (a folder, a database), then save.
    </p>
  );
}

/** Each round the studio checked: what it sent back to the model, so a refused tool or setting is said, not hidden. */
function RoundLog({ checks, final }: { checks: readonly RoundCheck[]; final: boolean }) {
  const sentBack = checks.filter((check) => check.problems.some((problem) => problem.for === "model"));
  if (sentBack.length === 0) return null;
  return (
    <details className="rounded-md border border-line px-3 py-2 text-xs" open={!final}>
      <summary className="cursor-pointer font-medium">
        Refused and sent back to the model: {sentBack.length} {sentBack.length === 1 ? "round" : "rounds"}
      </summary>
      <ol className="mt-2 space-y-2" aria-label="Rounds sent back">
        {sentBack.map((check) => (
          <li key={check.round}>
            <p className="font-medium">Round {check.round}</p>
            <ul className="list-disc space-y-0.5 pl-4 text-muted">
              {check.problems
                .filter((problem) => problem.for === "model")
                .map((problem, index) => (
                  <li key={index}>
                    <span className="font-mono">{problem.path}</span> — {problem.message}
                  </li>
                ))}
            </ul>
          </li>
        ))}
      </ol>
    </details>
  );
}

/** The answer: streaming, failed (with what came), or the proposal to review. */
function DraftBody({ architect, definition, tools }: { architect: Architect; definition: WorkflowDefinition; tools: ReadonlyMap<string, CatalogTool> }) {
  const { state } = architect;
  const partial = state.phase === "drafting" || state.phase === "failed" ? state.partial : null;
  const outline = useMemo(() => draftOutline(partial, tools), [partial, tools]);
  if (state.phase === "drafting") return <DraftOutlineView outline={outline} streaming />;
  if (state.phase === "failed") {
    return (
      <>
        <p role="alert" className="rounded-md border border-caution/40 bg-caution-soft px-3 py-2 text-sm text-caution">
          {state.error}
        </p>
        <DraftOutlineView outline={outline} streaming={false} />
      </>
    );
  }
  if (state.phase !== "done") return null;
  if (!state.definition || !architect.proposal) {
    return <ProblemItems title="The model's answers could not be used; nothing is proposed" problems={state.problems} />;
  }
  return (
    <>
      {architect.acceptProblem ? (
        <p role="alert" className="text-sm text-caution">
          {architect.acceptProblem}
        </p>
      ) : null}
      <ProposalReview
        proposal={architect.proposal}
        current={definition}
        proposed={state.definition}
        draft={state.draft}
        problems={state.problems}
        tools={tools}
        ticked={architect.ticked}
        onToggle={architect.toggle}
        onTick={architect.setTicked}
        onAccept={architect.accept}
        onDiscard={architect.discard}
      />
    </>
  );
}

/** Issues by the form's field: `goal`, `model.apiKey`, …; the first of each. */
function issuesByField(issues: readonly { path: string; message: string }[]): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path === "" ? "goal" : issue.path;
    byField[field] ??= issue.message;
  }
  return byField;
}

