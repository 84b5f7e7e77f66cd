/**
 * What a destructive call is about to do, in the terms a person decides on.
 * Tools describe themselves (a write gives the diff it would make); the gate
 * decides whether to allow, refuse or ask.
 */
export type PermissionRequest =
  | {
      kind: "write";
      /** Absolute, confined path of the file to be written. */
      path: string;
      /** What the write does, typically a unified diff. */
      summary: string;
      /** `true` for an edit of an existing file (accept_edits covers both). */
      edit?: boolean;
    }
  | { kind: "shell"; command: string; reason: string }
  | { kind: "network"; method: string; url: string; reason: string }
  | { kind: "mcp"; tool: string; argumentsText: string; readOnly: boolean };

export type PermissionKind = PermissionRequest["kind"];
