import { decodeListCursor, type SortDirection } from "@/lib/contracts/list-page";
import type { StudioDatabase } from "./database";

/**
 * The parts of a paged list's query that runs and workflows share: where a
 * page starts (keyset), its order, and the workflows whose names hold the
 * search text.
 */

/**
 * Rows after the cursor in the list's order: a key past the cursor's, or the
 * same key and an id past its id (the id breaks ties, so no row is skipped
 * or repeated however many share a time). An empty filter without a cursor.
 */
export function afterCursor(field: string, cursorText: string | undefined): Record<string, unknown> {
  const cursor = cursorText === undefined ? null : decodeListCursor(cursorText);
  if (cursor === null) return {};
  const past = cursor.direction === "desc" ? "lt" : "gt";
  const key = typeof cursor.value === "number" ? new Date(cursor.value) : cursor.value;
  return { OR: [{ [field]: { [past]: key } }, { [field]: key, id: { [past]: cursor.id } }] };
}

/** The list's order: the sort field, then the id, both the same way. */
export function listOrder<Field extends string>(field: Field, direction: SortDirection): [Record<Field, SortDirection>, { id: SortDirection }] {
  return [{ [field]: direction } as Record<Field, SortDirection>, { id: direction }];
}

/** `text` as a LIKE pattern matching names that contain it: `%`, `_` and the escape character itself are taken literally. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * The ids of the workflows whose names contain `text`, case aside. Raw SQL
 * because Prisma's `contains` passes `%` and `_` on as wildcards and SQLite's
 * LIKE knows no escape character unless told (ESCAPE). Names are short and
 * the workflows a few thousand: one scan of the table.
 */
export async function workflowIdsNamed(text: string, database: StudioDatabase): Promise<string[]> {
  const rows = await database.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Workflow" WHERE lower("name") LIKE ${containsPattern(text)} ESCAPE '\\'`;
  return rows.map((row) => row.id);
}

/** The page's rows (one more than the page was read to learn whether another follows) and whether one does. */
export function splitPage<Row>(rows: Row[], limit: number): { rows: Row[]; hasMore: boolean } {
  return rows.length > limit ? { rows: rows.slice(0, limit), hasMore: true } : { rows, hasMore: false };
}

/** What a page reads after the cursor: the rows past it in the list's order, one more than the page holds. */
export function pageWindow<Where, Sort extends string>(
  where: Where,
  query: { sort: Sort; direction: SortDirection; cursor?: string; limit: number },
): { where: { AND: Where[] }; orderBy: [Record<Sort, SortDirection>, { id: SortDirection }]; take: number } {
  return { where: { AND: [where, afterCursor(query.sort, query.cursor) as Where] }, orderBy: listOrder(query.sort, query.direction), take: query.limit + 1 };
}

/** How many rows match in all and the page read past the cursor (by `pageWindow`), split into its rows and whether more follow. */
export async function countedPage<Row>(total: Promise<number>, found: Promise<Row[]>, limit: number): Promise<{ total: number; rows: Row[]; hasMore: boolean }> {
  const [count, read] = await Promise.all([total, found]);
  return { total: count, ...splitPage(read, limit) };
}
