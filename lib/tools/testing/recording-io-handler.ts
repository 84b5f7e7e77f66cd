import type { IOHandler, PlanApproval, ShellApproval, WriteApproval, WriteDecision } from "../io-handler";

/** One request a {@link RecordingIOHandler} received. */
export type RecordedRequest =
  | { kind: "ask"; question: string; options?: readonly string[] }
  | { kind: "plan"; plan: string }
  | { kind: "shell"; command: string; reason: string }
  | { kind: "write"; path: string; summary: string }
  | { kind: "notify"; message: string };

/**
 * An IOHandler for tests: records every request and answers from the given
 * scripted replies (or sensible "no" defaults).
 */
export class RecordingIOHandler implements IOHandler {
  readonly requests: RecordedRequest[] = [];

  constructor(
    private readonly answers: {
      ask?: string;
      plan?: PlanApproval;
      shell?: ShellApproval;
      write?: WriteDecision | WriteApproval;
    } = {},
  ) {}

  /** The shell (and network, MCP) approval requests, in order. */
  get shellRequests(): { command: string; reason: string }[] {
    return this.requests.flatMap((request) => (request.kind === "shell" ? [{ command: request.command, reason: request.reason }] : []));
  }

  async ask(question: string, options?: readonly string[]): Promise<string> {
    this.requests.push({ kind: "ask", question, ...(options ? { options } : {}) });
    return this.answers.ask ?? "";
  }
  async requestPlanApproval(plan: string): Promise<PlanApproval> {
    this.requests.push({ kind: "plan", plan });
    return this.answers.plan ?? { approved: false };
  }
  async requestShellApproval(command: string, reason: string): Promise<ShellApproval> {
    this.requests.push({ kind: "shell", command, reason });
    return this.answers.shell ?? { approved: false };
  }
  async requestWriteApproval(path: string, summary: string): Promise<WriteDecision | WriteApproval> {
    this.requests.push({ kind: "write", path, summary });
    return this.answers.write ?? "deny";
  }
  async notify(message: string): Promise<void> {
    this.requests.push({ kind: "notify", message });
  }
}
