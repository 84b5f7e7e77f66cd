import { agentServer } from "./agent/server";
import { codeServer } from "./code/server";
import { entryOfKind, type NodeKind, type NodeOfKind, type WorkflowNode } from "./definitions";
import { forEachServer } from "./foreach/server";
import { inputServer } from "./input/server";
import type { NodeKindServer } from "./node-kind-server";
import { outputServer } from "./output/server";
import { routerServer } from "./router/server";
import { scheduleServer } from "./schedule/server";
import { subWorkflowServer } from "./subworkflow/server";
import { toolServer } from "./tool/server";
import { webhookServer } from "./webhook/server";

/**
 * Every node kind's server side, one line each: how validateWorkflow checks a
 * node and how the run engine runs one. Server-only. A kind missing here (or
 * here but not in nodes/definitions.ts) does not compile.
 */
export const nodeKindServers = {
  input: inputServer,
  tool: toolServer,
  router: routerServer,
  agent: agentServer,
  subworkflow: subWorkflowServer,
  foreach: forEachServer,
  code: codeServer,
  output: outputServer,
  webhook: webhookServer,
  schedule: scheduleServer,
} satisfies { [Kind in NodeKind]: NodeKindServer<NodeOfKind<Kind>> };

/** The server side of `node`'s kind, typed for that node. */
export function serverOf<Node extends WorkflowNode>(node: Node): NodeKindServer<Node> {
  return entryOfKind<NodeKindServer<Node>>(nodeKindServers, node);
}
