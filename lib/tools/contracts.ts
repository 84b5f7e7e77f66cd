// The tool framework's vocabulary without its machinery: schemas, types and
// pure helpers that the browser may import (the editor, the run view, the
// approval cards) without pulling in the built-in tool catalog, the gate or
// anything that needs Node. `@/lib/tools` re-exports all of it for the server.
// contracts.test.ts walks this file's imports and fails on a Node module or
// on lib/tools/builtin: keep what is added here free of both.
export {
  DEFAULT_PATH_DENY,
  defaultGuardrails,
  GuardrailsSchema,
  McpPolicySchema,
  LocalNetworkPolicySchema,
  NetworkPolicySchema,
  PermissionModeSchema,
  ShellPolicySchema,
} from "./permissions/guardrails";
export type { Guardrails, PermissionMode } from "./permissions/guardrails";
export { MODES_BY_STRICTNESS, stricterGuardrails, stricterMode } from "./permissions/stricter";
export { argumentChanges, describeEdit } from "./permissions/argument-changes";
export type { ArgumentChange } from "./permissions/argument-changes";
export { CAPABILITIES, CAPABILITY_TAGS, isCapability } from "./registry/capabilities";
export type { Capability } from "./registry/capabilities";
export {
  ApprovalPreviewSchema,
  CommandPreviewSchema,
  DiffLineSchema,
  DiffRowSchema,
  FileChangePreviewSchema,
  FileReplacePreviewSchema,
  parseApprovalPreview,
  RequestPreviewSchema,
  TextPreviewSchema,
  ToolCallPreviewSchema,
} from "./permissions/approval-preview";
export type {
  ApprovalPreview,
  CommandPreview,
  DiffLine,
  DiffRow,
  FileChangePreview,
  FileReplacePreview,
  RequestPreview,
  TextPreview,
  ToolCallPreview,
} from "./permissions/approval-preview";
export { previewText } from "./permissions/preview-text";
export { alwaysAllowedFolder, folderGrantPattern } from "./permissions/write-scope";
export { FILE_LINE_MARKING } from "./permissions/file-line-marking";
export { codePointMark, hasBidiControl, hasHiddenCharacters, markHiddenCharacters, toVisibleString } from "./permissions/visible-text";
export type { MarkReason, VisibleSegment, VisibleText, VisibleTextOptions } from "./permissions/visible-text";
export { parseSecretReference, SECRET_MASK } from "./secrets";
export { isRetryable, TOOL_ERROR_KINDS, ToolErrorKindSchema } from "./tool-error";
export type { ToolErrorKind, ToolErrorOptions } from "./tool-error";
