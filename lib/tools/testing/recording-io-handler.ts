import type { ApprovalAnswer, ApprovalAnswerDecision, ApprovalAsk, ApprovalAskKind, IOHandler } from "../io-handler";

/** One request a {@link RecordingIOHandler} received: an approval ask as the gate sent it, a question, or a notice. */
export type RecordedRequest = ApprovalAsk | { kind: "ask"; question: string; options?: readonly string[] } | { kind: "notify"; message: string };

/** A scripted answer: a bare decision, or one with feedback. */
export type ScriptedAnswer = ApprovalAnswerDecision | ApprovalAnswer;

/**
 * An IOHandler for tests: records every request exactly as it arrived and
 * answers from the scripted replies per kind ("deny" when none is given).
 *
 * @example
 *   const io = new RecordingIOHandler({ network: "once" });
 *   // ... run a tool ...
 *   io.asksOf("network") // [{ kind: "network", method: "POST", url: "https://…", reason: "…", preview: {…} }]
 */
export class RecordingIOHandler implements IOHandler {
  readonly requests: RecordedRequest[] = [];

  constructor(private readonly answers: Partial<Record<ApprovalAskKind, ScriptedAnswer>> & { ask?: string } = {}) {}

  /** The approval asks of one kind, in order. */
  asksOf<Kind extends ApprovalAskKind>(kind: Kind): Extract<ApprovalAsk, { kind: Kind }>[] {
    return this.requests.filter((request): request is Extract<ApprovalAsk, { kind: Kind }> => request.kind === kind);
  }

  async ask(question: string, options?: readonly string[]): Promise<string> {
    this.requests.push({ kind: "ask", question, ...(options ? { options } : {}) });
    return this.answers.ask ?? "";
  }
  async requestApproval(ask: ApprovalAsk): Promise<ApprovalAnswer> {
    this.requests.push(ask);
    const answer = this.answers[ask.kind] ?? "deny";
    return typeof answer === "string" ? { decision: answer } : answer;
  }
  async notify(message: string): Promise<void> {
    this.requests.push({ kind: "notify", message });
  }
}
