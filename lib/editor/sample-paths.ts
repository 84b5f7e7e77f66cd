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
  const root = pendingField(expression, label, value);
  // Breadth first, so the budget goes to the upper levels of every branch before the depths of the first.
  let level = [root];
  let left = limits.total;
  for (let depth = 0; depth < limits.depth && level.length > 0 && left > 0; depth += 1) {
    const next: Pending[] = [];
    for (const parent of level) {
      for (const child of childrenOf(parent, limits)) {
        if (left <= 0) break;
        left -= 1;
        const pending = pendingField(child.expression, child.label, child.value);
        parent.field.children.push(pending.field);
        parent.field.leftOut -= 1;
        next.push(pending);
      }
    }
    level = next;
  }
  return root.field;
}

/** A field whose children are still to be listed, with its value and (for an object) its keys, read once. */
interface Pending {
  field: SampleField;
  value: unknown;
  keys: string[] | null;
}

/** All of a field's entries count as left out until they are listed. */
function pendingField(expression: string, label: string, value: unknown): Pending {
  // Object.keys once per object: it is the fastest way through a huge one, and the size, the preview and the children all need it.
  const keys = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : null;
  const size = Array.isArray(value) ? value.length : (keys?.length ?? 0);
  return { field: { expression, label, type: typeOf(value), preview: previewOf(value, size), children: [], leftOut: size }, value, keys };
}

/** The entries of an object or array a template can name, up to the limits. */
function* childrenOf({ field, value, keys }: Pending, limits: PathLimits): Generator<{ expression: string; label: string; value: unknown }> {
  if (Array.isArray(value)) {
    for (let index = 0; index < Math.min(value.length, limits.items); index += 1) {
      yield { expression: `${field.expression}[${index}]`, label: index === 0 ? "[0] first item" : `[${index}]`, value: value[index] };
    }
    return;
  }
  let listed = 0;
  for (const key of keys ?? []) {
    if (listed >= limits.keys) return;
    if (!NAMEABLE_KEY.test(key)) continue;
    listed += 1;
    yield { expression: `${field.expression}.${key}`, label: key, value: (value as Record<string, unknown>)[key] };
  }
}

export function typeOf(value: unknown): SampleType {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "string") return "text";
  if (typeof value === "number" || typeof value === "boolean") return typeof value as "number" | "boolean";
  return "object";
}

/** A value in a few characters, for the picker's rows and the field previews; `size`, when known, spares counting an object's keys again. */
export function previewOf(value: unknown, size?: number): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return value.length === 1 ? "[1 item]" : `[${value.length} items]`;
  if (value !== null && typeof value === "object") {
    const fields = size ?? Object.keys(value).length;
    return fields === 1 ? "{1 field}" : `{${fields} fields}`;
  }
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;
}

/** Every field of a tree, parents before their children: the completions' list. */
export function flattenFields(fields: readonly SampleField[]): SampleField[] {
  return fields.flatMap((field) => [field, ...flattenFields(field.children)]);
}
