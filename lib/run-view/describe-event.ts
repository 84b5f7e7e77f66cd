import { notificationLine } from "@/lib/contracts/notifications";
import { TEST_RUN_EXCLUDED, type RunEvent } from "@/lib/contracts/run-event";
import { argumentChanges } from "@/lib/tools/contracts";
import { progressMessage } from "./apply-event";
import { formatDuration } from "./format-time";
import { runStartedFrom, shortRunId } from "./run-lineage";

/** How a timeline entry is coloured: by meaning, and always with words too. */
export type EventTone = "neutral" | "progress" | "good" | "bad" | "waiting";

export interface EventDescription {
  /** The node it is about, by label; null for the run as a whole. */
  subject: string | null;
  /** What happened, as a sentence a person reads. */
  text: string;
  tone: EventTone;
}

/** Plan approvals are asked for the run, under this node id. */
const RUN_NODE = "__run__";

const DECISIONS: Record<string, string> = {
  once: "Approved once",
  always: "Always allowed",
  approve: "Approved",
  answer: "Answered",
  deny: "Denied",
};

/**
 * One event as a line of the run's timeline: "Write a File" · "Started",
 * "Waiting for your approval", "Approved once by Ada", "Failed: <error>".
 * `labelOf` gives a node's label (never a tool's raw name).
 */
