// The public API of the tool framework. What is exported here is the contract;
// everything else in lib/tools is internal.
export { Tool, operationsInputModel, TOOL_ORIGINS, TOOL_RUNTIMES } from "./tool";
export type { OperationArgs, RunOptions, ToolOrigin, ToolRuntime } from "./tool";
export { ToolResult } from "./tool-result";
export type { ToolControl, ToolImage } from "./tool-result";
export { defineOperation } from "./operation";
export type { Operation } from "./operation";
export { createScriptContext, createToolContext } from "./tool-context";
export type {
  FileSnapshot,
  PermissionState,
  ToolContext,
  ToolContextOptions,
  ToolEvent,
  ToolEventSink,
  WriteGrant,
} from "./tool-context";
export { AutoApproveIOHandler, toWriteApproval } from "./io-handler";
export type { IOHandler, PlanApproval, ShellApproval, WriteApproval, WriteDecision } from "./io-handler";
export { ToolPool, TOOL_ALIASES, UnknownToolError } from "./tool-pool";
export { allTools, buildPool, defaultPool } from "./builtin";
export { executeTool } from "./execute-tool";
export { runToolCalls } from "./run-tool-calls";
export type { ToolCallRequest } from "./run-tool-calls";
export { confinePath, isInside, PathConfinementError, relativeToRoot, resolveRoot } from "./confinement";
export { NO_SECRETS, parseSecretReference, SECRET_MASK, SecretMasker, secretsFromRecord } from "./secrets";
export type { SecretResolver } from "./secrets";
export { modelToolSchema, operationInputJsonSchema, settingsJsonSchema, toInputJsonSchema } from "./schemas";
export type { JsonSchema, ModelToolSchema } from "./schemas";
export {
  DEFAULT_PATH_DENY,
  defaultGuardrails,
  GuardrailsSchema,
  McpPolicySchema,
  NetworkPolicySchema,
  PermissionModeSchema,
  ShellPolicySchema,
} from "./permissions/guardrails";
export type { Guardrails, PermissionMode } from "./permissions/guardrails";
export { checkPermission, checkPermissions } from "./permissions/gate";
export type { GateDecision } from "./permissions/gate";
export type { PermissionRequest } from "./permissions/permission-request";
export { ApprovalPreviewSchema, parseApprovalPreview } from "./permissions/approval-preview";
export type { ApprovalPreview, DiffLine, DiffRow } from "./permissions/approval-preview";
export { approvalDigest } from "./permissions/approval-digest";
export { fileChangePreview } from "./permissions/file-change-preview";
export { previewText } from "./permissions/preview-text";
export { hasBidiControl, markHiddenCharacters, toVisibleString } from "./permissions/visible-text";
export type { MarkReason, VisibleSegment, VisibleText, VisibleTextOptions } from "./permissions/visible-text";
export { CAPABILITIES, CAPABILITY_TAGS, isCapability } from "./registry/capabilities";
export type { Capability } from "./registry/capabilities";
export { ToolRegistry, toolManifest } from "./registry/registry";
export type { ManifestProblem, RegistryReport, ToolManifest } from "./registry/registry";
export { WorkingDirectory } from "./builtin/shared/working-directory";
export type { WorkingDirectorySettings } from "./builtin/shared/working-directory";
