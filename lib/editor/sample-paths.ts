/**
 * The field paths of a sample value, as the "From…" picker and the `{{`
 * completions list them: nested objects as a tree, arrays by index (`[0]`,
 * the first item, and the next few), each with its type, a short preview and
 * the template expression the engine resolves (lib/workflow/templates.ts).
 * Pure and bounded: a huge output is walked only as far as the limits, so
 * listing it stays fast however large it is.
 */

export type SampleType = "text" | "number" | "boolean" | "null" | "object" | "array";

export interface SampleField {
  /** The expression inside `{{ … }}`: `nodes.fetch.data.rows[0].name`. */
  expression: string;
  /** What the tree shows for this level: `rows`, `[0]`. */
  label: string;
  type: SampleType;
  /** The value in a few characters: `"Lahore"`, `42`, `{3 fields}`, `[120 items]`. */
  preview: string;
  children: SampleField[];
  /** Entries of this object or array not listed: past the limits, or keys a template cannot name. */
  leftOut: number;
}

export interface PathLimits {
  /** Levels below the starting value. */
  depth: number;
  /** Items of an array listed by index. */
  items: number;
  /** Fields of an object listed. */
  keys: number;
  /** Fields listed in all, for one value. */
  total: number;
}

export const PATH_LIMITS: PathLimits = { depth: 6, items: 3, keys: 50, total: 300 };

/** A key a template can name (lib/workflow/templates.ts's segment); others cannot be reached by a path. */
const NAMEABLE_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const PREVIEW_LENGTH = 40;

/**
 * The field under `expression` holding `value`, with its children listed
 * down to the limits. `label` is what the tree shows for it.
 */
export function sampleField(expression: string, label: string, value: unknown, limits: PathLimits = PATH_LIMITS): SampleField {
  const root = leafOf(expression, label, value);
  // Breadth first, so the budget goes to the upper levels of every branch before the depths of the first.
  let level: { field: SampleField; value: unknown }[] = [{ field: root, value }];
  let left = limits.total;
  for (let depth = 0; depth < limits.depth && level.length > 0; depth += 1) {
    const next: { field: SampleField; value: unknown }[] = [];
    for (const { field, value: current } of level) {
      for (const child of childrenOf(field.expression, current, limits)) {
        if (left <= 0) break;
        left -= 1;
        const childField = leafOf(child.expression, child.label, child.value);
        field.children.push(childField);
        next.push({ field: childField, value: child.value });
      }
    }
    level = next;
  }
  countLeftOut(root, value);
  return root;
}

function leafOf(expression: string, label: string, value: unknown): SampleField {
  return { expression, label, type: typeOf(value), preview: previewOf(value), children: [], leftOut: 0 };
}

/** The entries of an object or array a template can name, up to the limits. */
function* childrenOf(expression: string, value: unknown, limits: PathLimits): Generator<{ expression: string; label: string; value: unknown }> {
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (let index = 0; index < Math.min(value.length, limits.items); index += 1) {
      yield { expression: `${expression}[${index}]`, label: index === 0 ? "[0] first item" : `[${index}]`, value: value[index] };
    }
    return;
  }
  let listed = 0;
  // for…in with an early stop: Object.keys would copy every key of a huge object first.
  for (const key in value) {
    if (listed >= limits.keys) return;
    if (!Object.hasOwn(value, key) || !NAMEABLE_KEY.test(key)) continue;
    listed += 1;
    yield { expression: `${expression}.${key}`, label: key, value: (value as Record<string, unknown>)[key] };
  }
}

/** Each object's and array's entries that are not listed (past a limit, or not nameable), so the picker can say so. */
function countLeftOut(field: SampleField, value: unknown): void {
  if (value === null || typeof value !== "object") return;
  const size = Array.isArray(value) ? value.length : ownKeyCount(value);
  field.leftOut = size - field.children.length;
  for (const child of field.children) {
    const key = child.label.startsWith("[") ? Number(/\d+/.exec(child.label)![0]) : child.label;
    countLeftOut(child, (value as Record<string | number, unknown>)[key]);
  }
}

/** Counting stops here: past it an object reads as "10000+ fields", and a million keys cost no more than ten thousand. */
const COUNT_LIMIT = 10_000;

/** The object's own keys, counted up to COUNT_LIMIT. */
function ownKeyCount(value: object): number {
  let count = 0;
  for (const key in value) {
    if (Object.hasOwn(value, key)) count += 1;
    if (count >= COUNT_LIMIT) break;
  }
  return count;
}

export function typeOf(value: unknown): SampleType {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "string") return "text";
  if (typeof value === "number" || typeof value === "boolean") return typeof value as "number" | "boolean";
  return "object";
}

/** A value in a few characters, for the picker's rows and the field previews. */
export function previewOf(value: unknown, length: number = PREVIEW_LENGTH): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return value.length === 1 ? "[1 item]" : `[${value.length} items]`;
  if (value !== null && typeof value === "object") {
    const size = ownKeyCount(value);
    return size === 1 ? "{1 field}" : `{${size}${size >= COUNT_LIMIT ? "+" : ""} fields}`;
  }
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** Every field of a tree, parents before their children: the completions' list. */
export function flattenFields(fields: readonly SampleField[]): SampleField[] {
  return fields.flatMap((field) => [field, ...flattenFields(field.children)]);
}
