import type { SandboxError, SandboxErrorKind } from "../../../sandbox";
import type { ToolErrorKind } from "../../tool-error";

// What a sandbox failure is to the rest of the studio: a Code step's error and the run_javascript tool's both read
// it from here, so the two say the same thing about the same code.

const ERROR_KINDS: Record<SandboxErrorKind, ToolErrorKind> = {
  syntax: "invalid-input",
  exception: "failed",
  // An endless loop does not end on a second try: a time-out of code is not retried (see retryableSandboxError).
  "time-limit": "timeout",
  "memory-limit": "failed",
  "stack-limit": "failed",
  "output-limit": "failed",
  "not-json": "failed",
  // The process running it died under it (killed from outside, say): another may well succeed.
  "worker-crashed": "unavailable",
  cancelled: "cancelled",
};

export function toolErrorKindOfSandbox(error: SandboxError): ToolErrorKind {
  return ERROR_KINDS[error.kind];
}

/** Only a sandbox that died under the code is worth trying again; the code's own failures repeat. */
export function retryableSandboxError(error: SandboxError): boolean {
  return error.kind === "worker-crashed";
}

/** The error as a person reads it: where in the code (line and column of the author's text), then what. */
export function describeSandboxError(error: SandboxError): string {
  const where = error.line === undefined ? "" : error.column === undefined ? `Line ${error.line}: ` : `Line ${error.line}, column ${error.column}: `;
  return `${where}${error.message}`;
}
