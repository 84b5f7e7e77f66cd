"use client";

import Link from "next/link";
import { ApprovalCard, type ApprovalCardData } from "@/components/approvals/approval-card";
import { ArgumentEditDiff } from "@/components/approvals/argument-edit-diff";
import { ArgumentList } from "@/components/approvals/argument-list";
import { useKeptApprovals } from "@/components/approvals/use-kept-approvals";
import type { ApprovalForViewer } from "@/lib/contracts/approval";
import { Spinner } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { stepStatusWords } from "@/lib/run-view/status-words";
import type { ApprovalView, StepView } from "@/lib/run-view/apply-event";
import { describeAttempts } from "@/lib/run-view/attempts";
import { formatDuration } from "@/lib/run-view/format-time";
import { useFormatTime } from "@/components/ui/use-format-time";
import { resultTables } from "@/lib/run-view/result-tables";
import { shortRunId } from "@/lib/run-view/run-lineage";
import { maskSecrets, operationTitle, toolTitle, type ToolTitles } from "@/lib/run-view/tool-titles";
import type { WorkflowNode } from "@/lib/workflow/definition";
import type { StepOutput } from "@/lib/contracts/run";
import { formatBytes } from "@/lib/format/bytes";
import type { StepErrorKind } from "@/lib/contracts/execution-settings";
import { AgentActivityView } from "./agent-activity-view";
import type { ModelPrice } from "@/lib/contracts/model-prices";
import { ResultTableView } from "./result-table";

interface NodeResultPanelProps {
  node: WorkflowNode;
  label: string;
  step: StepView;
  approvals: readonly ApprovalView[];
  toolTitles: ToolTitles;
  runId: string;
  workflowName: string;
  /** Whether the person may decide the step's approvals (approval:decide); without it their cards are read-only. */
  mayDecide?: boolean;
  /** What the inbox's list says of the waiting ones (useApprovalDetails): policy, votes, deadline, and whether this person may decide. */
  details?: ReadonlyMap<string, ApprovalForViewer>;
  /** Whether what the run waits for is the reader's to decide (else a waiting step waits "for approval"). */
  forYou?: boolean;
  now: number;
  /** Resolved arguments fetched on demand (the event stream does not carry them); "loading" while fetching. */
  input: unknown;
  /** How many attempts the step may take in all (its retry policy). */
  maxAttempts: number;
  /** The steps its error path leads to, by name (for "its error path to … was taken"). */
  errorPathTo: readonly string[];
  /** The For each loop whose body holds the node, by name: in this run it runs per item, in each item's run. */
  loopLabel?: string;
  /** Today's prices of the run's models: what an agent step's tokens cost (none: "no price set"). */
  modelPrices?: readonly ModelPrice[];
}

