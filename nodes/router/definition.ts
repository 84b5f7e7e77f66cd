import { z } from "zod";
import { failureHandling, FIELD_NAME, nodeBase } from "../node-base";
import { newNodeWithDefaults, type NodeKindDefinition } from "../node-kind";

export const ConditionOperatorSchema = z.enum([
  "equals",
  "not_equals",
  "contains",
  "not_contains",
  "matches",
  "greater_than",
  "less_than",
  "is_empty",
  "is_not_empty",
  "is_true",
  "is_false",
]);
export type ConditionOperator = z.infer<typeof ConditionOperatorSchema>;

export const RouteSchema = z.object({
  id: z.string().regex(FIELD_NAME, "a route id is a letter or _ followed by letters, digits or _"),
  label: z.string().max(200).optional(),
  /** A template, e.g. `{{ nodes.check.output }}`. */
  value: z.string().max(2000),
  operator: ConditionOperatorSchema,
  compareTo: z.string().max(2000).default(""),
});
export type Route = z.infer<typeof RouteSchema>;

/** The default route's handle: taken when no route's condition holds. */
export const DEFAULT_ROUTE = "default";

/** Chooses one branch: the first route whose condition holds, else `default`. */
export const RouterNodeSchema = z.object({
  ...nodeBase,
  ...failureHandling,
  kind: z.literal("router"),
  routes: z.array(RouteSchema).max(50).default([]),
});
export type RouterNode = z.infer<typeof RouterNodeSchema>;

export const routerKind = {
  kind: "router",
  onlyComputes: true,
  schema: RouterNodeSchema,
  title: "Router",
  icon: "git-branch",
  palette: { help: "Takes one branch by a condition." },
  onePerWorkflow: false,
  handlesFailures: true,
  createNode: newNodeWithDefaults(RouterNodeSchema, "router"),
  card: {
    content: (node) => ({
      subtitle: node.routes.length === 0 ? "No routes yet" : `${node.routes.length} route${node.routes.length === 1 ? "" : "s"}`,
      // One handle per route, then the default: an edge out of a router follows one of them.
      outputs: [...node.routes.map((route) => ({ id: route.id, label: route.label || route.id })), { id: DEFAULT_ROUTE, label: "default" }],
    }),
    // Route edits replace the array, so comparing it by identity is enough.
    sameContent: (before, after) => before.routes === after.routes,
  },
} satisfies NodeKindDefinition<RouterNode>;
