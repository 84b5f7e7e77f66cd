import type { WorkflowNode } from "@/lib/workflow/definition";
import { titleOfKind } from "@/nodes/definitions";
import { forEachKind } from "@/nodes/foreach/definition";
import { scheduleSubtitle } from "@/nodes/schedule/definition";
import { hookPath } from "@/nodes/webhook/definition";
import { operationTitle, toolTitle, type ToolTitles } from "./tool-titles";

/** A node's name for people: its label, else its tool's title, else its kind. Never a raw tool name. */
export function nodeLabel(node: WorkflowNode, titles: ToolTitles): string {
  if (node.label && node.label.trim() !== "") return node.label;
  if (node.kind === "tool") return toolTitle(titles, node.tool);
  return titleOfKind(node.kind);
}

/** The line under a node's title: the operation's title, or a short line about the node. */
export function nodeSubtitle(node: WorkflowNode, titles: ToolTitles): string | undefined {
  switch (node.kind) {
    case "tool": {
      const operation = operationTitle(titles, node.tool, node.operation);
      if (operation) return operation;
      return node.label ? toolTitle(titles, node.tool) : undefined;
    }
    case "input":
      return node.fields.length === 0 ? "No inputs" : `${node.fields.length} input${node.fields.length === 1 ? "" : "s"}`;
    case "router":
      return `${node.routes.length} route${node.routes.length === 1 ? "" : "s"} and a default`;
    case "output":
      return "The run's result";
    case "agent":
      return undefined;
    case "webhook":
      return `${node.methods.join(", ")} /hooks/${hookPath(node)}`;
    case "schedule":
      return scheduleSubtitle(node);
    case "subworkflow":
      return node.version === "published" ? "Calls a workflow's published version" : `Calls version ${node.version} of a workflow`;
    case "foreach":
      return `${node.concurrency} item${node.concurrency === 1 ? "" : "s"} at a time`;
    case "code":
      return node.mode === "once" ? "JavaScript, once" : "JavaScript, once per item";
  }
}

/** The line under a node of a For each loop's body, on every canvas: which loop runs it. */
export function inLoopSubtitle(loopLabel: string): string {
  return `in For each “${loopLabel}”`;
}

/** A router's outputs: each route, then the default; a For each's: its body's handle, then what follows it. */
export function routerOutputs(node: WorkflowNode): { id: string; label: string }[] | undefined {
  if (node.kind === "foreach") return forEachKind.card.content(node).outputs;
  if (node.kind !== "router") return undefined;
  return [...node.routes.map((route) => ({ id: route.id, label: route.label ?? route.id })), { id: "default", label: "Default" }];
}
