import { splitPath, valueAtPath } from "@/lib/workflow/templates";
import { REQUEST_PARTS, type WebhookMapping } from "./definition";

/**
 * A delivery as the workflow sees it: the webhook node's result, and what its
 * mapping reads the run's inputs from. Headers are lower-case and only those
 * the node keeps (plus what the mapping reads), so a credential that came
 * with the request does not travel on into steps, events or models.
 */
export interface CapturedRequest {
  method: string;
  /** What followed /hooks/. */
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  /** Parsed JSON, form fields as an object, or the text; null when empty. */
  body: unknown;
}

export type RequestPart = (typeof REQUEST_PARTS)[number];

/** Where a mapping reads: a part of the request and a path inside it. */
export interface RequestSource {
  part: RequestPart;
  path: (string | number)[];
}

/** Parses a mapping's `from` (`body.user.name`, `query.page`, `headers.x-github-event`, `method`, `body`); a problem names what is wrong. */
export function parseRequestSource(from: string): RequestSource | { problem: string } {
  const split = splitPath(from.trim());
  if ("badPart" in split) return { problem: `"${split.badPart}" is not a name; use letters, digits, _, - and [index], e.g. body.items[0].id` };
  const [head, ...path] = split.path;
  if (!REQUEST_PARTS.includes(head as RequestPart)) {
    return { problem: `starts with ${REQUEST_PARTS.join(", ")}; e.g. body.name, query.page or headers.x-github-event` };
  }
  const part = head as RequestPart;
  if (part === "method" && path.length > 0) return { problem: "method is the request's method; nothing follows it" };
  if ((part === "headers" || part === "query") && (path.length !== 1 || typeof path[0] !== "string")) {
    return { problem: `${part} is followed by one name, e.g. ${part === "headers" ? "headers.x-github-event" : "query.page"}` };
  }
  return { part, path: part === "headers" ? [String(path[0]).toLowerCase()] : path };
}

/** The header names a mapping reads (lower-case): kept for the mapping even when the node does not keep them in its result. */
export function headersReadBy(mapping: readonly WebhookMapping[]): string[] {
  return mapping.flatMap((entry) => {
    const source = parseRequestSource(entry.from);
    return "part" in source && source.part === "headers" ? [String(source.path[0])] : [];
  });
}

/**
 * The run's inputs a delivery fills: each mapping's value, where the request
 * has one. What the request lacks is left out, so the run's input rules
 * (required, default, type) decide, as for any run.
 */
export function inputsFromRequest(request: CapturedRequest, mapping: readonly WebhookMapping[]): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const entry of mapping) {
    const source = parseRequestSource(entry.from);
    if (!("part" in source)) continue;
    const value = source.part === "method" ? request.method : valueAtPath(request[source.part], source.path);
    if (value !== undefined && value !== null) inputs[entry.input] = value;
  }
  return inputs;
}

/**
 * The mapping's `from` for a value found at `path` inside a part of a
 * captured request (`body` + ["user", "name"] → `body.user.name`, indexes as
 * `[0]`), or null when a mapping cannot name it (a key with spaces or dots,
 * a nested query value).
 */
export function sourceFor(part: RequestPart, path: readonly (string | number)[]): string | null {
  let text: string = part;
  for (const key of path) text += typeof key === "number" ? `[${key}]` : `.${key}`;
  const parsed = parseRequestSource(text);
  if (!("part" in parsed) || parsed.part !== part) return null;
  const expected = part === "headers" ? path.map((key) => (typeof key === "string" ? key.toLowerCase() : key)) : path;
  return parsed.path.length === expected.length && parsed.path.every((key, index) => key === expected[index]) ? text : null;
}

/** The mapping with `input` filled from `from`: an entry for that input is replaced (one per input), else one is added. */
export function withMapping(mapping: readonly WebhookMapping[], entry: WebhookMapping): WebhookMapping[] {
  return mapping.some((each) => each.input === entry.input) ? mapping.map((each) => (each.input === entry.input ? entry : each)) : [...mapping, entry];
}
