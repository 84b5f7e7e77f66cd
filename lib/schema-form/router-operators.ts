import type { ConditionOperator } from "@/lib/workflow/definition";

/** Each router operator in words, and whether it compares against a second value. */
export const OPERATOR_WORDS: Record<ConditionOperator, { label: string; needsCompareTo: boolean }> = {
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
};

/** A route id not yet used by `taken` (and never "default"): route_1, route_2, … */
export function nextRouteId(taken: readonly string[]): string {
  for (let index = 1; ; index += 1) {
    const id = `route_${index}`;
    if (!taken.includes(id)) return id;
  }
}

/** Moves the item at `from` to `to`, returning a new array. */
export function move<Item>(items: readonly Item[], from: number, to: number): Item[] {
  if (to < 0 || to >= items.length || from === to) return [...items];
  const result = [...items];
  const [item] = result.splice(from, 1);
  result.splice(to, 0, item!);
  return result;
}
