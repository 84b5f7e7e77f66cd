import type { ApprovalPreview } from "@/lib/tools/contracts";
import { toVisibleString } from "@/lib/tools/contracts";
import { shortRunId } from "./run-lineage";

/** Long commands and addresses are cut in a button's name: the card above shows them whole. */
const LONGEST = 80;

function shortened(text: string): string {
  const visible = toVisibleString(text.replace(/\s+/g, " ").trim());
  return visible.length > LONGEST ? `${visible.slice(0, LONGEST - 1)}…` : visible;
}

/** What an approval would do, in a few words: "change notes/today.md", "run npm test", "POST https://…". */
export function effectInWords(effect: ApprovalPreview): string | null {
  switch (effect.kind) {
    case "file-change":
      return `${effect.change === "create" ? "create" : "change"} ${shortened(effect.path)}`;
    case "file-replace":
      return `replace ${shortened(effect.path)}`;
    case "command":
      return `run ${shortened(effect.command)}`;
    case "request":
      return `${effect.method} ${shortened(effect.url)}`;
    case "tool-call":
      return `call ${effect.server ? `${shortened(effect.server)} ` : ""}${shortened(effect.tool)}`;
    case "text":
      return null;
  }
}

/**
 * A decision button's accessible name: its visible words first (so speech
 * control finds it by what it shows), then the step, what it would do and
 * its run, so several cards' "Approve once" buttons in the inbox are told
 * apart, two runs of one workflow waiting at the same step included.
 */
export function decisionButtonName(visible: string, step: string, effect: ApprovalPreview, runId?: string): string {
  const what = effectInWords(effect);
  return `${visible}: ${shortened(step)}${what ? `, ${what}` : ""}${runId ? `, run ${shortRunId(runId)}` : ""}`;
}
