import { asText, resolveTemplates, type TemplateScope } from "@/lib/workflow/templates";
import { DEFAULT_ROUTE, type ConditionOperator, type Route } from "./definition";

/**
 * Whether `value` satisfies `operator` against `compareTo`. Numbers compare
 * as numbers when both sides read as numbers; everything else compares as text.
 */
export function conditionHolds(value: unknown, operator: ConditionOperator, compareTo: unknown): boolean {
  const text = asText(value).trim();
  const other = asText(compareTo).trim();
  switch (operator) {
    case "equals":
      return bothNumbers(text, other) ? Number(text) === Number(other) : text === other;
    case "not_equals":
      return !conditionHolds(value, "equals", compareTo);
    case "contains":
      return text.includes(other);
    case "not_contains":
      return !text.includes(other);
    case "matches":
      try {
        return new RegExp(other).test(text);
      } catch {
        throw new Error(`"${other}" is not a valid regular expression.`);
      }
    case "greater_than":
    case "less_than": {
      if (!bothNumbers(text, other)) throw new Error(`"${text}" and "${other}" must both be numbers to compare with ${operator}.`);
      return operator === "greater_than" ? Number(text) > Number(other) : Number(text) < Number(other);
    }
    case "is_empty":
      return text === "" || text === "[]" || text === "{}";
    case "is_not_empty":
      return !conditionHolds(value, "is_empty", compareTo);
    case "is_true":
      return ["true", "yes", "1"].includes(text.toLowerCase());
    case "is_false":
      return ["false", "no", "0", ""].includes(text.toLowerCase());
  }
}

function bothNumbers(left: string, right: string): boolean {
  return left !== "" && right !== "" && Number.isFinite(Number(left)) && Number.isFinite(Number(right));
}

/** The first route whose condition holds, else `default`. */
export function chooseRoute(routes: readonly Route[], scope: TemplateScope): string {
  for (const route of routes) {
    const value = resolveTemplates(route.value, scope);
    const compareTo = resolveTemplates(route.compareTo, scope);
    if (conditionHolds(value, route.operator, compareTo)) return route.id;
  }
  return DEFAULT_ROUTE;
}