/** A node's result: its status, any approval it waits for, its output (text, tables, images), its arguments, its error. */
export function NodeResultPanel({ node, label, step, approvals, toolTitles, runId, workflowName, mayDecide = true, details, forYou = true, now, input, maxAttempts, errorPathTo, loopLabel, modelPrices = [] }: NodeResultPanelProps) {
  const attempts = describeAttempts(step, maxAttempts, now);
  const formatTime = useFormatTime();
  const kept = useKeptApprovals();
  // Waiting, or decided here (its card stays, with the outcome); the other decisions are listed below.
  const shown = approvals.filter(kept.shows);
  const decided = approvals.filter((approval) => !kept.shows(approval));
  const tool = node.kind === "tool" ? toolTitle(toolTitles, node.tool) : null;
  const operation = node.kind === "tool" ? operationTitle(toolTitles, node.tool, node.operation) : null;
  const duration =
    step.startedAt && step.finishedAt
      ? formatDuration(Date.parse(step.finishedAt) - Date.parse(step.startedAt))
      : step.startedAt && (step.status === "running" || step.status === "waiting")
        ? `running for ${formatDuration(now - Date.parse(step.startedAt))}`
        : null;

  return (
    <div className="space-y-5">
      <div>
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="min-w-0 text-base font-semibold text-foreground [overflow-wrap:anywhere]">{label}</h2>
          <StatusBadge status={step.status} words={stepStatusWords(step.status, node.kind, { inLoop: loopLabel !== undefined, forYou })} />
        </div>
        {tool && (tool !== label || operation) ? (
          <p className="mt-0.5 text-xs text-muted [overflow-wrap:anywhere]">{[tool !== label ? tool : null, operation].filter(Boolean).join(" · ")}</p>
        ) : null}
        {step.startedAt ? (
          <p className="mt-1 text-xs text-muted" suppressHydrationWarning>
            Started <time dateTime={step.startedAt}>{formatTime(step.startedAt, "exact")}</time>
            {/* A number is not cut from its unit ("59 ms") at the end of a line. */}
            {duration ? (
              <>
                {" · "}
                {/* "running for 12 s" differs between the server's clock and the browser's: not a mismatch to report. */}
                <span className="whitespace-nowrap" suppressHydrationWarning>
                  {duration}
                </span>
              </>
            ) : null}
            {attempts && step.status !== "retrying" ? ` · ${attempts}` : step.attempt > 1 && !attempts ? ` · attempt ${step.attempt}` : ""}
          </p>
        ) : null}
      </div>

      {shown.map((approval) => (
        <ApprovalCard
          key={approval.id}
          approval={cardData(approval, runId, label, workflowName, details?.get(approval.id))}
          toolTitles={toolTitles}
          showContext={false}
          mayDecide={mayDecide && (details?.get(approval.id)?.viewer.mayDecide ?? true)}
          readOnlyReason={details?.get(approval.id)?.viewer.reason ?? null}
          onDeciding={() => kept.keep(approval.id)}
        />
      ))}

      {step.status === "running" ? (
        <div className="rounded-lg border border-accent/30 bg-accent-soft px-3 py-2 text-sm text-foreground">
          <Spinner label={step.progress ?? "Working"} />
        </div>
      ) : null}
      {step.status === "retrying" ? (
        <section aria-label="Retrying" className="rounded-lg border border-caution/40 bg-caution-soft px-3 py-2.5 text-sm text-caution">
          <p className="font-semibold" data-testid="retry-countdown">
            {attempts ?? "Waiting to try again"}
          </p>
          {step.error ? <p className="mt-0.5 whitespace-pre-wrap break-words">{step.error}</p> : null}
        </section>
      ) : null}
      {step.status === "pending" ? <p className="text-sm text-muted">Not started yet: it runs when the steps before it finish.</p> : null}
      {step.status === "attached" ? (
        <p className="text-sm text-muted">Attached to the agent {step.attachedTo}: it runs when the agent calls it; see the agent&apos;s tool calls.</p>
      ) : step.status === "skipped" && loopLabel !== undefined ? (
        <p className="text-sm text-muted">In the loop “{loopLabel}”: it runs once per item, in each item&apos;s run. Open an item from the loop&apos;s panel to see its steps.</p>
      ) : step.status === "skipped" ? (
        <p className="text-sm text-muted">Skipped: an earlier step failed, or the router took another route.</p>
      ) : null}

      {step.carriedAs && step.status === "succeeded" ? (
        <p className="rounded-lg border border-line bg-surface-sunken px-3 py-2 text-sm" data-testid="carried-over">
          {step.carriedAs === "pin" ? "Its pinned output was used" : "The values typed for this test were used"}: this test run did not run it.
          {step.carriedFrom ? (
            <>
              {" "}
              Pinned from{" "}
              <Link href={`/runs/${step.carriedFrom}`} className="font-medium text-accent hover:underline">
                run {shortRunId(step.carriedFrom)}
              </Link>
              .
            </>
          ) : null}
        </p>
      ) : step.carriedFrom && step.status === "succeeded" ? (
        <p className="rounded-lg border border-line bg-surface-sunken px-3 py-2 text-sm" data-testid="carried-over">
          Kept from{" "}
          <Link href={`/runs/${step.carriedFrom}`} className="font-medium text-accent hover:underline">
            run {shortRunId(step.carriedFrom)}
          </Link>
          : it succeeded there, so this retry did not run it again. Its result and times are that run&apos;s.
        </p>
      ) : null}

      {step.loopItems ? (
        <section aria-label="Items" className="space-y-1.5 rounded-lg border border-line bg-surface-sunken px-3 py-2 text-sm" data-testid="loop-items">
          <p className="font-medium" data-testid="loop-progress">
            {step.progress ?? `${step.loopItems.runs.length} of ${step.loopItems.count} started`}
          </p>
          <p className="text-xs text-muted">Each item is a run of its own: open one to see its steps.</p>
          <ol className="space-y-0.5">
            {[...step.loopItems.runs]
              .sort((a, b) => a.item - b.item)
              .map((each) => (
                <li key={each.runId}>
                  {/* 24 px tall, so each item's link is a target of its own (WCAG 2.5.8). */}
                  <Link href={`/runs/${each.runId}`} className="inline-flex min-h-6 items-center font-medium text-accent hover:underline">
                    Item {each.item + 1} of {step.loopItems!.count}: run {shortRunId(each.runId)}
                  </Link>{" "}
                  <span className={each.status === "failed" ? "text-caution" : "text-muted"}>({each.status})</span>
                </li>
              ))}
          </ol>
        </section>
      ) : null}

      {step.childRun ? (
        <p className="rounded-lg border border-line bg-surface-sunken px-3 py-2 text-sm" data-testid="child-run-link">
          Calls “{step.childRun.workflowName}”:{" "}
          <Link href={`/runs/${step.childRun.id}`} className="font-medium text-accent hover:underline">
            open its run {shortRunId(step.childRun.id)}
          </Link>
          {step.status === "waiting" || step.status === "running" ? ", which this step waits for." : "."}
        </p>
      ) : null}

      {step.agent ? <AgentActivityView nodeId={node.id} activity={step.agent} toolTitles={toolTitles} live={step.status === "running"} prices={modelPrices} /> : null}

      {step.status === "failed" && step.error ? (
        <section aria-label="Error" className="rounded-lg border border-caution/40 bg-caution-soft px-3 py-2.5 text-sm text-caution">
          <p className="font-semibold">Failed{step.errorKind ? ` (${ERROR_KIND_WORDS[step.errorKind]})` : ""}</p>
          <p className="mt-0.5 whitespace-pre-wrap break-words">{step.error}</p>
          {/* Failed with attempts left: the engine found the error not worth trying again (a denial, bad input, a missing file…). */}
          {maxAttempts > 1 && step.attempt < maxAttempts && step.errorKind !== "cancelled" ? (
            <p className="mt-1.5 text-foreground">Not tried again: this error says trying again would not help.</p>
          ) : null}
          {step.handledBy === "error-edge" ? (
            <p className="mt-1.5 font-medium text-foreground">
              Handled: its error path{errorPathTo.length > 0 ? ` to ${errorPathTo.join(", ")}` : ""} was taken, and its normal path skipped.
            </p>
          ) : step.handledBy === "continue" ? (
            <p className="mt-1.5 font-medium text-foreground">Handled: the run went on, and the steps after it read this error as its output.</p>
          ) : null}
        </section>
      ) : null}

      {step.output ? <OutputView node={node} output={step.output} runId={runId} /> : null}

      {node.kind === "tool" && step.status !== "pending" && step.status !== "skipped" && step.status !== "attached" ? (
        <section aria-labelledby={`input-${node.id}`}>
          <h3 id={`input-${node.id}`} className="mb-1.5 text-xs font-semibold uppercase tracking-wide text-muted">
            {isRecord(input) || input === "loading" ? "Resolved arguments" : "Arguments"}
          </h3>
          {input === "loading" ? (
            <Spinner label="Loading the arguments" />
          ) : isRecord(input) ? (
            <ArgumentList values={input} label="Resolved arguments" />
          ) : (
            <>
              <p className="mb-1.5 text-xs text-muted">
                {step.status === "running" || step.status === "waiting"
                  ? "As configured; the resolved values are recorded when the step finishes:"
                  : "Not recorded for this step; as configured in the workflow:"}
              </p>
              <ArgumentList values={maskSecrets(toolTitles, node.tool, node.arguments)} label="Arguments as configured" />
            </>
          )}
        </section>
      ) : null}

      {decided.length > 0 ? (
        <section aria-labelledby={`decisions-${node.id}`}>
          <h3 id={`decisions-${node.id}`} className="mb-1.5 text-xs font-semibold uppercase tracking-wide text-muted">
            Decisions
          </h3>
          <ul className="space-y-1 text-sm">
            {decided.map((approval) => (
              <li key={approval.id} className="space-y-1.5 text-muted">
                <p>{decisionLine(approval)}</p>
                {approval.editedArguments && approval.decision !== "deny" ? (
                  <ArgumentEditDiff proposed={approval.kind === "plan" ? { plan: approval.preview } : approval.arguments} approved={approval.editedArguments} />
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

function OutputView({ node, output, runId }: { node: WorkflowNode; output: StepOutput; runId: string }) {
  const tables = resultTables(output.data);
  const isInputs = node.kind === "input" && isRecord(output.data);
  return (
    <section aria-labelledby={`output-${node.id}`} className="space-y-3">
      <h3 id={`output-${node.id}`} className="text-xs font-semibold uppercase tracking-wide text-muted">
        {node.kind === "input" ? "Inputs given" : "Result"}
      </h3>
      {output.truncated ? (
        // What follows, and what later steps read, is the stored part: say so, with the true sizes.
        <p role="note" data-testid="result-truncated" className="rounded-md border border-caution/40 bg-caution-soft px-3 py-2 text-xs text-caution">
          {output.truncated.notice}
          {output.truncated.kept ? (
            <>
              {" "}
              <a
                href={`/api/runs/${encodeURIComponent(runId)}/steps/${encodeURIComponent(node.id)}/output`}
                download
                className="font-medium text-accent underline underline-offset-2 hover:no-underline"
              >
                Download the whole result ({formatBytes(output.truncated.totalBytes)} of JSON)
              </a>
            </>
          ) : null}
        </p>
      ) : null}
      {isInputs ? (
        <ArgumentList values={output.data as Record<string, unknown>} label="Inputs given" />
      ) : output.content && tables.length > 0 ? (
        <details>
          <summary className="cursor-pointer py-1 text-xs font-medium text-muted hover:text-foreground">The result as text</summary>
          <pre className="mt-2 max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-lg border border-line bg-surface-sunken p-3 font-mono text-xs leading-relaxed text-foreground">
            {output.content}
          </pre>
        </details>
      ) : output.content ? (
        <pre className="max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-lg border border-line bg-surface-sunken p-3 font-mono text-xs leading-relaxed text-foreground">
          {output.content}
        </pre>
      ) : (
        <p className="text-sm text-muted">No text.</p>
      )}
      {tables.map((table, index) => (
        <ResultTableView key={index} table={table} />
      ))}
      {!isInputs && tables.length === 0 && output.data !== undefined && output.data !== null ? (
        // What {{ nodes.<id>.data… }} reads, when no table shows it.
        <details>
          <summary className="cursor-pointer py-1 text-xs font-medium text-muted hover:text-foreground">The result as data (JSON)</summary>
          <pre className="mt-2 max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-lg border border-line bg-surface-sunken p-3 font-mono text-xs leading-relaxed text-foreground">
            {JSON.stringify(output.data, null, 2)}
          </pre>
        </details>
      ) : null}
      {output.images?.map((image, index) => (
        // eslint-disable-next-line @next/next/no-img-element -- inline base64 from the tool; nothing to optimise
        <img
          key={index}
          src={`data:${image.mediaType};base64,${image.data}`}
          alt={`Image ${index + 1} from ${node.label ?? "this step"} (${image.mediaType})`}
          className="max-h-96 w-auto rounded-lg border border-line"
        />
      ))}
    </section>
  );
}

/** A failure's kind in words, beside its message. */
const ERROR_KIND_WORDS: Record<StepErrorKind, string> = {
  "invalid-input": "bad input",
  denied: "denied",
  confinement: "outside its folder",
  "not-found": "not found",
  timeout: "timed out",
  network: "network",
  unavailable: "unavailable",
  busy: "busy",
  cancelled: "cancelled",
  failed: "failed",
  template: "a template refers to nothing",
  interrupted: "interrupted by a restart",
  internal: "internal error",
};

function decisionLine(approval: ApprovalView): string {
  const by = approval.decidedBy ? ` by ${approval.decidedBy.name}` : "";
  if (approval.editedArguments && approval.decision !== "deny") return `Approved with edits${by}`;
  switch (approval.decision) {
    case "once":
      return `Approved once${by}`;
    case "always":
      return `Always allowed${by}`;
    case "approve":
      return `Approved${by}`;
    case "answer":
      return `Answered${by}${approval.feedback ? `: “${approval.feedback}”` : ""}`;
    case "deny":
      return `Denied${by}${approval.feedback ? `: “${approval.feedback}”` : ""}`;
    default:
      return approval.status === "cancelled" ? "Withdrawn when the run was cancelled" : "Decided";
  }
}

/** A run view's card: what the events say, with what the inbox's list adds (who decides, votes, deadline, who was told) once read. */
export function cardData(approval: ApprovalView, runId: string, nodeLabel: string, workflowName: string, detail?: ApprovalForViewer): ApprovalCardData {
  const added = detail ? { policy: detail.policy, votes: detail.votes, dueAt: detail.dueAt, escalatedAt: detail.escalatedAt, notifications: detail.notifications } : {};
  return { ...approval, ...added, runId, nodeLabel, workflowName };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
