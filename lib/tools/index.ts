// The public API of the tool framework. What is exported here is the contract;
// everything else in lib/tools is internal. Browser code imports the schemas
// and pure helpers from "@/lib/tools/contracts" instead: this entry also
// carries the built-in tools and Node-only machinery.
export * from "./contracts";
export { Tool, operationsInputModel, TOOL_ORIGINS, TOOL_RUNTIMES } from "./tool";
export type { OperationArgs, RunOptions, ToolOrigin, ToolRuntime } from "./tool";
export { ToolResult } from "./tool-result";
export { MAX_RESULT_CHARACTERS, truncateMiddle } from "./builtin/shared/limits";
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
export { AutoApproveIOHandler } from "./io-handler";
export type { ApprovalAnswer, ApprovalAnswerDecision, ApprovalAsk, ApprovalAskKind, IOHandler } from "./io-handler";
export { ToolPool, TOOL_ALIASES, UnknownToolError } from "./tool-pool";
export { allTools, buildPool, defaultPool } from "./builtin";
export { executeTool } from "./execute-tool";
export { runToolCalls } from "./run-tool-calls";
export type { ToolCallRequest } from "./run-tool-calls";
export { confinePath, isInside, PathConfinementError, relativeToRoot, resolveRoot } from "./confinement";
export { lookUpSecret, NO_SECRETS, SecretMasker, SecretRefused, secretsFromRecord, secretsOfWorkflow } from "./secrets";
export type { SecretResolver, SecretUse } from "./secrets";
export { modelToolSchema, operationInputJsonSchema, settingsJsonSchema, toInputJsonSchema } from "./schemas";
export type { JsonSchema, ModelToolSchema } from "./schemas";
export { checkPermission, checkPermissions } from "./permissions/gate";
export type { GateDecision } from "./permissions/gate";
export type { PermissionRequest } from "./permissions/permission-request";
export { approvalDigest } from "./permissions/approval-digest";
export { checkEditedArguments } from "./permissions/argument-edit";
export type { EditCheck, EditIssue } from "./permissions/argument-edit";
export { fileChangePreview } from "./permissions/file-change-preview";
export { ToolRegistry, toolManifest } from "./registry/registry";
export type { ManifestProblem, RegistryReport, ToolManifest } from "./registry/registry";
export { WorkingDirectory } from "./builtin/shared/working-directory";
export type { WorkingDirectorySettings } from "./builtin/shared/working-directory";
