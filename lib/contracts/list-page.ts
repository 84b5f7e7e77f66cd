import { z } from "zod";

/**
 * What every paged list shares (runs: run-list.ts, workflows: workflow-list.ts):
 * a page size, an opaque cursor, a sort direction, search text, and the page
 * an answer carries. Lists are paged by keyset: the cursor holds the last
 * row's sort key and id, and the next page starts after it, so a page costs
 * the same however deep it is and rows added meanwhile neither repeat nor
 * vanish.
 */

export const LIST_PAGE_SIZE = 50;
export const MAX_LIST_PAGE_SIZE = 200;
export const MAX_SEARCH_LENGTH = 200;

export const SORT_DIRECTIONS = ["desc", "asc"] as const;
export const SortDirectionSchema = z.enum(SORT_DIRECTIONS);
export type SortDirection = z.infer<typeof SortDirectionSchema>;

/** A query parameter sent empty (`?search=` from a cleared box) counts as not sent. */
export const omittedWhenEmpty = <Schema extends z.ZodType>(schema: Schema) => z.preprocess((value) => (value === "" ? undefined : value), schema);

export const ListLimitSchema = omittedWhenEmpty(
  z.coerce.number().int().min(1).max(MAX_LIST_PAGE_SIZE).default(LIST_PAGE_SIZE).describe(`Rows per page, 1 to ${MAX_LIST_PAGE_SIZE}`),
);

/** Text the names must contain, case aside; `%` and `_` are taken literally. */
export const ListSearchSchema = omittedWhenEmpty(z.string().trim().max(MAX_SEARCH_LENGTH).optional().describe("Text the workflow's name contains"));

/** A day (`2026-12-04`, UTC) or a moment (`2026-12-04T10:00:00Z`). */
export const ListDateSchema = omittedWhenEmpty(
  z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: "expected a date (2026-12-04) or a date and time (2026-12-04T10:00:00Z)" }).optional(),
);

/** Where a page starts: after the row with this sort key and id, in this order. */
export interface ListCursor {
  sort: string;
  direction: SortDirection;
  /** The sort key of the last row of the page before: milliseconds for times, the text for names. */
  value: string | number;
  id: string;
}

export const ListCursorTextSchema = omittedWhenEmpty(z.string().max(2_000).regex(/^[A-Za-z0-9_-]+$/, "expected a cursor from a page's nextCursor").optional());

/** The page an answer carries: the cursor of the next one (null on the last) and how many rows match in all. */
export const ListPageSchema = z.object({
  nextCursor: z.string().nullable(),
  total: z.number().int().nonnegative(),
});
export type ListPage = z.infer<typeof ListPageSchema>;

export interface ListResult<Item> {
  items: Item[];
  page: ListPage;
}

/** The cursor as base64url of its JSON (opaque to clients: they pass on nextCursor as they got it). */
export function encodeListCursor(cursor: ListCursor): string {
  const bytes = new TextEncoder().encode(JSON.stringify([cursor.sort, cursor.direction, cursor.value, cursor.id]));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The cursor `text` stands for, or null when it is not one this studio made. */
export function decodeListCursor(text: string): ListCursor | null {
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const parsed: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (character) => character.charCodeAt(0))));
    const shape = z.tuple([z.string(), SortDirectionSchema, z.union([z.string(), z.number().finite()]), z.string().min(1).max(200)]).safeParse(parsed);
    if (!shape.success) return null;
    const [sort, direction, value, id] = shape.data;
    return { sort, direction, value, id };
  } catch {
    return null;
  }
}

/**
 * Checks a query's cursor against its sort: it must decode, and have been
 * made for the same sort and direction with a key of the sort's kind; else
 * an issue on `cursor` (a 422 naming it).
 */
export function checkCursor<Sort extends string>(
  query: { cursor?: string | undefined; sort: Sort; direction: SortDirection },
  keyKinds: Record<Sort, "time" | "text">,
  context: z.RefinementCtx,
): void {
  if (query.cursor === undefined) return;
  const cursor = decodeListCursor(query.cursor);
  const message =
    cursor === null
      ? "is not a cursor this studio made; pass on a page's nextCursor as it is"
      : cursor.sort !== query.sort || cursor.direction !== query.direction
        ? `was made for sort=${cursor.sort}&direction=${cursor.direction}; start again without it after changing the order`
        : typeof cursor.value !== (keyKinds[query.sort] === "time" ? "number" : "string")
          ? "is not a cursor this studio made; pass on a page's nextCursor as it is"
          : null;
  if (message) context.addIssue({ code: "custom", path: ["cursor"], message });
}

/** The cursor of the page after `items` (null when there is none): the last row's key and id. */
export function nextCursorAfter<Item extends { id: string }>(
  items: readonly Item[],
  hasMore: boolean,
  query: { sort: string; direction: SortDirection },
  keyOf: (item: Item) => string | number,
): string | null {
  const last = items.at(-1);
  if (!hasMore || last === undefined) return null;
  return encodeListCursor({ sort: query.sort, direction: query.direction, value: keyOf(last), id: last.id });
}

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * A page's query read from its address with `schema`: a parameter the schema
 * refuses (a cursor from another order, a status that no longer exists) is
 * left out rather than failing the page, and named in `dropped`.
 */
export function readListParams<Schema extends z.ZodType<object>>(schema: Schema, params: SearchParams): { query: z.infer<Schema>; dropped: string[] } {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) values[key] = first;
  }
  const dropped: string[] = [];
  for (;;) {
    const parsed = schema.safeParse(values);
    if (parsed.success) return { query: parsed.data, dropped };
    const names = new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? "")).filter((name) => name in values));
    if (names.size === 0) return { query: schema.parse({}), dropped };
    for (const name of names) {
      delete values[name];
      dropped.push(name);
    }
  }
}

/**
 * A list's query as a query string (`?a=1&b=2`, or "" for none), leaving out
 * what is empty or the same as `defaults`: the page's address and the API's
 * call say the same thing the same way.
 */
export function listQueryString(values: Record<string, string | number | null | undefined>, defaults: Record<string, string | number> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === "" || defaults[key] === value) continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}