export function describeEvent(event: RunEvent, labelOf: (nodeId: string) => string): EventDescription {
  const subject = event.nodeId && event.nodeId !== RUN_NODE ? labelOf(event.nodeId) : null;
  const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value : null);
  switch (event.type) {
    case "run-started":
      return { subject: null, text: event.payload.source ? `Run started: ${runStartedFrom(event.payload.source)}` : "Run started", tone: "neutral" };
    case "run-resumed":
      return { subject: null, text: "Run resumed after the studio restarted", tone: "neutral" };
    case "run-awaiting-input":
      return { subject: null, text: "Waiting for you", tone: "waiting" };
    case "run-succeeded":
      return { subject: null, text: "Run succeeded", tone: "good" };
    case "run-failed": {
      const followUp = event.payload.errorWorkflowRunId ? " Its error workflow was started." : "";
      return { subject: null, text: `Run failed: ${text(event.payload.error) ?? "no reason given"}${followUp}`, tone: "bad" };
    }
    case "run-cancelled": {
      const by = text(event.payload.cancelledBy);
      return { subject: null, text: by ? `Run cancelled by ${by}` : "Run cancelled", tone: "bad" };
    }
    case "node-started": {
      const { attempt, maxAttempts } = event.payload;
      const of = attempt > 1 ? ` (attempt ${attempt}${maxAttempts ? ` of ${maxAttempts}` : ""})` : "";
      return { subject, text: `Started${of}`, tone: "progress" };
    }
    case "node-retry-scheduled": {
      const { attempt, maxAttempts, delayMs } = event.payload;
      return {
        subject,
        text: `Attempt ${attempt} of ${maxAttempts} failed: ${firstLine(text(event.payload.error) ?? "no reason given")} Trying again in ${formatDuration(delayMs)}.`,
        tone: "waiting",
      };
    }
    case "node-progress":
      return { subject, text: progressMessage(event) ?? "Working", tone: "progress" };
    case "node-notified":
      return { subject, text: text(event.payload.message) ?? "Sent a note", tone: "neutral" };
    case "node-succeeded":
      return { subject, text: "Succeeded", tone: "good" };
    case "child-run-started": {
      const { item, count } = event.payload;
      if (item !== undefined && count !== undefined) return { subject, text: `Started item ${item + 1} of ${count} as run ${shortRunId(event.payload.runId)}`, tone: "progress" };
      return { subject, text: `Called ${event.payload.workflowName} (version ${event.payload.version}) as run ${shortRunId(event.payload.runId)}; waits for it`, tone: "progress" };
    }
    case "node-carried-over":
      return { subject, text: carriedText(event.payload), tone: "good" };
    case "node-failed": {
      const handled =
        event.payload.handledBy === "error-edge" ? " Its error path is taken." : event.payload.handledBy === "continue" ? " The run continues with the error." : "";
      return { subject, text: `Failed: ${text(event.payload.error) ?? "no reason given"}${handled}`, tone: "bad" };
    }
    case "node-skipped": {
      // The engine says why: a tool attached to an agent, a run that stopped, or a branch not taken.
      const reason =
        event.payload.reason === "attached"
          ? "Attached to an agent: it runs when the agent calls it"
          : event.payload.reason === "in-loop"
            ? `Runs in each item's run of the For each “${event.payload.loop ? labelOf(event.payload.loop) : "loop"}”, not here`
            : event.payload.reason === "the run stopped"
              ? "Skipped: the run stopped before it"
              : event.payload.reason === TEST_RUN_EXCLUDED
                ? // A test run of one step (or up to it) leaves out what it does not need, the steps behind a pin among them: nothing went wrong there.
                  "Not part of this test run"
                : event.payload.reason
                  ? `Skipped: ${event.payload.reason}`
                  : "Skipped: its branch was not taken or what fed it failed";
      return { subject, text: reason, tone: "neutral" };
    }
    case "approval-requested": {
      const kind = event.payload.approval.kind;
      // Everyone who follows the run reads the same timeline: it says what waits, not for whom (the card says who may decide).
      const what = kind === "ask" ? "Asked a question" : kind === "plan" ? "Waiting for the plan to be approved" : "Waiting for approval";
      return { subject: subject ?? (kind === "plan" ? "Plan" : null), text: what, tone: "waiting" };
    }
    case "approval-voted": {
      const { approvals, required } = event.payload;
      const missing = required - approvals;
      const rest = missing === 1 ? "one more person" : `${missing} more people`;
      return { subject, text: `Approved by ${text(event.payload.by) ?? "someone"}: ${approvals} of ${required}, waiting for ${rest}`, tone: "waiting" };
    }
    case "approval-escalated":
      return { subject, text: "Nobody decided in time: escalated to the next approvers", tone: "waiting" };
    case "approval-notified": {
      const { notification } = event.payload;
      return { subject, text: `${notificationLine(notification)} (for ${notification.to})`, tone: notification.status === "failed" ? "bad" : "neutral" };
    }
    case "approval-viewed":
      return { subject, text: `Approval opened by ${text(event.payload.by) ?? "someone"}`, tone: "neutral" };
    case "approval-decided": {
      const approval = event.payload.approval;
      if (approval.status === "cancelled") return { subject, text: "Approval withdrawn: the run was cancelled", tone: "neutral" };
      const decision = approval.decision ?? "";
      const by = text(approval.decidedBy?.name);
      const feedback = text(approval.feedback);
      const verb = DECISIONS[decision] ?? "Decided";
      const sentence = `${verb}${by ? ` by ${by}` : ""}`;
      // An approval with an edit: the timeline says so and which fields (the card and the node panel show the values).
      const edited = approval.editedArguments && decision !== "deny" ? argumentChanges(approval.arguments ?? {}, approval.editedArguments).map((change) => change.field) : [];
      const withEdit = edited.length > 0 ? `${sentence}, edited (${edited.join(", ")})` : sentence;
      const withReason = decision === "deny" && feedback ? `${sentence}: “${feedback}”` : withEdit;
      return {
        subject: subject ?? (approval.kind === "plan" ? "Plan" : null),
        text: withReason,
        tone: decision === "deny" ? "bad" : "good",
      };
    }
    case "node-tool-call-started":
      return { subject, text: `Called ${calledTool(event.payload, labelOf) ?? "a tool"}`, tone: "progress" };
    case "node-tool-call-finished": {
      const tool = calledTool(event.payload, labelOf) ?? "The tool";
      return event.payload.isError
        ? { subject, text: `${tool} failed: ${firstLine(text(event.payload.content) ?? "no reason given")}`, tone: "bad" }
        : { subject, text: `${tool} answered`, tone: "neutral" };
    }
    case "node-model-usage":
      return { subject, text: `Asked the model: ${event.payload.inputTokens.toLocaleString("en-US")} tokens in, ${event.payload.outputTokens.toLocaleString("en-US")} out`, tone: "neutral" };
    case "node-text-delta":
      // Not a timeline row (the text is in the agent's panel); said in words should anything list it.
      return { subject, text: "Wrote part of its answer", tone: "neutral" };
    default: {
      // Every type of the contract has its sentence above; the type checker says so when one is added.
      const unhandled: never = event;
      return unhandled;
    }
  }
}

/** The tool an agent called, as the canvas names it: its attached node's label; a control tool (ask_user, finish) by name. */
function calledTool(call: { nodeId: string | null; tool: string }, labelOf: (nodeId: string) => string): string | null {
  if (call.nodeId) return labelOf(call.nodeId);
  return call.tool.trim() !== "" ? call.tool : null;
}

function firstLine(value: string): string {
  const line = value.split("\n")[0] ?? "";
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

/** Where a kept step's result came from, in words. */
function carriedText(payload: { fromRunId: string | null; as?: "pin" | "typed" }): string {
  if (payload.as === "pin") return `Used its pinned output${payload.fromRunId ? ` (pinned from run ${shortRunId(payload.fromRunId)})` : ""}: it does not run in this test`;
  if (payload.as === "typed") return "Used the values typed for this test: it does not run";
  return payload.fromRunId ? `Kept its result from run ${shortRunId(payload.fromRunId)}: it succeeded there and does not run again` : "Kept its result: it does not run";
}
