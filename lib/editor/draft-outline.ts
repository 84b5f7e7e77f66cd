/**
 * What the Architect's panel lists of an answer while it streams (and of the
 * last one when a drafting failed): its name, the plan's steps and the nodes,
 * read from a partial object whose every field may still be missing or half
 * written. Only strings are taken; nothing in it is evaluated. Pure.
 */
import type { CatalogTool } from "@/lib/contracts/catalog";
import { nodeKindDefinitions, type NodeKind } from "@/nodes/definitions";

export interface OutlineStep {
  step: string;
  reason: string;
  capability: string | null;
}

export interface OutlineNode {
  id: string;
  /** The node's label when the answer gave one. */
  label: string | null;
  /** What it is: the tool's title and operation, or the building block's kind. */
  what: string;
}

export interface DraftOutline {
  name: string | null;
  plan: OutlineStep[];
  nodes: OutlineNode[];
}

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
const records = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter((each): each is Record<string, unknown> => typeof each === "object" && each !== null && !Array.isArray(each)) : [];

export function draftOutline(partial: unknown, tools: ReadonlyMap<string, CatalogTool>): DraftOutline {
  const answer = typeof partial === "object" && partial !== null ? (partial as Record<string, unknown>) : {};
  const plan = records(answer.plan).flatMap((step) => {
    const words = text(step.step);
    return words ? [{ step: words, reason: text(step.reason) ?? "", capability: text(step.capability) }] : [];
  });
  const nodes = records(answer.nodes).flatMap((node) => {
    const id = text(node.id);
    return id ? [{ id, label: text(node.label), what: whatNodeIs(node, tools) }] : [];
  });
  return { name: text(answer.name), plan, nodes };
}

function whatNodeIs(node: Record<string, unknown>, tools: ReadonlyMap<string, CatalogTool>): string {
  const kind = text(node.kind);
  if (kind === "tool") {
    const name = text(node.tool);
    const tool = name ? tools.get(name) : undefined;
    if (!tool) return name ? `Tool ${name}` : "Tool";
    const operation = tool.operations.find((each) => each.name === node.operation);
    return operation ? `${tool.title}: ${operation.title}` : tool.title;
  }
  return kind && kind in nodeKindDefinitions ? nodeKindDefinitions[kind as NodeKind].title : "A step";
}
