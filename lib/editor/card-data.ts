import type { WorkflowNode } from "@/lib/workflow/definition";

/**
 * What the editor puts on a canvas card; the same shape as NodeCardData in
 * components/flow/node-card.tsx (kept here so lib does not import components).
 */
export interface CardData extends Record<string, unknown> {
  kind: WorkflowNode["kind"];
  title: string;
  subtitle?: string;
  icon?: string | null;
  domain?: string;
  problems?: number;
  problemText?: string;
  outputs?: readonly { id: string; label: string }[];
  hasInput?: boolean;
  hasOutput?: boolean;
  /** The node follows an error path on failure: its card has an error handle. */
  errorHandle?: boolean;
  /** Its output is pinned: the editor's test runs use the pin instead of running it. */
  pinned?: boolean;
}
