/**
 * Turns a JSON Schema (as `z.toJSONSchema(model, { io: "input" })` writes it)
 * into field descriptors a generic form renders: one widget per field, with
 * its label, help, required mark and default. Pure: no React, no zod.
 */

/** A JSON Schema object. */
export type JsonSchema = { [key: string]: unknown };

export type Widget =
  | "text"
  | "textarea"
  | "password"
  | "directory"
  | "secret"
  | "number"
  | "checkbox"
  | "select"
  | "object"
  | "list"
  | "object-list"
  | "record"
  | "json";

export interface FieldDescriptor {
  /** The property name. */
  key: string;
  /** Dotted path from the form's root, e.g. `environment` or `edits[0].oldText` style parents use `edits`. */
  path: string;
  label: string;
  description: string | undefined;
  required: boolean;
  /** The schema allows null (anyOf with null). */
  nullable: boolean;
  widget: Widget;
  defaultValue: unknown;
  /** For `select`. */
  options: (string | number | boolean)[];
  /** For `select`: each option's words (the schema's `optionLabels`, from `.meta()`), where it gives them. */
  optionLabels: Readonly<Record<string, string>>;
  /** For `number`: whole numbers only. */
  integer: boolean;
  minimum: number | undefined;
  maximum: number | undefined;
  minLength: number | undefined;
  maxLength: number | undefined;
  /** For `object` and `object-list`: the nested fields. */
  fields: FieldDescriptor[];
  /** For `list` and `record`: how one item (or value) is edited. */
  item: FieldDescriptor | undefined;
}

export interface DescribeOptions {
  /** Field names that hold a `${NAME}` secret reference. */
  secretFields?: readonly string[];
}

const TEXTAREA_KEYS = new Set(["content", "body", "sql", "script", "prompt", "template", "text", "newText", "oldText", "message", "notes"]);
const TEXTAREA_FORMATS = new Set(["textarea", "multiline", "markdown"]);
const LONG_TEXT = 500;

/** `timeoutSeconds` → "Timeout seconds", `api_key` → "API key". */
export function humanise(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => (ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word.toLowerCase()));
  const sentence = words.join(" ");
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
const ACRONYMS = new Set(["cwd", "api", "url", "id", "sql", "dsn", "http", "https", "json", "csv", "ip", "uri"]);

function isObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Strips `anyOf: [X, {type: "null"}]` to X, noting that null is allowed. */
export function unwrapNullable(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  if (variants) {
    const rest = variants.filter((variant) => !(isObject(variant) && variant.type === "null"));
    if (rest.length === 1 && rest.length < variants.length && isObject(rest[0])) {
      const { anyOf: _anyOf, oneOf: _oneOf, ...outer } = schema;
      return { schema: { ...rest[0], ...outer }, nullable: true };
    }
  }
  if (Array.isArray(schema.type) && schema.type.includes("null")) {
    const types = schema.type.filter((type) => type !== "null");
    return { schema: { ...schema, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  return { schema, nullable: false };
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function enumOptions(schema: JsonSchema): (string | number | boolean)[] | null {
  if (Array.isArray(schema.enum)) return schema.enum.filter((item): item is string | number | boolean => item !== null);
  if (schema.const !== undefined && schema.const !== null && typeof schema.const !== "object") return [schema.const as string | number | boolean];
  return null;
}

function isRecord(schema: JsonSchema): boolean {
  return schema.type === "object" && isObject(schema.additionalProperties) && !isObject(schema.properties);
}

function chooseWidget(key: string, schema: JsonSchema, options: DescribeOptions): Widget {
  if (options.secretFields?.includes(key)) return "secret";
  if (enumOptions(schema)) return "select";
  const type = schema.type;
  if (type === "boolean") return "checkbox";
  if (type === "number" || type === "integer") return "number";
  if (type === "string") {
    if (schema.format === "directory") return "directory";
    if (schema.format === "password") return "password";
    if (typeof schema.format === "string" && TEXTAREA_FORMATS.has(schema.format)) return "textarea";
    const maxLength = numberOrUndefined(schema.maxLength);
    if (TEXTAREA_KEYS.has(key) || (maxLength !== undefined && maxLength >= LONG_TEXT)) return "textarea";
    if (typeof schema.description === "string" && /multi-?line/i.test(schema.description)) return "textarea";
    return "text";
  }
  if (type === "array" && isObject(schema.items)) {
    const item = unwrapNullable(schema.items).schema;
    if (item.type === "object" && isObject(item.properties)) return "object-list";
    if (["string", "number", "integer", "boolean"].includes(String(item.type)) || enumOptions(item)) return "list";
    return "json";
  }
  if (type === "object") {
    if (isRecord(schema)) return "record";
    if (isObject(schema.properties)) return "object";
  }
  return "json";
}

/** One field of `schema` (the property schema) at `path`. */
export function describeField(key: string, path: string, propertySchema: JsonSchema, required: boolean, options: DescribeOptions = {}): FieldDescriptor {
  const { schema, nullable } = unwrapNullable(propertySchema);
  const widget = chooseWidget(key, schema, options);
  const descriptor: FieldDescriptor = {
    key,
    path,
    label: typeof schema.title === "string" && schema.title.trim() !== "" ? schema.title : humanise(key),
    description: typeof schema.description === "string" && schema.description.trim() !== "" ? schema.description : undefined,
    required,
    nullable,
    widget,
    defaultValue: schema.default,
    options: enumOptions(schema) ?? [],
    optionLabels: isObject(schema.optionLabels)
      ? Object.fromEntries(Object.entries(schema.optionLabels).filter((entry): entry is [string, string] => typeof entry[1] === "string"))
      : {},
    integer: schema.type === "integer",
    minimum: numberOrUndefined(schema.minimum) ?? numberOrUndefined(schema.exclusiveMinimum),
    maximum: numberOrUndefined(schema.maximum) ?? numberOrUndefined(schema.exclusiveMaximum),
    minLength: numberOrUndefined(schema.minLength),
    maxLength: numberOrUndefined(schema.maxLength),
    fields: [],
    item: undefined,
  };
  // JSON Schema's integer bounds of ±2^53 say nothing to a person.
  if (descriptor.maximum !== undefined && Math.abs(descriptor.maximum) >= Number.MAX_SAFE_INTEGER) descriptor.maximum = undefined;
  if (descriptor.minimum !== undefined && Math.abs(descriptor.minimum) >= Number.MAX_SAFE_INTEGER) descriptor.minimum = undefined;
  if (widget === "object") descriptor.fields = describeSchema(schema, path, options);
  if (widget === "object-list" && isObject(schema.items)) descriptor.fields = describeSchema(unwrapNullable(schema.items).schema, `${path}[]`, options);
  if (widget === "list" && isObject(schema.items)) descriptor.item = describeField("item", `${path}[]`, schema.items, true);
  if (widget === "record" && isObject(schema.additionalProperties)) descriptor.item = describeField("value", `${path}{}`, schema.additionalProperties, true);
  return descriptor;
}

/**
 * The fields of an object schema, in the schema's order.
 *
 * @example
 *   describeSchema({ type: "object", properties: { root: { type: "string", format: "directory" } }, required: ["root"] })
 *   // [{ key: "root", label: "Root", widget: "directory", required: true, … }]
 */
export function describeSchema(schema: JsonSchema | null | undefined, parentPath = "", options: DescribeOptions = {}): FieldDescriptor[] {
  if (!schema || !isObject(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(schema.properties).flatMap(([key, property]) =>
    isObject(property) ? [describeField(key, parentPath ? `${parentPath}.${key}` : key, property, required.has(key), options)] : [],
  );
}

/** An empty value of the right shape for a new item of a list or record. */
export function emptyValue(descriptor: FieldDescriptor): unknown {
  if (descriptor.defaultValue !== undefined) return descriptor.defaultValue;
  switch (descriptor.widget) {
    case "checkbox":
      return false;
    case "number":
      return descriptor.minimum ?? 0;
    case "select":
      return descriptor.options[0] ?? "";
    case "object":
    case "record":
      return {};
    case "list":
    case "object-list":
      return [];
    case "json":
      return null;
    default:
      return "";
  }
}

/**
 * What the form hands upward: blank optional fields are dropped (so a
 * cleared field means "use the default", not "the empty string"), and a
 * number field left empty is no value at all. Required fields keep what the
 * person typed so their error can be shown.
 */
export function cleanValues(fields: readonly FieldDescriptor[], values: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const known = new Set(fields.map((field) => field.key));
  for (const [key, value] of Object.entries(values)) {
    if (!known.has(key) && value !== undefined) result[key] = value;
  }
  for (const field of fields) {
    const cleaned = cleanValue(field, values[field.key]);
    if (cleaned !== undefined) result[field.key] = cleaned;
  }
  return result;
}

function cleanValue(field: FieldDescriptor, value: unknown): unknown {
  if (value === undefined) return undefined;
  if (value === null) return field.nullable || field.widget === "json" ? null : undefined;
  if (typeof value === "number" && Number.isNaN(value)) return undefined;
  if (field.widget === "number" && typeof value === "string") {
    if (value.trim() === "") return undefined;
    const number = Number(value);
    return Number.isNaN(number) ? value : number;
  }
  if (value === "" && !field.required && field.widget !== "select") return undefined;
  if (field.widget === "object" && typeof value === "object" && !Array.isArray(value)) {
    const nested = cleanValues(field.fields, value as Record<string, unknown>);
    return Object.keys(nested).length === 0 && !field.required ? undefined : nested;
  }
  if (field.widget === "object-list" && Array.isArray(value)) {
    return value.map((item) => (typeof item === "object" && item !== null ? cleanValues(field.fields, item as Record<string, unknown>) : item));
  }
  return value;
}

/**
 * Problems keyed by field path, for the fields under `prefix`:
 * `settings.root` → `root` for the settings form.
 */
export function problemsUnder(prefix: string, problems: readonly { field: string | null; message: string }[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const problem of problems) {
    if (!problem.field?.startsWith(`${prefix}.`)) continue;
    const path = problem.field.slice(prefix.length + 1);
    result[path] = result[path] ? `${result[path]} ${problem.message}` : problem.message;
  }
  return result;
}

/** Turns `edits[0].oldText` into react-hook-form's `edits.0.oldText`. */
export function toFormPath(path: string): string {
  return path.replace(/\[(\d+)\]/g, ".$1");
}

/** JSON with object keys sorted, so two equal values compare equal whatever their key order. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  ) ?? "undefined";
}

/** The schema without the given top-level properties (they are edited elsewhere). */
export function withoutProperties(schema: JsonSchema, keys: readonly string[]): JsonSchema {
  if (keys.length === 0 || !isObject(schema.properties)) return schema;
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([key]) => !keys.includes(key)));
  const required = Array.isArray(schema.required) ? schema.required.filter((key) => !keys.includes(String(key))) : undefined;
  return { ...schema, properties, ...(required ? { required } : {}) };
}

/**
 * A validation message as a person should read it: zod's wording
 * ("Too small: expected number to be >=1") turned into plain words.
 */
export function friendlyMessage(message: string): string {
  const text = message.replace(/^Invalid input: /, "");
  const rules: [RegExp, (match: RegExpExecArray) => string][] = [
    [/^expected \w+, received undefined$/, () => "This field is required."],
    [/^Too small: expected string to have >=1 characters?$/, () => "This field is required."],
    [/^Too small: expected number to be >=?(-?[\d.e+]+)$/, (match) => `Enter ${match[1]} or more.`],
    [/^Too big: expected number to be <=?(-?[\d.e+]+)$/, (match) => `Enter ${match[1]} or less.`],
    [/^Too small: expected string to have >=(\d+) characters$/, (match) => `Enter at least ${match[1]} characters.`],
    [/^Too big: expected string to have <=(\d+) characters$/, (match) => `Enter at most ${match[1]} characters.`],
    [/^Too small: expected array to have >=(\d+) items?$/, (match) => `Add at least ${match[1]} item${match[1] === "1" ? "" : "s"}.`],
    [/^Too big: expected array to have <=(\d+) items$/, (match) => `Keep at most ${match[1]} items.`],
    [/^Invalid key in record$/, () => "This name is not allowed here."],
    [/^expected int, received number$/, () => "Enter a whole number."],
    [/^expected (number|int), received (NaN|string)$/, () => "Enter a number."],
    [/^Invalid string: must match pattern (.+)$/, (match) => `Does not have the expected form (${match[1]}).`],
  ];
  for (const [pattern, render] of rules) {
    const match = pattern.exec(text);
    if (match) return render(match);
  }
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `values` without the given top-level keys. */
export function without(values: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  if (keys.length === 0) return values;
  return Object.fromEntries(Object.entries(values).filter(([key]) => !keys.includes(key)));
}

/** What can check a whole form's value: a zod schema. */
interface Checker {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly { path: readonly PropertyKey[] }[] } };
}

/**
 * The value to pass upward after a person edited the field `name`, or null
 * while that field is invalid. Only the edited top-level field changes: a
 * required field not filled in yet elsewhere does not hold this one back,
 * and an invalid value elsewhere is never passed on.
 */
export function nextFormValue(
  previous: Record<string, unknown>,
  values: Record<string, unknown>,
  name: string | undefined,
  fields: readonly FieldDescriptor[],
  leftOut: readonly string[],
  schema: Checker,
): Record<string, unknown> | null {
  const cleaned = cleanValues(fields, without(values, leftOut));
  const result = schema.safeParse(cleaned);
  const key = name?.split(".")[0];
  if (!key) return result.success ? cleaned : null;
  if (!result.success && result.error.issues.some((issue) => String(issue.path[0]) === key)) return null;
  const next = { ...previous };
  if (cleaned[key] === undefined) delete next[key];
  else next[key] = cleaned[key];
  return next;
}
