import { agentEditor } from "./agent/editor";
import { codeEditor } from "./code/editor";
import { entryOfKind, type NodeKind, type NodeOfKind, type WorkflowNode } from "./definitions";
import { forEachEditor } from "./foreach/editor";
import { inputEditor } from "./input/editor";
import type { NodeKindEditor } from "./node-kind-editor";
import { outputEditor } from "./output/editor";
import { routerEditor } from "./router/editor";
import { scheduleEditor } from "./schedule/editor";
import { subWorkflowEditor } from "./subworkflow/editor";
import { toolEditor } from "./tool/editor";
import { webhookEditor } from "./webhook/editor";

/**
 * Every node kind's inspector, one line each: what the editor's inspector
 * dispatches through (components/editor/inspector/node-inspector.tsx). Client
 * side. Names, icons, palette blocks and card content are in nodes/definitions.ts.
 */
export const nodeKindEditors = {
  input: inputEditor,
  tool: toolEditor,
  router: routerEditor,
  agent: agentEditor,
  subworkflow: subWorkflowEditor,
  foreach: forEachEditor,
  code: codeEditor,
  output: outputEditor,
  webhook: webhookEditor,
  schedule: scheduleEditor,
} satisfies { [Kind in NodeKind]: NodeKindEditor<NodeOfKind<Kind>> };

/** The editor side of `node`'s kind, typed for that node. */
export function editorOf<Node extends WorkflowNode>(node: Node): NodeKindEditor<Node> {
  return entryOfKind<NodeKindEditor<Node>>(nodeKindEditors, node);
}
