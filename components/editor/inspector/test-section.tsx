"use client";

import Link from "next/link";
import { useCallback, useEffect, useId, useMemo, useReducer, useState } from "react";
import { ApprovalCard } from "@/components/approvals/approval-card";
import { useKeptApprovals } from "@/components/approvals/use-kept-approvals";
import { cardData, NodeResultPanel } from "@/components/runs/node-result-panel";
import { useNow } from "@/components/runs/use-now";
import { useRecordedInput } from "@/components/runs/use-recorded-input";
import { useRunEventStream } from "@/components/runs/use-run-event-stream";
import { Button } from "@/components/ui/button";
import { StatusBadge } from "@/components/ui/status-badge";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import type { CatalogTool } from "@/lib/contracts/catalog";
import { executionPolicyOf } from "@/lib/contracts/execution-settings";
import type { PinnedOutput } from "@/lib/contracts/pins";
import type { RunDetail } from "@/lib/contracts/run";
import type { RunEvent } from "@/lib/contracts/run-event";
import type { TestRunPreview } from "@/lib/contracts/test-run";
import type { NodeNames } from "@/lib/editor/connection-choices";
import { parsePinJson, pinJsonOf } from "@/lib/editor/pin-json";
import { applyRunEvent, emptyStep, initialRunViewState, type RunViewState } from "@/lib/run-view/apply-event";
import { shortRunId } from "@/lib/run-view/run-lineage";
import { toolTitlesOf, type ToolTitles } from "@/lib/run-view/tool-titles";
import type { WorkflowDefinition, WorkflowNode } from "@/lib/workflow/definition";
import { executionOf, startsRunsOf } from "@/nodes/definitions";
import { PanelSection } from "./panel-section";
import { TestInputs, testInputValues, type TestInputValues } from "./test-inputs";
import { toRunInputs } from "../run-dialog";
import { useTestRuns, type Refusal, type TestMode } from "../test-runs";
import { useSamples } from "../samples";

const FINISHED = new Set(["succeeded", "failed", "cancelled"]);

interface TestSectionProps {
  node: WorkflowNode;
  definition: WorkflowDefinition;
  tools: CatalogTool[];
  names: NodeNames;
}

/**
 * Test this step: Run this step (the node alone, what it reads kept from pins,
 * the last run or values typed here) and Run up to here (the paths that lead
 * to it), the test run's result live below, with its approvals asked right
 * here as in the inbox; and the node's pin (from the test's result, the last
 * run's output, or JSON typed and checked on its field).
 */
