import type { ApprovalPreview, IOHandler, PlanApproval, ShellApproval, Tool, WriteApproval } from "@/lib/tools";
import { previewText } from "@/lib/tools";
import type { ApprovalKind, ApprovalRecord, ApprovalRequest } from "./run-types";

/** Waits for a person's decision on a stored approval; the engine provides it. */
export type ApprovalWaiter = (request: ApprovalRequest) => Promise<ApprovalRecord>;

/**
 * The IOHandler behind the studio's approval inbox: every question becomes a
 * stored approval that a person decides in the browser. Each request of one
 * step gets a stable key (node id and a counter), so when a step is replayed
 * after a restart it finds the approvals it already asked for, decided or not.
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
    const preview = options && options.length > 0 ? `${question}\n\nOptions: ${options.join(" · ")}` : question;
    const approval = await this.wait("ask", preview);
    return approval.decision === "answer" ? (approval.feedback ?? "") : "";
  }

  async requestPlanApproval(plan: string): Promise<PlanApproval> {
    const approval = await this.wait("plan", plan);
    return { approved: approval.decision === "approve", ...feedbackOf(approval) };
  }

  async requestShellApproval(command: string, _reason: string, effect?: ApprovalPreview): Promise<ShellApproval> {
    const approval = await this.wait(this.shellChannelKind(), effect ? previewText(effect) : command, effect);
    return { approved: approval.decision === "approve", ...feedbackOf(approval) };
  }

  async requestWriteApproval(_path: string, summary: string, effect?: ApprovalPreview): Promise<WriteApproval> {
    const approval = await this.wait("write", summary, effect);
    const decision = approval.decision === "once" || approval.decision === "always" ? approval.decision : "deny";
    return { decision, ...feedbackOf(approval) };
  }

  async notify(message: string): Promise<void> {
    await this.onNotify(message);
  }

  /** Shell, network and MCP calls share the shell channel; the tool tells them apart for the inbox. */
  private shellChannelKind(): ApprovalKind {
    const tool = this.call.tool;
    if (tool?.origin === "mcp") return "mcp";
    if (tool?.capabilities.some((tag) => tag.startsWith("web."))) return "network";
    return "shell";
  }

  private wait(kind: ApprovalKind, preview: string, effect?: ApprovalPreview): Promise<ApprovalRecord> {
    const key = `${this.run.keyPrefix ?? this.run.nodeId}:${this.requestCount++}`;
    return this.waitFor({
      runId: this.run.runId,
      nodeId: this.run.nodeId,
      key,
      kind,
      tool: this.call.tool?.name ?? null,
      operation: this.call.operation,
      arguments: this.call.arguments,
      preview,
      ...(effect ? { effect } : {}),
    });
  }
}

function feedbackOf(approval: ApprovalRecord): { feedback?: string } {
  return approval.feedback ? { feedback: approval.feedback } : {};
}
