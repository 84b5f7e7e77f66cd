/**
 * The JavaScript sandbox: QuickJS (WebAssembly) in worker processes, for the Code node and the run_javascript tool.
 * Data goes in and comes out as JSON; see sandbox-pool.ts for how jobs run and types.ts for the limits.
 */
export { SandboxPool, sharedSandboxPool } from "./sandbox-pool";
export { checkJavaScriptSyntax } from "./syntax-check";
export {
  DEFAULT_SANDBOX_LIMITS,
  MAX_SANDBOX_LIMITS,
  type JsonValue,
  type SandboxEachJob,
  type SandboxEachOutcome,
  type SandboxError,
  type SandboxErrorKind,
  type SandboxJob,
  type SandboxLimits,
  type SandboxOutcome,
  type SandboxPoolOptions,
  type SandboxRunOptions,
  type SandboxSyntaxProblem,
} from "./types";