export function TestSection({ node, definition, tools, names }: TestSectionProps) {
  const testRuns = useTestRuns();
  const samples = useSamples();
  const [preview, setPreview] = useState<TestRunPreview | null>(null);
  const [previewProblem, setPreviewProblem] = useState<string | null>(null);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [typedErrors, setTypedErrors] = useState<Record<string, string>>({});
  const [inputEdits, setInputEdits] = useState<TestInputValues | null>(null);
  const inputFields = useMemo(() => definition.nodes.find((each) => each.kind === "input")?.fields ?? [], [definition.nodes]);
  const toolTitles = useMemo(() => toolTitlesOf(tools), [tools]);
  const state = testRuns?.stateOf(node.id) ?? { status: "idle" as const };
  const startedRunId = state.status === "started" ? state.run.id : null;
  const pinned = testRuns?.pins.get(node.id);

  const askPreview = testRuns?.preview;
  const [previewAsked, setPreviewAsked] = useState(0);
  const loadPreview = useCallback(() => setPreviewAsked((count) => count + 1), []);
  // The finished test run's outputs are the newest samples now: the fields' previews and pickers read them.
  const reloadSamples = samples?.reload;
  const testRunFinished = useCallback(() => {
    loadPreview();
    reloadSamples?.();
  }, [loadPreview, reloadSamples]);
  useEffect(() => {
    if (!askPreview) return;
    let current = true;
    // Asked again when a pin changes, a test run of this node starts or ends (loadPreview), so what it would use is what it says.
    void askPreview(node.id, "step").then((answer) => {
      if (!current) return;
      setPreview("sources" in answer ? answer : null);
      setPreviewProblem("sources" in answer ? null : answer.message);
    });
    return () => {
      current = false;
    };
  }, [askPreview, node.id, pinned?.pinnedAt, startedRunId, previewAsked]);

  if (!testRuns) return null;

  const missing = preview?.missing ?? [];
  const inputValues = inputEdits ?? testInputValues(inputFields, preview?.inputs ?? {});
  const run = (mode: TestMode) => {
    const values: Record<string, PinnedOutput> = {};
    const errors: Record<string, string> = {};
    for (const nodeId of missing) {
      const text = typed[nodeId] ?? "";
      // Run up to here runs these nodes unless they are triggers: what was typed is sent, nothing is demanded.
      if (mode === "up-to" && text.trim() === "") continue;
      const parsed = parsePinJson(text);
      if ("output" in parsed) values[nodeId] = parsed.output;
      else errors[nodeId] = parsed.error;
    }
    setTypedErrors(errors);
    if (Object.keys(errors).length > 0) return;
    void testRuns.start(node.id, mode, values, inputFields.length > 0 ? toRunInputs(inputFields, inputValues) : undefined);
  };
  const starting = state.status === "starting";
  const refusal = state.status === "refused" ? state.refusal : null;
  const upstream = (preview?.sources ?? []).filter((each) => each.source !== "runs");

  return (
    <PanelSection
      title="Test this step"
      description="A real run of the saved draft, marked test: a destructive step still asks, here and in the inbox. Only test runs use pins."
    >
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" size="sm" disabled={starting} onClick={() => run("step")}>
          {starting && state.mode === "step" ? "Starting…" : "Run this step"}
        </Button>
        <Button size="sm" disabled={starting} onClick={() => run("up-to")}>
          {starting && state.mode === "up-to" ? "Starting…" : "Run up to here"}
        </Button>
      </div>
      {previewProblem ? <p className="text-xs text-muted">{previewProblem}</p> : null}
      {upstream.length > 0 ? (
        <div>
          <h4 className="mb-1 text-xs font-medium text-muted">Run this step uses</h4>
          <ul className="space-y-1 text-xs" aria-label="What Run this step uses">
            {upstream.map((each) => (
              <li key={each.nodeId}>
                <span className="font-medium text-foreground">{names.titleOf(each.nodeId)}</span>:{" "}
                <span className="text-muted">{sourceWords(each.source, each.fromRunId)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <TestInputs
        fields={inputFields}
        values={inputValues}
        origin={preview?.inputsFrom === "last-run" ? "from the newest run" : "the fields' defaults"}
        errors={inputIssues(refusal)}
        onChange={setInputEdits}
      />
      {missing.map((nodeId) => (
        <TypedValues
          key={nodeId}
          nodeId={nodeId}
          title={names.titleOf(nodeId)}
          value={typed[nodeId] ?? ""}
          error={typedErrors[nodeId] ?? issueText(refusal, `values.${nodeId}`)}
          onChange={(text) => setTyped((current) => ({ ...current, [nodeId]: text }))}
        />
      ))}
      {refusal ? (
        <div role="alert" className="rounded-md border border-caution/40 bg-caution-soft px-3 py-2 text-xs text-caution">
          {refusal.message}
        </div>
      ) : null}
      {state.status === "started" ? (
        <TestRunResult
          key={state.run.id}
          run={state.run}
          node={node}
          definition={definition}
          toolTitles={toolTitles}
          names={names}
          onFinished={testRunFinished}
          onPinResult={(runId) => testRuns.pin(node.id, { fromRunId: runId })}
        />
      ) : null}
      {/* The run inputs hand on each test run's own inputs: nothing to pin there. */}
      {startsRunsOf(node.kind) === "manually" ? null : <PinPanel nodeId={node.id} preview={preview} />}
    </PanelSection>
  );
}

function sourceWords(source: TestRunPreview["sources"][number]["source"], fromRunId: string | null): string {
  switch (source) {
    case "pin":
      return "its pinned output";
    case "last-run":
      return fromRunId ? `its output in run ${shortRunId(fromRunId)}` : "its last output";
    case "typed":
      return "the values typed below";
    case "missing":
      return "no output yet: type what it hands on below, or pin it";
    default:
      return "runs";
  }
}

/** A refused start's messages about run inputs, by field name. */
function inputIssues(refusal: Refusal | null): Record<string, string> {
  const found: Record<string, string> = {};
  for (const issue of refusal?.issues ?? []) {
    const name = /^inputs\.([^.[]+)/.exec(issue.path)?.[1];
    if (name && !(name in found)) found[name] = issue.message;
  }
  return found;
}

function issueText(refusal: Refusal | null, path: string): string | undefined {
  const issue = refusal?.issues.find((each) => each.path === path || each.path.startsWith(`${path}.`));
  return issue ? `${issue.path.slice(path.length + 1) || "the value"}: ${issue.message}` : undefined;
}

function TypedValues({ nodeId, title, value, error, onChange }: { nodeId: string; title: string; value: string; error: string | undefined; onChange: (text: string) => void }) {
  const id = `typed-${useId()}-${nodeId}`;
  const help = 'JSON: { "content": "text", "data": { … } }. Used for this test only.';
  return (
    <Field id={id} label={`Output of ${title} for this test`} help={help} error={error}>
      <textarea
        {...fieldAria(id, { help, error })}
        className={`${CONTROL_CLASS} h-24 font-mono text-xs`}
        spellCheck={false}
        value={value}
        placeholder={'{ "content": "…", "data": {} }'}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}

function reducer(state: RunViewState, events: RunEvent[]): RunViewState {
  return events.reduce(applyRunEvent, state);
}

interface TestRunResultProps {
  run: RunDetail;
  node: WorkflowNode;
  definition: WorkflowDefinition;
  toolTitles: ToolTitles;
  names: NodeNames;
  onFinished: () => void;
  onPinResult: (runId: string) => Promise<Refusal | null>;
}

/** The test run's result for the node, live from the run's event stream as the run view shows it, with its approval cards. */
function TestRunResult({ run, node, definition, toolTitles, names, onFinished, onPinResult }: TestRunResultProps) {
  const [state, dispatch] = useReducer(reducer, undefined, () => initialRunViewState(run));
  useRunEventStream(run.id, run.lastSeq, !FINISHED.has(run.status), dispatch);
  const finished = FINISHED.has(state.status);
  const now = useNow(1000, !finished);
  const kept = useKeptApprovals();
  const [pinRefusal, setPinRefusal] = useState<string | null>(null);
  const [pinning, setPinning] = useState(false);
  useEffect(() => {
    if (finished) onFinished();
  }, [finished, onFinished]);
  const step = state.steps[node.id] ?? emptyStep();
  const input = useRecordedInput(run.id, node.id, step);
  // Approvals of the run that belong to no node (a plan) are asked here too: the test waits for them.
  const runApprovals = state.approvals.filter((approval) => kept.shows(approval) && approval.nodeId === "__run__");
  const label = names.titleOf(node.id);
  return (
    <section aria-label="Test run result" className="space-y-3 rounded-lg border border-line bg-surface-sunken/40 p-3" data-testid="test-run-result">
      <p className="flex flex-wrap items-center gap-2 text-xs text-muted">
        <span>Test run</span>
        <StatusBadge status={state.status} />
        <Link href={`/runs/${run.id}`} className="font-medium text-accent hover:underline">
          Open run {shortRunId(run.id)}
        </Link>
      </p>
      {state.status === "failed" && state.error && step.status !== "failed" ? <p className="text-xs text-caution">{state.error}</p> : null}
      {runApprovals.map((approval) => (
        <ApprovalCard
          key={approval.id}
          approval={cardData(approval, run.id, "Plan", run.workflowName)}
          toolTitles={toolTitles}
          showContext={false}
          onDeciding={() => kept.keep(approval.id)}
        />
      ))}
      <NodeResultPanel
        node={node}
        label={label}
        step={step}
        approvals={state.approvals.filter((approval) => approval.nodeId === node.id)}
        toolTitles={toolTitles}
        runId={run.id}
        workflowName={run.workflowName}
        now={now}
        input={input}
        maxAttempts={executionPolicyOf({ execution: executionOf(node) }, definition).maxAttempts}
        errorPathTo={[]}
        modelPrices={run.modelPrices}
      />
      {step.status === "succeeded" && step.output && !step.carriedAs ? (
        <div className="space-y-1">
          <Button
            size="sm"
            disabled={pinning}
            onClick={async () => {
              setPinning(true);
              const refused = await onPinResult(run.id);
              setPinning(false);
              setPinRefusal(refused ? refused.message : null);
            }}
          >
            Pin this output
          </Button>
          {pinRefusal ? (
            <p role="alert" className="text-xs text-caution">
              {pinRefusal}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

/** The node's pin: what is pinned, pin the last output or JSON typed here, unpin. */
function PinPanel({ nodeId, preview }: { nodeId: string; preview: TestRunPreview | null }) {
  const testRuns = useTestRuns()!;
  const pinned = testRuns.pins.get(nodeId);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `pin-json-${useId()}`;
  const latest = preview?.latest ?? null;

  const act = async (action: () => Promise<Refusal | null>, onDone?: () => void) => {
    setBusy(true);
    const refused = await action();
    setBusy(false);
    if (refused) {
      const issue = refused.issues[0];
      if (editing && issue) setError(`${issue.path.replace(/^output\.?/, "") || "the pin"}: ${issue.message}`);
      else setProblem(refused.message);
      return;
    }
    setProblem(null);
    onDone?.();
  };
  const edit = () => {
    setText(pinJsonOf(pinned?.output ?? (latest ? latest.output : { content: "" })));
    setError(undefined);
    setEditing(true);
  };
  const savePin = () => {
    const parsed = parsePinJson(text);
    if (!("output" in parsed)) {
      setError(parsed.error);
      return;
    }
    setError(undefined);
    void act(
      () => testRuns.pin(nodeId, { output: parsed.output }),
      () => setEditing(false),
    );
  };

  return (
    <div className="space-y-2 border-t border-line pt-3" aria-label="Pinned output" role="group">
      <h4 className="text-xs font-medium text-muted">Pinned output</h4>
      {pinned ? (
        <p className="text-xs text-foreground" data-testid="pin-state">
          Pinned{pinned.fromRunId ? ` from run ${shortRunId(pinned.fromRunId)}` : " (typed JSON)"}: test runs use it instead of running this step.
        </p>
      ) : (
        <p className="text-xs text-muted" data-testid="pin-state">
          Not pinned.{latest ? ` Its last output is from run ${shortRunId(latest.runId)}.` : ""}
        </p>
      )}
      {editing ? (
        <div className="space-y-2">
          <Field id={id} label="Pinned output (JSON)" help='{ "content": "the text", "data": { … } } as the next steps read it.' error={error}>
            <textarea
              {...fieldAria(id, { help: true, error })}
              className={`${CONTROL_CLASS} h-40 font-mono text-xs`}
              spellCheck={false}
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          </Field>
          <div className="flex gap-2">
            <Button size="sm" variant="primary" disabled={busy} onClick={savePin}>
              Save pin
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          {!pinned && latest ? (
            <Button size="sm" disabled={busy} onClick={() => void act(() => testRuns.pin(nodeId, { fromRunId: latest.runId }))}>
              Pin the last output
            </Button>
          ) : null}
          <Button size="sm" disabled={busy} onClick={edit}>
            {pinned ? "Edit pinned JSON" : "Pin JSON…"}
          </Button>
          {pinned ? (
            <Button size="sm" variant="ghost" disabled={busy} onClick={() => void act(() => testRuns.unpin(nodeId))}>
              Unpin
            </Button>
          ) : null}
        </div>
      )}
      {problem ? (
        <p role="alert" className="text-xs text-caution">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
