import { notificationLine } from "@/lib/contracts/notifications";
import { toVisibleString } from "@/lib/tools/permissions/visible-text";
import type { ApprovalSummary } from "@/lib/contracts/approval";
import type { RunEvent } from "@/lib/contracts/run-event";
import { formatDuration } from "@/lib/run-view/format-time";

/** How many lines of a node's output the readable log shows. */
const OUTPUT_LINES = 3;
const LINE_LENGTH = 160;

/** The first lines of a text, each cut to a readable length, with a note of what was left out. */
export function firstLines(text: string, count = OUTPUT_LINES): string[] {
  const lines = text.replace(/\s+$/, "").split("\n");
  const shown = lines.slice(0, count).map((line) => (line.length > LINE_LENGTH ? `${line.slice(0, LINE_LENGTH - 1)}…` : line));
  if (lines.length > count) shown.push(`… (${lines.length - count} more line${lines.length - count === 1 ? "" : "s"})`);
  return shown;
}

/** A value as the terminal shows it: text as is, anything else as JSON. */
export function displayValue(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2) ?? "null";
}

/**
 * The readable lines for one run event (none for events the log leaves out).
 * Node lines start with the node id in brackets, so concurrent branches stay
 * easy to follow.
 */
export function describeEvent(event: RunEvent): string[] {
  // Names, arguments and outputs come from models and files: escape what a terminal would obey or hide.
  return eventLines(event).map((line) => toVisibleString(line, { keepLineFeeds: false, keepTabs: true, blankRun: 40 }));
}

function eventLines(event: RunEvent): string[] {
  const node = `[${event.nodeId ?? "run"}]`;
  switch (event.type) {
    case "run-started":
      return ["Run started."];
    case "run-resumed":
      return ["Run resumed."];
    case "run-awaiting-input":
      return [];
    case "node-started": {
      const { tool, operation, kind, attempt: attemptNumber } = event.payload;
      const what = tool ? `${tool}${operation ? ` ${operation}` : ""}` : kind;
      const attempt = attemptNumber > 1 ? `, attempt ${attemptNumber}` : "";
      return [`${node} started (${what}${attempt})`];
    }
    case "node-progress":
    case "node-notified":
      return "message" in event.payload ? [`${node} … ${event.payload.message}`] : [];
    case "node-succeeded": {
      const lines = firstLines(event.payload.output.content);
      return [`${node} succeeded${lines.length > 0 && lines[0] !== "" ? `: ${lines[0]}` : ""}`, ...lines.slice(1).map((line) => `    ${line}`)];
    }
    case "child-run-started":
      return [`${node} called ${event.payload.workflowName} (version ${event.payload.version}), run ${event.payload.runId}`];
    case "node-carried-over":
      return [`${node} kept its result from run ${event.payload.fromRunId} (not run again)`];
    case "node-retry-scheduled": {
      const { attempt, maxAttempts, error, delayMs } = event.payload;
      return [`${node} attempt ${attempt} of ${maxAttempts} failed: ${error}; trying again in ${formatDuration(delayMs)}`];
    }
    case "node-failed": {
      const handled = event.payload.handledBy === "error-edge" ? " (its error path is taken)" : event.payload.handledBy === "continue" ? " (the run continues)" : "";
      return [`${node} FAILED${handled}: ${event.payload.error}`];
    }
    case "node-skipped":
      return event.payload.reason === "attached"
        ? [`${node} is a tool of agent ${event.payload.agent ?? ""}; it runs when the agent calls it`]
        : event.payload.reason
          ? [`${node} skipped (${event.payload.reason})`]
          : [`${node} skipped (its branch was not taken)`];
    case "node-text-delta":
    case "node-model-usage":
      return [];
    case "node-tool-call-started":
      return [`${node} calls ${event.payload.tool} ${JSON.stringify(event.payload.arguments)}`];
    case "node-tool-call-finished":
      return [`${node} ${event.payload.tool} ${event.payload.isError ? "returned an error" : "returned"}: ${firstLines(event.payload.content)[0] ?? ""}`];
    case "approval-requested": {
      const approval = event.payload.approval;
      return [`${node} waits for approval: ${approvalTitle(approval)}`];
    }
    case "approval-voted": {
      const { by, approvals, required } = event.payload;
      return [`${node} approved by ${by}: ${approvals} of ${required}, waits for the rest`];
    }
    case "approval-escalated":
      return [`${node} was not decided in time: escalated`];
    case "approval-notified":
      return [`${node} ${notificationLine(event.payload.notification)} (for ${event.payload.notification.to})`];
    case "approval-viewed":
      return [`${node} approval opened by ${event.payload.by}`];
    case "approval-decided": {
      const approval = event.payload.approval;
      const by = approval.decidedBy ? ` (by ${approval.decidedBy.name})` : "";
      const feedback = approval.feedback ? `: ${approval.feedback}` : "";
      return [`${node} ${approvalTitle(approval)} → ${approval.decision ?? "no decision"}${by}${feedback}`];
    }
    case "run-succeeded":
      return ["Run succeeded."];
    case "run-failed":
      return [`Run failed: ${event.payload.error ?? "no reason given"}`];
    case "run-cancelled":
      return [`Run cancelled${event.payload.cancelledBy ? ` by ${event.payload.cancelledBy}` : ""}.`];
  }
}

/** "write (write_file)", "plan", "question" ... */
export function approvalTitle(approval: ApprovalSummary): string {
  const kind = approval.kind === "ask" ? "question" : approval.kind;
  const tool = approval.tool ? ` (${approval.tool}${approval.operation ? ` ${approval.operation}` : ""})` : "";
  return `${kind}${tool}`;
}
