import { StepFailure } from "@/lib/workflow/step-errors";
import type { NodeKindServer } from "../node-kind-server";
import { chooseRoute } from "./conditions";
import type { RouterNode } from "./definition";

export const routerServer: NodeKindServer<RouterNode> = {
  // Route ids and the edges out of a router are checked with the workflow's structure: see checkStructure.
  validate: (node, { checkTemplates }) => {
    node.routes.forEach((route, index) => {
      checkTemplates(route.value, `routes[${index}].value`);
      checkTemplates(route.compareTo, `routes[${index}].compareTo`);
    });
  },
  // The output's `route` is what the scheduler follows; the other branches are skipped.
  execute: (node, context) => {
    let route: string;
    try {
      route = chooseRoute(node.routes, context.scope());
    } catch (error) {
      throw new StepFailure(error instanceof Error ? error.message : String(error));
    }
    const label = node.routes.find((each) => each.id === route)?.label ?? route;
    return { output: { content: `Took the route "${label}".`, route }, input: null };
  },
};
