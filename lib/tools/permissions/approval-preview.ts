import { z } from "zod";

/**
 * What a destructive action will do, as data the server computes and every
 * approval surface renders (the inbox card, the run view, the terminal). No
 * surface re-parses text: a line of file content that looks like a diff
 * header is still one line of content, and counts are the true totals.
 * One schema per shape; the gate, the stored approval, the API and the card
 * all use these.
 */

/** One line of a file change. Numbers are 1-based; null on the side the line is not on. */
export const DiffLineSchema = z.object({
  kind: z.enum(["added", "removed", "context"]),
  text: z.string(),
  oldNumber: z.number().int().nullable(),
  newNumber: z.number().int().nullable(),
});
export type DiffLine = z.infer<typeof DiffLineSchema>;

/**
 * A row of a file change as shown: a line, unchanged lines between hunks that
 * are not shown (`skipped`), a note, or changed lines the server left out of
 * a change too large to store (`omitted`, counted in the totals, with the
 * left-out lines that hold hidden characters kept in `flagged`).
 */
export const DiffRowSchema = z.discriminatedUnion("kind", [
  DiffLineSchema,
  z.object({ kind: z.literal("skipped"), lines: z.number().int().nonnegative() }),
  z.object({ kind: z.literal("note"), text: z.string() }),
  z.object({
    kind: z.literal("omitted"),
    lines: z.number().int().nonnegative(),
    added: z.number().int().nonnegative(),
    removed: z.number().int().nonnegative(),
    flagged: z.array(DiffLineSchema),
  }),
]);
export type DiffRow = z.infer<typeof DiffRowSchema>;

/** A text file created or changed, line by line. `added` and `removed` count every changed line. */
/** The absolute folder a file's `path` is relative to; approvals stored before it was recorded have none. */
const RootFolderSchema = z.string().optional();

export const FileChangePreviewSchema = z.object({
  kind: z.literal("file-change"),
  path: z.string(),
  root: RootFolderSchema,
  change: z.enum(["create", "modify"]),
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  rows: z.array(DiffRowSchema),
});
export type FileChangePreview = z.infer<typeof FileChangePreviewSchema>;

/** A file replaced without a line-by-line view (binary, too large, or too different to compare in time). */
export const FileReplacePreviewSchema = z.object({
  kind: z.literal("file-replace"),
  path: z.string(),
  root: RootFolderSchema,
  reason: z.enum(["binary", "too-large", "too-different"]),
  beforeBytes: z.number().int().nonnegative().nullable(),
  afterBytes: z.number().int().nonnegative(),
  beforeLines: z.number().int().nonnegative().nullable(),
  afterLines: z.number().int().nonnegative().nullable(),
});
export type FileReplacePreview = z.infer<typeof FileReplacePreviewSchema>;

/** A shell command exactly as it will run, and where. */
export const CommandPreviewSchema = z.object({
  kind: z.literal("command"),
  command: z.string(),
  /** Relative to the step's folder; "." is the folder itself. */
  workingFolder: z.string(),
  /** The absolute folder it runs in, so a person knows which `reports/` it is; approvals stored before it was recorded have none. */
  folder: z.string().optional(),
  background: z.boolean(),
});
export type CommandPreview = z.infer<typeof CommandPreviewSchema>;

/** An HTTP request: headers that carry credentials arrive masked. */
export const RequestPreviewSchema = z.object({
  kind: z.literal("request"),
  method: z.string(),
  url: z.string(),
  headers: z.array(z.object({ name: z.string(), value: z.string() })),
  body: z.string().nullable(),
  /** Where the address leads when it is this machine or its network (the outbound-address guardrail asks about it), in words. */
  reaches: z.string().optional(),
});
export type RequestPreview = z.infer<typeof RequestPreviewSchema>;

/** A call of a tool that describes itself by its arguments only (MCP tools). */
export const ToolCallPreviewSchema = z.object({
  kind: z.literal("tool-call"),
  tool: z.string(),
  /** The MCP server the tool belongs to; approvals stored before it was recorded have none. */
  server: z.string().optional(),
  argumentsText: z.string(),
});
export type ToolCallPreview = z.infer<typeof ToolCallPreviewSchema>;

/** Free text: a plan, a question, or a tool's own one-line description. */
export const TextPreviewSchema = z.object({ kind: z.literal("text"), text: z.string() });
export type TextPreview = z.infer<typeof TextPreviewSchema>;

export const ApprovalPreviewSchema = z.discriminatedUnion("kind", [
  FileChangePreviewSchema,
  FileReplacePreviewSchema,
  CommandPreviewSchema,
  RequestPreviewSchema,
  ToolCallPreviewSchema,
  TextPreviewSchema,
]);
export type ApprovalPreview = z.infer<typeof ApprovalPreviewSchema>;

/** The preview stored text (or JSON) describes, or a text preview of it: older approvals stored only text. */
export function parseApprovalPreview(value: unknown, fallbackText: string): ApprovalPreview {
  const parsed = ApprovalPreviewSchema.safeParse(value);
  return parsed.success ? parsed.data : { kind: "text", text: fallbackText };
}
