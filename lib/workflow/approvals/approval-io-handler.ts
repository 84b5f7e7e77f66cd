import type { ApprovalAnswer, ApprovalAnswerDecision, ApprovalAsk, ApprovalPreview, IOHandler, Tool } from "@/lib/tools";
import { previewText } from "@/lib/tools";
import type { ApprovalDecision, ApprovalKind, ApprovalRecord, ApprovalRequest } from "../run-types";

/**
 * Who "decides" an approval when nobody can be asked (the command line with
 * no terminal): its denial is the host's, and the step is told so rather
 * than that a person refused.
 */
export const NOBODY_TO_ASK = "workflow-cli (nobody at a terminal)";

/** Who "decides" an approval whose deadline ran out (lib/server/approval-deadlines.ts): like nobody to ask, no person refused. */
export const DEADLINE_DECIDER = "the deadline";

/** Waits for a person's decision on a stored approval; the engine provides it. */
export type ApprovalWaiter = (request: ApprovalRequest) => Promise<ApprovalRecord>;

/**
 * The IOHandler behind the studio's approval inbox: every question becomes a
 * stored approval that a person decides in the browser. The stored approval
 * is what the gate asked, as data: its kind is the ask's kind, and its effect
 * the ask's preview (a write's naming the confined path the gate checked).
 * Each request of one step gets a stable key (node id and a counter), so when
 * a step is replayed after a restart it finds the approvals it already asked
 * for, decided or not.
 */
export class ApprovalIOHandler implements IOHandler {
  private requestCount = 0;

  constructor(
    private readonly waitFor: ApprovalWaiter,
    private readonly run: { runId: string; nodeId: string; keyPrefix?: string },
    private readonly call: { tool: Tool | null; operation: string | null; arguments: Record<string, unknown> },
    private readonly onNotify: (message: string) => Promise<void>,
  ) {}

  async ask(question: string, options?: readonly string[]): Promise<string> {
    const text = options && options.length > 0 ? `${question}\n\nOptions: ${options.join(" · ")}` : question;
    const approval = await this.wait("ask", { kind: "text", text });
    return approval.decision === "answer" ? (approval.feedback ?? "") : "";
  }

  async requestApproval(ask: ApprovalAsk): Promise<ApprovalAnswer> {
    const approval = await this.wait(ask.kind, storedEffect(ask));
    return {
      decision: answerDecision(approval.decision),
      ...(approval.feedback ? { feedback: approval.feedback } : {}),
      // Only an approving decision carries an edit; the store keeps none for a denial.
      ...(approval.editedArguments && approval.decision !== "deny" ? { arguments: approval.editedArguments } : {}),
      ...(approval.decidedBy?.name === NOBODY_TO_ASK || approval.decidedBy?.name === DEADLINE_DECIDER ? { unattended: true } : {}),
    };
  }

  async notify(message: string): Promise<void> {
    await this.onNotify(message);
  }

  private wait(kind: ApprovalKind, effect: ApprovalPreview): Promise<ApprovalRecord> {
    const key = `${this.run.keyPrefix ?? this.run.nodeId}:${this.requestCount++}`;
    return this.waitFor({
      runId: this.run.runId,
      nodeId: this.run.nodeId,
      key,
      kind,
      tool: this.call.tool?.name ?? null,
      operation: this.call.operation,
      arguments: this.call.arguments,
      preview: previewText(effect),
      effect,
    });
  }
}

/**
 * What the stored approval renders. A write's file preview names the path
 * the gate checked (confined, relative to the root) and the absolute root,
 * whatever the tool put there, so the card never works it out from the raw
 * argument and the person knows which folder it lands in.
 */
function storedEffect(ask: ApprovalAsk): ApprovalPreview {
  if (ask.kind === "write" && (ask.preview.kind === "file-change" || ask.preview.kind === "file-replace")) {
    return { ...ask.preview, path: ask.path, root: ask.root };
  }
  return ask.preview;
}

/** A stored decision as the gate reads it: approving a command approves it once; anything else refuses. */
function answerDecision(decision: ApprovalDecision | null): ApprovalAnswerDecision {
  switch (decision) {
    case "once":
    case "approve":
      return "once";
    case "always":
      return "always";
    default:
      return "deny";
  }
}
