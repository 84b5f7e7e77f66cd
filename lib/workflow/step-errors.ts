// What a node's executor (nodes/<kind>/server.ts) may throw for the engine to
// interpret; anything else thrown is reported as an internal error and logged.
import { isRetryable, TOOL_ERROR_KINDS, type ToolErrorKind } from "@/lib/tools/contracts";
import type { StepErrorKind } from "@/lib/contracts/execution-settings";
import { formatDuration } from "@/lib/run-view/format-time";

/**
 * A step failure: its message becomes the node's error; `input` is what the
 * step was given, when known; `kind` and `retryable` (a tool's, from its
 * ToolResult) decide whether its retry policy tries it again. A kind that is
 * not a tool's (a called workflow's `template` or `internal` failure) is
 * never retried.
 */
export class StepFailure extends Error {
  readonly kind: StepErrorKind;
  readonly retryable: boolean;

  constructor(
    message: string,
    readonly input?: unknown,
    failure: { kind?: StepErrorKind | null; retryable?: boolean } = {},
  ) {
    super(message);
    this.kind = failure.kind ?? "failed";
    this.retryable = isToolErrorKind(this.kind) ? isRetryable(this.kind, failure.retryable) : false;
  }
}

function isToolErrorKind(kind: StepErrorKind): kind is ToolErrorKind {
  return (TOOL_ERROR_KINDS as readonly string[]).includes(kind);
}

/**
 * Raised inside a step when its run is cancelled: by a wait for a person
 * (the run's approvals were withdrawn) or by a tool that saw the abort. The
 * engine reads it as "stopped", not as the step's failure.
 */
export class RunCancelled extends Error {
  constructor() {
    super("The run was cancelled.");
  }
}

/**
 * Raised inside a step whose run this process let go of while the step waited
 * for a person (a worker parks a run that only waits, or lost its job's claim),
 * or for its next attempt (a shutdown). Nothing is recorded for it: the step
 * stays as stored, and whoever drives the run next replays it.
 */
export class ParkedRun extends Error {
  constructor() {
    super("The run was let go by this process; another drive continues it.");
  }
}

/** An attempt that ran past its step's time limit: its tools were told to stop, and it fails as a time-out (worth trying again). */
export class StepTimedOut extends Error {
  constructor(readonly limitMs: number) {
    super(`The step ran longer than its time limit of ${formatDuration(limitMs)} and was stopped.`);
  }
}
