/**
 * What the sandbox takes and gives back. The studio hands data in as JSON and takes JSON out, so every value
 * crossing the boundary is plain data: nothing of the guest's (a getter, a Proxy, a function) ever reaches the host.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface SandboxLimits {
  /** How long the code may run, in milliseconds, counted inside the worker from the start of the job. */
  timeMs: number;
  /** The most memory QuickJS may allocate for the job (its heap: values, strings, compiled code). */
  memoryBytes: number;
  /** The largest result, as UTF-8 JSON text (for runEach: each item's and all items' together). */
  outputBytes: number;
  /** The deepest QuickJS stack, in bytes (recursion depth). */
  stackBytes: number;
}

/**
 * The defaults, and why:
 * - 1,000 ms: a Code step transforms data it already has; a second of QuickJS is some tens of millions of simple
 *   operations, and an endless loop costs the run no more than that. Callers raise it per job (a node's setting).
 * - 64 MiB: room for inputs of ~10 MB of JSON parsed (a QuickJS object takes several times its text), far below
 *   what a studio process can lose to a memory bomb.
 * - 5 MiB: a step's result is stored with the run and shown in the editor; more is better selected upstream.
 * - 512 KiB: ~2,700 nested calls of a plain recursive function. It is also the largest value that stays safe: the
 *   worker's V8 stack (--stack-size, worker-command.ts) must hold the WebAssembly frames QuickJS's own count does
 *   not see, about 3 bytes for each byte QuickJS counts (measured), so a larger value is lowered to it.
 */
export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  timeMs: 1_000,
  memoryBytes: 64 * 1024 * 1024,
  outputBytes: 5 * 1024 * 1024,
  stackBytes: 512 * 1024,
});

/** The most each limit may be raised to; a larger value is lowered to this one (see resolveLimits). */
export const MAX_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  timeMs: 15 * 60 * 1_000,
  memoryBytes: 1024 * 1024 * 1024,
  outputBytes: 64 * 1024 * 1024,
  stackBytes: 512 * 1024,
});

export type SandboxErrorKind =
  | "syntax"
  | "exception"
  | "time-limit"
  | "memory-limit"
  | "stack-limit"
  | "output-limit"
  | "not-json"
  | "worker-crashed"
  | "cancelled";

export interface SandboxError {
  kind: SandboxErrorKind;
  /** For a person: what happened, and for a limit which one and its value. */
  message: string;
  /** Where in the author's code (1-based), for syntax errors and exceptions thrown by the code. */
  line?: number;
  column?: number;
}

export type SandboxOutcome = { ok: true; value: JsonValue; durationMs: number } | { ok: false; error: SandboxError; durationMs: number };

export type SandboxEachOutcome = { ok: true; results: SandboxOutcome[]; durationMs: number } | { ok: false; error: SandboxError; durationMs: number };

export interface SandboxJob {
  /** The body of a function whose parameters are the scope's keys: `return inputs.a + inputs.b`. `await` works. */
  code: string;
  /** The function's arguments by parameter name; the names must be JavaScript identifiers. */
  scope: Record<string, JsonValue>;
  limits?: Partial<SandboxLimits>;
}

export interface SandboxEachJob extends SandboxJob {
  /** One call of the code per item, with `item` and `index` added to the scope. */
  items: JsonValue[];
}

export interface SandboxRunOptions {
  /** Cancels the job: a queued one never starts, a running one's worker is killed. */
  signal?: AbortSignal;
}

export interface SandboxPoolOptions {
  /** How many worker processes at most (started when needed, then reused); 2 by default. */
  size?: number;
  /** The limits of every job that does not set its own. */
  limits?: Partial<SandboxLimits>;
}

/** A syntax error in the author's code, located in the author's text (1-based line and column). */
export interface SandboxSyntaxProblem {
  message: string;
  line: number;
  column: number;
}

/** `limits` over `base`, each a positive number no larger than its maximum; throws on a value that is not one. */
export function resolveLimits(base: Readonly<SandboxLimits>, limits: Partial<SandboxLimits> | undefined): SandboxLimits {
  const resolved = { ...base };
  for (const key of Object.keys(MAX_SANDBOX_LIMITS) as (keyof SandboxLimits)[]) {
    const value = limits?.[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) throw new TypeError(`sandbox limit ${key} must be a positive number, not ${String(value)}`);
    resolved[key] = Math.min(Math.floor(value), MAX_SANDBOX_LIMITS[key]);
  }
  return resolved;
}

/** "1,000 ms", "64 MiB", "512 KiB", "1,500 bytes": a limit as the messages name it. */
export function describeLimit(key: keyof SandboxLimits, value: number): string {
  if (key === "timeMs") return `${value.toLocaleString("en")} ms`;
  const mebibytes = value / (1024 * 1024);
  if (Number.isInteger(mebibytes)) return `${mebibytes.toLocaleString("en")} MiB`;
  const kibibytes = value / 1024;
  if (Number.isInteger(kibibytes)) return `${kibibytes.toLocaleString("en")} KiB`;
  return `${value.toLocaleString("en")} bytes`;
}
