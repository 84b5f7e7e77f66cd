/** A write worked out against the file: what a person approves, and what is written. */
export type WritePlan<Ready> = ({ ok: true; relativePath: string } & Ready) | { ok: false; error: string };

/**
 * The plan a person was shown for each call of a writing tool. The framework hands describeAction() and call()
 * the same arguments object, so keeping the plan under it lets call() refuse a file that changed while a person was
 * looking at the diff: what was approved is what is written.
 */
export class ApprovedPlans<Ready> {
  private readonly shown = new WeakMap<object, WritePlan<Ready>>();

  /**
   * @param sameFile whether the file is still the one the shown plan was made from
   * @param change what the tool was about to do ("the edit"), for the refusal
   * @param advice what the model should do after a refusal
   */
  constructor(
    private readonly sameFile: (shown: Ready, now: Ready) => boolean,
    private readonly change: string,
    private readonly advice: string,
  ) {}

  /** describeAction()'s part: remembers the plan shown for these arguments. */
  remember(args: object, plan: WritePlan<Ready>): WritePlan<Ready> {
    this.shown.set(args, plan);
    return plan;
  }

  /** call()'s part: the plan made now, unless the one shown could not apply or the file changed since. */
  async confirm(args: object, planNow: () => Promise<WritePlan<Ready>>): Promise<WritePlan<Ready>> {
    const shown = this.shown.get(args);
    this.shown.delete(args);
    if (shown && !shown.ok) return shown;
    const plan = await planNow();
    if (!plan.ok || !shown || this.sameFile(shown, plan)) return plan;
    return {
      ok: false,
      error: `\`path\`: "${plan.relativePath}" changed while ${this.change} was waiting for approval, so nothing was written. ${this.advice}`,
    };
  }
}
