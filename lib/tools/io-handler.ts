import type { ApprovalPreview } from "./permissions/approval-preview";

/** A person's answer to a shell (or network, or MCP) approval request. */
export interface ShellApproval {
  approved: boolean;
  /** Free text from the person: "no, do this instead". Sent back to the model. */
  feedback?: string;
}

/** A person's answer to a plan approval request. */
export interface PlanApproval {
  approved: boolean;
  feedback?: string;
}

/**
 * How a write is answered: `once` allows this write, `always` also widens the
 * write scope to the file's folder (and persists that), `deny` refuses.
 */
export type WriteDecision = "always" | "once" | "deny";

/** A person's answer to a write approval request, with an optional reason. */
export interface WriteApproval {
  decision: WriteDecision;
  feedback?: string;
}

/**
 * Where a tool asks a person. Interactive hosts back this with a UI (the
 * studio's approval inbox); scripts use {@link AutoApproveIOHandler}.
 */
export interface IOHandler {
  /** Ask a free-text question, optionally offering choices; resolves with the answer. */
  ask(question: string, options?: readonly string[]): Promise<string>;
  requestPlanApproval(plan: string): Promise<PlanApproval>;
  /**
   * `command` is the shell command, or "METHOD url" for a network call;
   * `preview` is what it does as data, for a host that renders it.
   */
  requestShellApproval(command: string, reason: string, preview?: ApprovalPreview): Promise<ShellApproval>;
  /** `summary` describes the change as text, every hidden character marked; `preview` is the same as data. */
  requestWriteApproval(path: string, summary: string, preview?: ApprovalPreview): Promise<WriteDecision | WriteApproval>;
  /** Tell the person something; no answer expected. */
  notify(message: string): Promise<void>;
}

/**
 * Approves everything: for trusted scripts only. Answers `ask` with "",
 * plans and shell commands with approval, and writes with `once`.
 *
 * @example
 *   const result = await tool.run(args, createToolContext({ io: new AutoApproveIOHandler() }));
 */
export class AutoApproveIOHandler implements IOHandler {
  readonly notifications: string[] = [];

  async ask(): Promise<string> {
    return "";
  }
  async requestPlanApproval(): Promise<PlanApproval> {
    return { approved: true };
  }
  async requestShellApproval(): Promise<ShellApproval> {
    return { approved: true };
  }
  async requestWriteApproval(): Promise<WriteDecision> {
    return "once";
  }
  async notify(message: string): Promise<void> {
    this.notifications.push(message);
  }
}

/** Normalises the two shapes `requestWriteApproval` may answer with. */
export function toWriteApproval(answer: WriteDecision | WriteApproval): WriteApproval {
  return typeof answer === "string" ? { decision: answer } : answer;
}
