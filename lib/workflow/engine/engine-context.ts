/**
 * What the engine's parts share: its options, the runs active here, the
 * approval and child-run waits, and the scheduler's turn. The scheduler is
 * reached through here (`pump`) so that the parts below it, which may let a
 * run go and so need the next turn, do not import it back.
 */
import type { ApprovalWaits } from "../approvals/approval-waits";
import type { ChildRunWaits } from "../child-runs";
import type { Clock } from "../clock";
import type { ActiveRun } from "./active-run";
import type { RunEngineOptions } from "./engine-options";

export interface EngineContext {
  readonly options: RunEngineOptions;
  /** The runs this process executes now, by id. */
  readonly active: Map<string, ActiveRun>;
  readonly approvals: ApprovalWaits;
  /** Sub-workflow steps of runs here waiting for their child runs. */
  readonly childWaits: ChildRunWaits;
  readonly workingDirectory: string;
  readonly clock: Clock;
  /** The scheduler's next turn for `run` (scheduling.ts `pump`). */
  readonly pump: (run: ActiveRun) => void;
}
