import type { ApprovalPreview, TextPreview } from "./permissions/approval-preview";
import type { PermissionRequest } from "./permissions/permission-request";

/**
 * What the permission gate asks a person to allow, as data: the kind, and
 * what the action touches (the confined path, the command and its folder,
 * the method and URL, the MCP server and tool). A host stores or shows
 * exactly this; nothing needs to guess the kind back from the tool or
 * re-derive a path from the raw arguments. `preview` is the same action as a
 * renderable shape (previewText turns it into text).
 */
export type ApprovalAsk =
  | {
      kind: "write";
      /** The file, relative to `root` (forward slashes): the confined path the guardrails were checked against. */
      path: string;
      /** The real, absolute root folder of the call. */
      root: string;
      /** Where "always" would allow later writes without asking: see alwaysAllowedFolder. */
      alwaysFolder: string;
      /** `true` for an edit of an existing file. */
      edit: boolean;
      preview: ApprovalPreview;
    }
  | CommandAsk
  | McpAsk
  | { kind: "plan"; preview: TextPreview };

/** A shell command (with its folder) or a network request (method and URL), as the tool described it to the gate. */
type CommandAsk = Extract<PermissionRequest, { kind: "shell" | "network" }>;

/** An MCP call: the configured `server`, the studio's name of its `tool`, and the call's arguments as JSON text. */
type McpAsk = Omit<Extract<PermissionRequest, { kind: "mcp" }>, "readOnly">;

export type ApprovalAskKind = ApprovalAsk["kind"];

/**
 * How a person answered: `once` allows this action, `always` (meaningful for
 * writes only; elsewhere it reads as `once`) also allows later writes in the
 * ask's `alwaysFolder`, `deny` refuses.
 */
export type ApprovalAnswerDecision = "once" | "always" | "deny";

export interface ApprovalAnswer {
  decision: ApprovalAnswerDecision;
  /** Free text from the person: "no, do this instead". Sent back to the model. */
  feedback?: string;
  /** Nobody was there to ask (a script without a terminal): the host refused, no person did; `feedback` says what to do. */
  unattended?: boolean;
  /**
   * "Edit and approve": the call's arguments as the person approved them
   * (checked against the tool's input model by whoever took the decision;
   * secret inputs as shown). The call runs with these instead; what the
   * edited call then asks is covered by this approval, guardrails aside.
   */
  arguments?: Record<string, unknown>;
}

/**
 * Where a tool asks a person. Interactive hosts back this with a UI (the
 * studio's approval inbox); scripts use {@link AutoApproveIOHandler}.
 */
export interface IOHandler {
  /** Ask a free-text question, optionally offering choices; resolves with the answer. */
  ask(question: string, options?: readonly string[]): Promise<string>;
  /** Ask a person to allow a write, command, request, MCP call or plan. */
  requestApproval(ask: ApprovalAsk): Promise<ApprovalAnswer>;
  /** Tell the person something; no answer expected. */
  notify(message: string): Promise<void>;
}

/**
 * Approves everything: for trusted scripts only. Answers `ask` with "" and
 * every approval with `once`.
 *
 * @example
 *   const result = await tool.run(args, createToolContext({ io: new AutoApproveIOHandler() }));
 */
export class AutoApproveIOHandler implements IOHandler {
  readonly notifications: string[] = [];

  async ask(): Promise<string> {
    return "";
  }
  async requestApproval(): Promise<ApprovalAnswer> {
    return { decision: "once" };
  }
  async notify(message: string): Promise<void> {
    this.notifications.push(message);
  }
}
