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
