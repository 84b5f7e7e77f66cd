import type { LocalRange } from "../net/local-range";
import type { ApprovalPreview } from "./approval-preview";

/**
 * What a destructive call is about to do, in the terms a person decides on.
 * Tools describe themselves with a structured preview (a write gives its
 * lines, a command its exact text and folder); the gate decides whether to
 * allow, refuse or ask, and hands the preview to whoever asks.
 */
export type PermissionRequest =
  | {
      kind: "write";
      /**
       * Absolute, confined path of the file to be written. When it is one of
       * the tool's declared path inputs, confinement already checked it
       * against the guardrails (see ToolContext.confinedPaths).
       */
      path: string;
      /** What the write does, as data. */
      preview: ApprovalPreview;
      /** `true` for an edit of an existing file (accept_edits covers both). */
      edit?: boolean;
    }
  | {
      kind: "shell";
      command: string;
      /** Relative to the step's folder; "." is the folder itself. */
      workingFolder: string;
      reason: string;
      preview: ApprovalPreview;
    }
  | {
      kind: "network";
      method: string;
      url: string;
      reason: string;
      preview: ApprovalPreview;
      /** Set when the request reaches this machine or its network (lib/tools/net): the outbound-address guardrail decides. */
      local?: { host: string; address: string; range: LocalRange };
    }
  | { kind: "mcp"; server: string; tool: string; argumentsText: string; readOnly: boolean; preview: ApprovalPreview };

export type PermissionKind = PermissionRequest["kind"];
