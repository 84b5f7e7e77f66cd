import { z } from "zod";
import { failureHandling, FIELD_NAME, nodeBase } from "../node-base";
import { defineBlockKind } from "../node-kind";

/**
 * Each router operator in words, and whether it compares against a second value (`compareTo`): the one list of
 * operators, whose names the schema's enum is made of (the inspector offers them in this order).
 */
export const OPERATOR_WORDS = {
  equals: { label: "is", needsCompareTo: true },
  not_equals: { label: "is not", needsCompareTo: true },
  contains: { label: "contains", needsCompareTo: true },
  not_contains: { label: "does not contain", needsCompareTo: true },
  matches: { label: "matches the pattern", needsCompareTo: true },
  greater_than: { label: "is greater than", needsCompareTo: true },
  less_than: { label: "is less than", needsCompareTo: true },
  is_empty: { label: "is empty", needsCompareTo: false },
  is_not_empty: { label: "is not empty", needsCompareTo: false },
  is_true: { label: "is true", needsCompareTo: false },
  is_false: { label: "is false", needsCompareTo: false },
} satisfies Record<string, { label: string; needsCompareTo: boolean }>;

type OperatorName = keyof typeof OPERATOR_WORDS;
export const ConditionOperatorSchema = z.enum(Object.keys(OPERATOR_WORDS) as [OperatorName, ...OperatorName[]]);
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

export const routerKind = defineBlockKind(RouterNodeSchema, {
  title: "Router",
  icon: "git-branch",
  palette: { help: "Takes one branch by a condition." },
  onlyComputes: true,
  card: {
    content: (node) => ({
      subtitle: node.routes.length === 0 ? "No routes yet" : `${node.routes.length} route${node.routes.length === 1 ? "" : "s"}`,
      // One handle per route, then the default: an edge out of a router follows one of them.
      outputs: [...node.routes.map((route) => ({ id: route.id, label: route.label || route.id })), { id: DEFAULT_ROUTE, label: "default" }],
    }),
    // Route edits replace the array, so comparing it by identity is enough.
    sameContent: (before, after) => before.routes === after.routes,
  },
});
