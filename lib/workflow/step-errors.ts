// What a node's executor (nodes/<kind>/server.ts) may throw for the engine to
// interpret; anything else thrown is reported as an internal error and logged.

/** A step failure: its message becomes the node's error; `input` is what the step was given, when known. */
export class StepFailure extends Error {
  constructor(
    message: string,
    readonly input?: unknown,
  ) {
    super(message);
  }
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
 * for a person (a worker parks a run that only waits, or lost its job's claim).
 * Nothing is recorded for it: the step stays as stored, and whoever drives the
 * run next replays it.
 */
export class ParkedRun extends Error {
  constructor() {
    super("The run was let go by this process; another drive continues it.");
  }
}
