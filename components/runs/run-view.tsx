"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useReducer, useState } from "react";
import { ApprovalCard } from "@/components/approvals/approval-card";
import { useApprovalDetails } from "@/components/approvals/use-approval-details";
import { useKeptApprovals } from "@/components/approvals/use-kept-approvals";
import { ErrorNotice } from "@/components/ui/page-header";
import { triggerDetailText } from "@/lib/run-view/trigger-text";
import { StatusBadge } from "@/components/ui/status-badge";
import { useFormatTime } from "@/components/ui/use-format-time";
import { statusWords, stepStatusWords } from "@/lib/run-view/status-words";
import { api } from "@/lib/client/api";
import type { RunDetail, StepOutput } from "@/lib/contracts/run";
import { applyRunEvents, emptyStep, initialRunViewState, type RunViewState, type StepViewStatus } from "@/lib/run-view/apply-event";
import type { WorkflowNode } from "@/lib/workflow/definition";
import { enclosingLoops } from "@/lib/workflow/loop-body";
import { formatDuration } from "@/lib/run-view/format-time";
import { TimeAgo } from "./time-ago";
import { nodeLabel } from "@/lib/run-view/node-labels";
import type { ToolTitles } from "@/lib/run-view/tool-titles";
import type { RunEvent } from "@/lib/contracts/run-event";
import { executionPolicyOf } from "@/lib/contracts/execution-settings";
import { isErrorEdge } from "@/lib/workflow/scheduler";
import { executionOf } from "@/nodes/definitions";
import { CancelRunButton } from "./cancel-run-button";
import { CopyToEditor } from "./copy-to-editor";
import { DeleteRunButton } from "./delete-run-button";
import { cardData, NodeResultPanel } from "./node-result-panel";
import { tokensDetail, tokensText, UsageCost } from "./usage-text";
import { runUsage } from "@/lib/run-view/run-usage";
import { RerunActions } from "./rerun-actions";
import { RunCanvas } from "./run-canvas";
import { RunLineage } from "./run-lineage";
import { RunTimeline } from "./run-timeline";
import { useNow } from "./use-now";
import { useRunEventStream } from "./use-run-event-stream";

const FINISHED = new Set(["succeeded", "failed", "cancelled"]);
/** Plan approvals belong to the run, not a node. */
const RUN_NODE = "__run__";

function reducer(state: RunViewState, events: RunEvent[]): RunViewState {
  return applyRunEvents(state, events);
}

interface RunViewProps {
  run: RunDetail;
  history: RunEvent[];
  toolTitles: ToolTitles;
  /** What the person may do on the run (their scopes on its workflow); everything when left out. */
  access?: RunAccess;
  /**
   * The page left the steps' outputs out of `run` (a big run: most of its HTML was outputs the panel shows one at a
   * time); a finished step's output is fetched when its node is opened.
   */
  outputsLeftOut?: boolean;
}

/** What the run page offers, from the person's scopes on the run's workflow: the server checks each again. */
export interface RunAccess {
  /** Cancel and delete it (run:cancel). */
  cancel: boolean;
  /** Run again and retry (workflow:run). */
  run: boolean;
  /** Copy its outputs to the editor as pins (workflow:edit). */
  edit: boolean;
  /** Decide its approvals (approval:decide). */
  decide: boolean;
}

const FULL_ACCESS: RunAccess = { cancel: true, run: true, edit: true, decide: true };

/** What the page does not offer the person, and the scope each needs, as one sentence; null when it offers everything. */
function withheldText(access: RunAccess, active: boolean): string | null {
  const withheld = [
    access.cancel ? null : `${active ? "cancelling or deleting" : "deleting"} it needs run:cancel`,
    access.run || active ? null : "running it again needs workflow:run",
  ].filter((part) => part !== null);
  return withheld.length === 0 ? null : `You may follow this run; ${withheld.join(" and ")} on its workflow.`;
}

