import type { WorkflowNode } from "@/lib/workflow/definition";
import type { ProposalMark } from "./proposal-preview";

/**
 * What the editor puts on a canvas card. The run view's cards show the same
 * and more: NodeCardData in components/flow/node-card.tsx extends it (it is
 * kept here so lib does not import components).
 */
export interface CardData extends Record<string, unknown> {
  kind: WorkflowNode["kind"];
  /** The node's label, else its tool's title: never the tool's name. */
  title: string;
  /** The operation's title, or a short line about the node. */
  subtitle?: string;
  icon?: string | null;
  domain?: string;
  /** How many validation problems the node has (editor). */
  problems?: number;
  /** The first problem, shown on hover. */
  problemText?: string;
  /** Named outputs (a router's routes plus "default"); one unnamed output when absent. */
  outputs?: readonly { id: string; label: string }[];
  /** Input nodes have no incoming handle. */
  hasInput?: boolean;
  /** Output nodes have no outgoing handle. */
  hasOutput?: boolean;
  /** The node follows an error path on failure: an error handle, below its outputs. */
  errorHandle?: boolean;
  /** Its output is pinned (editor): test runs use the pin instead of running it. */
  pinned?: boolean;
  /** What the Architect's proposal does to it, while the person reviews the proposal (editor). */
  proposed?: ProposalMark;
}
