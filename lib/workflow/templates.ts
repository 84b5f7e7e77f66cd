/**
 * Templates let a node's arguments refer to the run's inputs and to upstream
 * nodes' results:
 *
 *   {{ inputs.city }}              a run input
 *   {{ nodes.fetch.output }}       an upstream node's text result
 *   {{ nodes.fetch.data.rows[0] }} a path into its structured result
 *   {{ item }} / {{ item.name }}    inside a For each loop's body: the item it runs for
 *   {{ index }}                    and that item's place in the list, from 0
 *
 * A value that is exactly one template keeps the referenced value's type (a
 * number stays a number); templates inside longer text are joined as text
 * (objects as JSON). `${NAME}` is not a template: it names a secret and is
 * only resolved inside a tool's declared secret inputs.
 */

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const WHOLE_TEMPLATE = /^\s*\{\{\s*([^{}]*?)\s*\}\}\s*$/;
const SEGMENT = /^([A-Za-z_][A-Za-z0-9_-]*)((?:\[\d+\])*)$/;

/** What a template refers to. */
export type TemplateReference =
  | { kind: "input"; name: string; expression: string }
  | { kind: "node"; nodeId: string; expression: string }
  | { kind: "item"; expression: string };

/** What templates resolve against. */
export interface TemplateScope {
  inputs: Readonly<Record<string, unknown>>;
  nodes: Readonly<Record<string, { output: unknown; data?: unknown }>>;
  /** In a For each item's run: the item and its index. */
  loop?: { item: unknown; index: number };
}

/**
 * What a node's finished output is to the templates after it: its text as
 * `output`, its structured result as `data`. The engine builds its scope with
 * this and the editor's field previews build theirs from samples with it, so
 * a preview reads what the run would.
 */
export function scopeEntryOf(output: { content: string; data?: unknown }): { output: unknown; data?: unknown } {
  return { output: output.content, data: output.data };
}

/** A template that does not parse or refers to nothing, with the reason. */
export class TemplateError extends Error {
  constructor(
    readonly expression: string,
    reason: string,
  ) {
    super(`{{ ${expression} }}: ${reason}`);
    this.name = "TemplateError";
  }
}

/**
 * Splits a dotted path with indexes, `body.items[0].name`, into
 * `["body","items",0,"name"]`; null when a part is not a name (letters,
 * digits, _ and -, then [index]es).
 */
export function splitPath(text: string): { path: (string | number)[] } | { badPart: string } {
  const path: (string | number)[] = [];
  for (const part of text.split(".")) {
    const match = SEGMENT.exec(part);
    if (!match) return { badPart: part };
    path.push(match[1]!);
    for (const index of match[2]!.matchAll(/\[(\d+)\]/g)) path.push(Number(index[1]));
  }
  return { path };
}

/** The value at `path` inside `value`; undefined where the path leads nowhere. */
export function valueAtPath(value: unknown, path: readonly (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** Splits `nodes.a.data.rows[0].name` into `["nodes","a","data","rows",0,"name"]`. */
export function parseExpression(expression: string): (string | number)[] {
  if (expression.trim() === "") throw new TemplateError(expression, "is empty; write e.g. {{ inputs.name }}");
  const split = splitPath(expression);
  if ("badPart" in split) throw new TemplateError(expression, `"${split.badPart}" is not a name; use letters, digits, _ and [index]`);
  const path = split.path;
  const head = path[0];
  if (head === "inputs" && typeof path[1] === "string") return path;
  if (head === "nodes" && typeof path[1] === "string" && (path[2] === "output" || path[2] === "data")) return path;
  if (head === "item" || (head === "index" && path.length === 1)) return path;
  throw new TemplateError(expression, "expected inputs.<name>, nodes.<id>.output, nodes.<id>.data…, or item / index inside a For each loop");
}

/** Every template reference in a value (strings, arrays and objects, deeply). */
export function findReferences(value: unknown): TemplateReference[] {
  const references: TemplateReference[] = [];
  visitStrings(value, (text) => {
    for (const match of text.matchAll(TEMPLATE)) {
      const expression = match[1]!;
      const path = parseExpression(expression);
      references.push(
        path[0] === "inputs"
          ? { kind: "input", name: String(path[1]), expression }
          : path[0] === "nodes"
            ? { kind: "node", nodeId: String(path[1]), expression }
            : { kind: "item", expression },
      );
    }
  });
  return references;
}

/** Resolves every template in `value` (deeply) against `scope`. */
export function resolveTemplates(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === "string") return resolveString(value, scope);
  if (Array.isArray(value)) return value.map((item) => resolveTemplates(item, scope));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveTemplates(item, scope)]));
  }
  return value;
}

function resolveString(text: string, scope: TemplateScope): unknown {
  const whole = WHOLE_TEMPLATE.exec(text);
  if (whole) return lookup(whole[1]!, scope);
  return text.replace(TEMPLATE, (_match, expression: string) => asText(lookup(expression, scope)));
}

function lookup(expression: string, scope: TemplateScope): unknown {
  const path = parseExpression(expression);
  if (path[0] === "item" || path[0] === "index") {
    if (!scope.loop) throw new TemplateError(expression, "item and index exist only in the steps of a For each loop's body");
    return path[0] === "index" ? scope.loop.index : valueAtPath(scope.loop.item, path.slice(1));
  }
  let current: unknown = path[0] === "inputs" ? scope.inputs : scope.nodes;
  for (const [index, key] of path.slice(1).entries()) {
    if (current === null || current === undefined || typeof current !== "object") {
      throw new TemplateError(expression, `nothing at "${path.slice(0, index + 2).join(".")}"`);
    }
    if (!Object.hasOwn(current, key)) {
      if (index === 0) {
        throw new TemplateError(expression, path[0] === "inputs" ? `the run has no input "${key}"` : `node "${key}" has no result`);
      }
      return undefined;
    }
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** How a value reads inside text. */
export function asText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function visitStrings(value: unknown, visit: (text: string) => void): void {
  if (typeof value === "string") visit(value);
  else if (Array.isArray(value)) value.forEach((item) => visitStrings(item, visit));
  else if (value !== null && typeof value === "object") Object.values(value).forEach((item) => visitStrings(item, visit));
}