/** A run as it happens: the canvas with live statuses, the selected node's result, and the timeline. */
export function RunView({ run, history, toolTitles, access = FULL_ACCESS, outputsLeftOut = false }: RunViewProps) {
  const [state, dispatch] = useReducer(reducer, undefined, () => initialRunViewState(run, history));
  const [selected, setSelected] = useState<string | null>(() => {
    const waiting = run.approvals.find((approval) => approval.status === "pending" && approval.nodeId !== RUN_NODE);
    return waiting?.nodeId ?? null;
  });
  const [inputs, setInputs] = useState<Record<string, unknown>>({});
  const [outputs, setOutputs] = useState<Record<string, StepOutput | null>>({});
  const [inputError, setInputError] = useState<string | null>(null);
  const keptRunApprovals = useKeptApprovals();
  const approvalDetails = useApprovalDetails(run.id, state.approvals);

  const nodesById = useMemo(() => new Map(run.definition.nodes.map((node) => [node.id, node])), [run.definition]);
  // The nodes of loop bodies: in this run they run per item, in each item's run.
  const loops = useMemo(() => enclosingLoops(run.definition), [run.definition]);
  const labelOf = useCallback(
    (nodeId: string) => {
      const node = nodesById.get(nodeId);
      return node ? nodeLabel(node, toolTitles) : nodeId === RUN_NODE ? "Plan" : nodeId;
    },
    [nodesById, toolTitles],
  );
  const isNode = useCallback((nodeId: string) => nodesById.has(nodeId), [nodesById]);

  // The live stream, applied in batches; a node that starts waiting for a person opens its panel.
  const canvasNodes = useMemo(() => new Set(run.definition.nodes.map((node) => node.id)), [run.definition]);
  const onEvents = useCallback(
    (events: RunEvent[]) => {
      dispatch(events);
      const waiting = events.findLast((event) => event.type === "approval-requested" && event.nodeId !== null && canvasNodes.has(event.nodeId));
      if (waiting?.nodeId) setSelected(waiting.nodeId);
    },
    [canvasNodes],
  );
  const connection = useRunEventStream(run.id, run.lastSeq, !FINISHED.has(run.status), onEvents);

  // Resolved arguments are in the step record, not in the events, and a big run's page holds its outputs back: fetch
  // them when a finished node is opened (the finished steps' at once).
  const openedStep = selected ? (state.steps[selected] ?? emptyStep()) : null;
  const finishedOpened = openedStep !== null && (openedStep.status === "succeeded" || openedStep.status === "failed");
  const needsInput = selected !== null && finishedOpened && openedStep.input === undefined && !(selected in inputs);
  const needsOutput = selected !== null && finishedOpened && outputsLeftOut && openedStep.output === null && !(selected in outputs);
  const needsRecord = needsInput || needsOutput;
  useEffect(() => {
    if (!needsRecord || selected === null) return;
    let cancelled = false;
    api<{ run: RunDetail }>(`/api/runs/${encodeURIComponent(run.id)}`)
      .then(({ run: fresh }) => {
        if (cancelled) return;
        // Only finished steps: a step still running has no recorded arguments or output yet.
        const finished = fresh.steps.filter((step) => step.status === "succeeded" || step.status === "failed");
        setInputs((current) => ({ ...current, [selected]: null, ...Object.fromEntries(finished.map((step) => [step.nodeId, step.input])) }));
        setOutputs((current) => ({ ...current, [selected]: null, ...Object.fromEntries(finished.map((step) => [step.nodeId, step.output])) }));
      })
      .catch(() => {
        if (cancelled) return;
        setInputError("The step's arguments and result could not be loaded.");
        setInputs((current) => ({ ...current, [selected]: null }));
        setOutputs((current) => ({ ...current, [selected]: null }));
      });
    return () => {
      cancelled = true;
    };
  }, [needsRecord, selected, run.id]);
  const selectedStep = openedStep && outputsLeftOut && openedStep.output === null && selected !== null && outputs[selected] ? { ...openedStep, output: outputs[selected] } : openedStep;

  const active = !FINISHED.has(state.status);
  const now = useNow(1000, active);
  const router = useRouter();
  const formatTime = useFormatTime();
  const deleteTarget = { runId: run.id, workflowName: run.workflowName, startedAt: formatTime(run.startedAt, "exact") };
  const duration = state.finishedAt
    ? formatDuration(Date.parse(state.finishedAt) - Date.parse(run.startedAt))
    : `running for ${formatDuration(now - Date.parse(run.startedAt))}`;
  const usage = useMemo(() => runUsage(state.steps, run.usage, run.modelPrices), [state.steps, run.usage, run.modelPrices]);
  const runApprovals = state.approvals.filter((approval) => keptRunApprovals.shows(approval) && !nodesById.has(approval.nodeId));
  const pendingApprovals = state.approvals.filter((approval) => approval.status === "pending");
  const waitingCount = pendingApprovals.length;
  // Whether what the run waits for is this person's to decide: their scope, then (once read) each approval's policy.
  const forYou = access.decide && (pendingApprovals.length === 0 || pendingApprovals.some((approval) => approvalDetails.get(approval.id)?.viewer.mayDecide ?? true));
  // Said to a screen reader when it changes: the run's status, and approvals arriving or going.
  const waitingFor = forYou ? "for you" : "for someone who may decide";
  const announcement = `Run ${statusWords(state.status, { forYou })}.${waitingCount > 0 ? ` ${waitingCount} ${waitingCount === 1 ? "approval waits" : "approvals wait"} ${waitingFor}.` : ""}`;
  const selectedNode = selected ? nodesById.get(selected) : undefined;
  const withheld = withheldText(access, active);
  // What Copy to editor offers: the steps as the view knows them now (the page's record, then the stream's outputs).
  const finishedSteps = useMemo(
    () =>
      Object.entries(state.steps).map(([nodeId, step]) => ({
        nodeId,
        status: step.status === "attached" ? ("skipped" as const) : step.status,
        hasOutput: step.output !== null || (outputsLeftOut && step.status === "succeeded"),
      })),
    [state.steps, outputsLeftOut],
  );

  return (
    // A column whose order changes on a phone: there the steps and the timeline lead, in words at a readable size, and the
    // canvas (at a readable zoom it shows two steps at a time) follows; from sm up the canvas leads, the details beside it.
    <div className="flex flex-col gap-6" data-last-seq={state.lastSeq}>
      <p role="status" aria-live="polite" className="sr-only" data-testid="run-announcement">
        {announcement}
      </p>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm text-muted">
            <Link href="/runs" className="hover:text-foreground hover:underline">
              Runs
            </Link>{" "}
            / run
          </p>
          <h1 className="mt-1 flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight">
            <Link href={`/workflows/${run.workflowId}`} className="min-w-0 hover:text-accent hover:underline [overflow-wrap:anywhere]">
              {run.workflowName}
            </Link>
            <StatusBadge status={state.status} words={statusWords(state.status, { forYou })} />
          </h1>
          <p className="mt-1 text-sm text-muted" suppressHydrationWarning>
            Version {run.version} · started{" "}
            <TimeAgo value={run.startedAt} now={now} />{" "}
            by{" "}
            {run.startedBy ? (
              <>
                <span className="font-medium text-foreground" data-testid="run-starter">
                  {run.startedBy.name}
                </span>{" "}
                (<span data-testid="run-trigger">{triggerDetailText(run.trigger, run.sourceRun?.kind)}</span>)
              </>
            ) : (
              <span data-testid="run-trigger">{triggerDetailText(run.trigger, run.sourceRun?.kind)}</span>
            )}
            {run.trigger.evaluation ? (
              <>
                {" "}
                of{" "}
                <Link href={`/workflows/${encodeURIComponent(run.workflowId)}/evaluations/${encodeURIComponent(run.trigger.evaluation.id)}`} className="font-medium text-accent hover:underline">
                  its evaluation
                </Link>
              </>
            ) : null}{" "}
            · {/* "running for 12 s" differs between the server's clock and the browser's (suppressHydrationWarning covers its own element only). */}
            <span className="whitespace-nowrap" suppressHydrationWarning>
              {duration}
            </span>
            {usage.calls > 0 ? (
              <>
                {" "}
                · <span title={tokensDetail(usage)} data-testid="run-tokens">{tokensText(usage)} tokens</span> ·{" "}
                <span data-testid="run-cost">
                  <UsageCost usage={usage} className="text-foreground" />
                </span>
              </>
            ) : null}
            {connection === "connecting" && active ? <span className="ml-2">· connecting…</span> : null}
            {connection === "reconnecting" && active ? <span className="ml-2 text-caution">· reconnecting…</span> : null}
            {connection === "live" && active ? <span className="ml-2 text-safe">· live</span> : null}
          </p>
        </div>
        {active ? (
          <div className="flex flex-wrap items-start justify-end gap-2">
            {access.cancel ? <CancelRunButton runId={run.id} workflowName={run.workflowName} size="md" /> : null}
            {access.cancel ? <DeleteRunButton {...deleteTarget} status={state.status} size="md" onDeleted={() => router.push("/runs")} /> : null}
          </div>
        ) : (
          <div className="flex flex-wrap items-start justify-end gap-2">
            {access.run ? <RerunActions runId={run.id} status={state.status} version={run.version} latestVersion={run.latestVersion} /> : null}
            {access.edit ? <CopyToEditor runId={run.id} workflowId={run.workflowId} steps={finishedSteps} labelOf={labelOf} /> : null}
            {access.cancel ? <DeleteRunButton {...deleteTarget} status={state.status} size="md" onDeleted={() => router.push("/runs")} /> : null}
          </div>
        )}
      </div>
      {withheld ? (
        <p className="-mt-3 text-sm text-muted" data-testid="run-withheld">
          {withheld}
        </p>
      ) : null}

      {state.status === "failed" && state.error ? <ErrorNotice title="The run failed">{state.error}</ErrorNotice> : null}
      {state.errorWorkflowRunId ? (
        <p className="rounded-lg border border-line bg-surface px-3 py-2 text-sm shadow-card" data-testid="error-workflow-link">
          Its error workflow{run.errorWorkflowRun ? ` “${run.errorWorkflowRun.workflowName}”` : ""} was started:{" "}
          <Link href={`/runs/${state.errorWorkflowRunId}`} className="font-medium text-accent hover:underline">
            open the error workflow&apos;s run
          </Link>
        </p>
      ) : null}
      {run.sourceRun?.kind === "error-workflow" ? (
        <p className="rounded-lg border border-line bg-surface px-3 py-2 text-sm shadow-card" data-testid="source-run-link">
          Started because a run of “{run.sourceRun.workflowName}” failed:{" "}
          <Link href={`/runs/${run.sourceRun.id}`} className="font-medium text-accent hover:underline">
            open the failed run
          </Link>
        </p>
      ) : null}
      <RunLineage run={run} now={now} />
      {runApprovals.map((approval) => (
        <ApprovalCard
          key={approval.id}
          approval={cardData(approval, run.id, labelOf(approval.nodeId), run.workflowName, approvalDetails.get(approval.id))}
          toolTitles={toolTitles}
          showContext={false}
          mayDecide={access.decide && (approvalDetails.get(approval.id)?.viewer.mayDecide ?? true)}
          readOnlyReason={approvalDetails.get(approval.id)?.viewer.reason ?? null}
          onDeciding={() => keptRunApprovals.keep(approval.id)}
        />
      ))}

      <div className="grid gap-4 max-sm:contents lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="h-[28rem] overflow-hidden rounded-xl border border-line bg-surface-sunken shadow-card max-sm:order-3 lg:h-[34rem]">
          <RunCanvas definition={run.definition} steps={state.steps} toolTitles={toolTitles} selectedNodeId={selected} onSelect={setSelected} now={now} forYou={forYou} />
        </div>
        <aside aria-label="Node details" className="min-w-0 self-start rounded-xl border border-line bg-surface p-4 shadow-card max-sm:order-1 max-sm:self-stretch">
          <label htmlFor="run-node-picker" className="text-xs font-medium text-muted">
            Show node
          </label>
          <select
            id="run-node-picker"
            value={selected ?? ""}
            onChange={(event) => setSelected(event.target.value === "" ? null : event.target.value)}
            className="mb-4 mt-1 w-full rounded-md border border-line-strong bg-surface px-2 py-1.5 text-sm text-foreground shadow-card"
          >
            <option value="">The whole run</option>
            {run.definition.nodes.map((node) => (
              <option key={node.id} value={node.id}>
                {labelOf(node.id)} — {stepStatusWords(state.steps[node.id]?.status ?? "pending", node.kind, { inLoop: loops.has(node.id), forYou })}
              </option>
            ))}
          </select>
          {selectedNode && selectedStep ? (
            <NodeResultPanel
              node={selectedNode}
              label={labelOf(selectedNode.id)}
              step={selectedStep}
              approvals={state.approvals.filter((approval) => approval.nodeId === selectedNode.id)}
              toolTitles={toolTitles}
              runId={run.id}
              workflowName={run.workflowName}
              mayDecide={access.decide}
              details={approvalDetails}
              forYou={forYou}
              now={now}
              input={selectedStep.input !== undefined ? selectedStep.input : needsInput ? "loading" : inputs[selectedNode.id]}
              maxAttempts={executionPolicyOf({ execution: executionOf(selectedNode) }, run.definition).maxAttempts}
              errorPathTo={run.definition.edges.filter((edge) => edge.source === selectedNode.id && isErrorEdge(edge)).map((edge) => labelOf(edge.target))}
              {...(loops.has(selectedNode.id) ? { loopLabel: labelOf(loops.get(selectedNode.id)!) } : {})}
              modelPrices={run.modelPrices}
            />
          ) : (
            <RunSummaryPanel state={state} inputs={run.inputs} nodes={nodesById} loops={loops} forYou={forYou} />
          )}
          {inputError ? <p className="mt-3 text-xs text-caution">{inputError}</p> : null}
        </aside>
      </div>

      <section aria-labelledby="timeline-heading" className="rounded-xl border border-line bg-surface p-4 shadow-card max-sm:order-2">
        <h2 id="timeline-heading" className="mb-3 text-sm font-semibold">
          Timeline
        </h2>
        <RunTimeline events={state.timeline} labelOf={labelOf} isNode={isNode} onSelect={setSelected} selectedNodeId={selected} />
      </section>
    </div>
  );
}

