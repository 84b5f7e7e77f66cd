import { nodeKindDefinitions, type NodeKind } from "@/nodes/definitions";

/**
 * What a screen reader hears for a canvas card, in the editor and the run
 * view alike: its title, what it is (its tool, or its kind), then what needs
 * attention (problems in the editor, the step's status in a run). A title
 * alone does not tell "Check" the router from "Check" the HTTP request.
 */
export interface CardNameParts {
  kind: NodeKind;
  title: string;
  /** The tool's title, for a tool node. */
  toolTitle?: string;
  /** Validation problems (editor). */
  problems?: number;
  /** The step's status in words (run view): "waiting for you", "failed". */
  status?: string;
  /** Its output is pinned: test runs from the editor use the pin instead of running it (editor). */
  pinned?: boolean;
  /** What the Architect's proposal does to it, while the person reviews it (editor). */
  proposed?: { change: "added" | "changed" | "removed"; accepted: boolean };
}

const PROPOSED_WORDS = { added: "new step", changed: "changed", removed: "removed" } as const;

export function cardName({ kind, title, toolTitle, problems = 0, status, pinned = false, proposed }: CardNameParts): string {
  const parts = [title];
  const same = (words: string | undefined) => words !== undefined && words.toLowerCase() === title.toLowerCase();
  // Nothing said twice: an unlabelled tool card is titled by its tool, a Run inputs card by its kind.
  if (kind === "tool") parts.push(toolTitle && !same(toolTitle) ? `${toolTitle} tool` : "tool");
  else if (!same(nodeKindDefinitions[kind].title)) parts.push(nodeKindDefinitions[kind].title);
  if (pinned) parts.push("output pinned");
  if (proposed) parts.push(`proposed: ${PROPOSED_WORDS[proposed.change]}${proposed.accepted ? "" : " (not ticked)"}`);
  if (problems > 0) parts.push(`${problems} problem${problems === 1 ? "" : "s"}`);
  if (status) parts.push(status);
  return parts.join(", ");
}