/** The order the run's step counts are listed in. */
const COUNTED: readonly StepViewStatus[] = ["succeeded", "running", "waiting", "retrying", "failed", "pending", "skipped", "attached"];

function RunSummaryPanel({
  state,
  inputs,
  nodes,
  loops,
  forYou,
}: {
  state: RunViewState;
  inputs: Record<string, unknown>;
  nodes: ReadonlyMap<string, WorkflowNode>;
  loops: ReadonlyMap<string, string>;
  forYou: boolean;
}) {
  // Counted by what each status says: steps waiting for you and steps waiting for the runs they called are not one count.
  const counts = new Map<string, { status: StepViewStatus; count: number }>();
  for (const [nodeId, step] of Object.entries(state.steps)) {
    const kind = nodes.get(nodeId)?.kind;
    const words = kind ? stepStatusWords(step.status, kind, { inLoop: loops.has(nodeId), forYou }) : statusWords(step.status, { forYou });
    const entry = counts.get(words) ?? { status: step.status, count: 0 };
    entry.count += 1;
    counts.set(words, entry);
  }
  const shown = [...counts.entries()].filter(([, entry]) => COUNTED.includes(entry.status)).sort(([, a], [, b]) => COUNTED.indexOf(a.status) - COUNTED.indexOf(b.status));
  const output = state.output;
  return (
    <div className="space-y-4 text-sm">
      <p className="text-muted">Choose a node on the canvas or in the timeline to see its result.</p>
      <dl className="grid grid-cols-2 gap-2">
        {shown.map(([words, entry]) => (
          <div key={words} className="rounded-lg border border-line px-3 py-2">
            <dt className="text-xs text-muted">{words}</dt>
            <dd className="text-lg font-semibold tabular-nums">{entry.count}</dd>
          </div>
        ))}
      </dl>
      {Object.keys(inputs).length > 0 ? (
        <div>
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted">Inputs</h3>
          <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
            {Object.entries(inputs).map(([key, value]) => (
              <div key={key} className="contents">
                <dt className="max-w-40 break-all font-mono text-muted">{key}</dt>
                <dd className="break-all font-mono">{typeof value === "string" ? value : JSON.stringify(value)}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
      {state.status === "succeeded" && output !== null && output !== undefined ? (
        <div>
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted">Output</h3>
          <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-words rounded-lg border border-line bg-surface-sunken p-3 font-mono text-xs">
            {typeof output === "string" ? output : JSON.stringify(output, null, 2)}
          </pre>
        </div>
      ) : null}
    </div>
  );
}
