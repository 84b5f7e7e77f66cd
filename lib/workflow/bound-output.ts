/**
 * One cap for what a step stores: its text, structured data and images
 * together. The engine bounds every step's result here before anything
 * reads or stores it (engine/step-attempt.ts), so the step row, its
 * `node-succeeded` event, the run page and the templates of later steps all
 * see the same stored part, and a run resumed after a restart reads exactly
 * what the live run read. Pure: no I/O, no clock.
 */
import { MAX_STORED_RESULT_BYTES, type OutputTruncation, type StepOutput, type StoredPart } from "@/lib/contracts/run";
import { formatBytes } from "@/lib/format/bytes";
import { truncateMiddle } from "@/lib/tools";

export { MAX_STORED_RESULT_BYTES };


/** Room left under the cap for the description of the cut itself (its lists are capped at MAX_LISTED_PARTS). */
const DESCRIPTION_RESERVE_BYTES = 8_000;
/** Cuts named one by one in the description; the rest are counted (an object of 10,000 long texts would otherwise list 10,000). */
const MAX_LISTED_PARTS = 20;
/** Cuts named in the notice a person reads; the description holds the rest. */
const MAX_NOTICE_PARTS = 4;
/** What the last resort keeps of the text when even the proportional cut does not fit (a pathological shape). */
const LAST_RESORT_CHARACTERS = 20_000;

/**
 * `output` as a step stores it: itself when its JSON is at most `cap` bytes,
 * else a copy within the cap, with `truncated` saying what was cut and the
 * true sizes and counts. Lists keep their leading items (the first rows), long
 * texts their start and end, images are kept whole or not at all; the space
 * goes first to the small parts, kept whole, and the large ones share the rest
 * (an object whose shares would be too small keeps its leading fields whole).
 *
 *   // The SQL tool's 1,000 rows of five 2,000-character columns (each row twice: rows and rowValues):
 *   boundStepOutput(wideQueryResult).truncated?.notice
 *   // "The result was 20.1 MB, over the 1 MB a step stores; stored: 983.0 KB.
 *   //  data.rowValues: the first 49 of 1,000 items. data.rows: the first 49 of 1,000 items."
 */
export function boundStepOutput(output: StepOutput, cap = MAX_STORED_RESULT_BYTES): StepOutput {
  const sizes = new WeakMap<object, number>();
  const totalBytes = measure(output, sizes);
  if (totalBytes <= cap) return output;

  let budget = cap - DESCRIPTION_RESERVE_BYTES;
  let previousSize = Infinity;
  for (let tries = 0; tries < 4 && budget > 0; tries += 1) {
    const cuts: Cuts = { lists: [], texts: [], fields: [] };
    const kept = fit(output, budget, "", cuts, sizes) as StepOutput;
    const truncated = describe(cuts, totalBytes, bytesOf(kept), cap);
    const stored: StepOutput = { ...kept, truncated };
    const size = bytesOf(stored);
    if (size <= cap) return stored;
    // A cut text's notice takes room too, and parts may each be a little over their share: try again with less,
    // while less helps.
    if (size >= previousSize) break;
    previousSize = size;
    budget = Math.floor((budget * cap) / size) - DESCRIPTION_RESERVE_BYTES;
  }
  return lastResort(output, totalBytes, cap);
}

/** The bytes of `value` serialized as JSON (UTF-8), as the database and the event stream hold it. */
export function serializedBytes(value: unknown): number {
  return bytesOf(value);
}

interface Cuts {
  lists: StoredPart[];
  texts: StoredPart[];
  fields: StoredPart[];
}

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");

/**
 * `value`'s JSON size in bytes without building the whole text (a 95 MB
 * result would be a 95 MB string), each object's size remembered in `sizes`
 * for the cut that follows. Follows JSON.stringify: `undefined`, functions and
 * symbols are left out of objects and written as null in arrays, `toJSON` is used.
 */
function measure(value: unknown, sizes: WeakMap<object, number>): number {
  if (value === null) return 4;
  switch (typeof value) {
    case "string":
      // Most texts are plain ASCII with nothing to escape: their JSON is the text and two quotes, and a native
      // scan says so without copying it (a 200 MB result is 100,000 such texts).
      return NEEDS_ESCAPE_OR_MULTIBYTE.test(value) ? bytesOf(value) : value.length + 2;
    case "number":
      return Number.isFinite(value) ? String(value).length : 4;
    case "boolean":
      return value ? 4 : 5;
    case "bigint":
      return String(value).length;
    case "undefined":
    case "function":
    case "symbol":
      return 0;
  }
  const object = value as object;
  const known = sizes.get(object);
  if (known !== undefined) return known;
  let size: number;
  if (typeof (object as { toJSON?: unknown }).toJSON === "function") {
    size = bytesOf(object);
  } else if (Array.isArray(object)) {
    size = 2 + Math.max(0, object.length - 1);
    for (const item of object) size += isLeftOut(item) ? 4 : measure(item, sizes);
  } else {
    const entries = Object.entries(object).filter(([, item]) => !isLeftOut(item));
    size = 2 + Math.max(0, entries.length - 1);
    for (const [key, item] of entries) size += bytesOf(key) + 1 + measure(item, sizes);
  }
  sizes.set(object, size);
  return size;
}

/** A character JSON escapes (a quote, a backslash, a control character) or UTF-8 writes in more than one byte. */
const NEEDS_ESCAPE_OR_MULTIBYTE = /["\\\u0000-\u001f\u0080-\uffff]/;

const isLeftOut = (value: unknown): boolean => value === undefined || typeof value === "function" || typeof value === "symbol";

/** The path of a field below `parent`, as templates write it: `data.rows`, `data.rows[0].name`. */
const fieldPath = (parent: string, key: string | number): string => (typeof key === "number" ? `${parent}[${key}]` : parent === "" ? key : `${parent}.${key}`);

/**
 * `value` within `budget` bytes (as near as its shape allows), the cuts
 * recorded in `cuts`: a text loses its middle, a list its trailing items, an
 * object shares the budget among its fields, smallest first, each kept whole
 * when it fits in its share.
 */
function fit(value: unknown, budget: number, path: string, cuts: Cuts, sizes: WeakMap<object, number>): unknown {
  const size = measure(value, sizes);
  if (size <= budget) return value;
  if (typeof value === "string") return fitText(value, size, budget, path, cuts);
  if (value === null || typeof value !== "object" || typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  if (Array.isArray(value)) return fitList(value, budget, path, cuts, sizes);

  return fitObject(value as Record<string, unknown>, budget, path, cuts, sizes);
}

/**
 * An object within `budget`: its fields share the room, smallest first, each
 * kept whole when it fits in its share, so a small field (a count, the
 * columns) is never cut for a large one. When the shares are too small to hold
 * even a cut (thousands of long fields, a map of records by id), its leading
 * fields are kept whole instead, as a list keeps its leading items.
 */
function fitObject(object: Record<string, unknown>, budget: number, path: string, cuts: Cuts, sizes: WeakMap<object, number>): Record<string, unknown> {
  const entries = Object.entries(object).filter(([, item]) => !isLeftOut(item));
  const keyBytes = entries.map(([key]) => bytesOf(key) + 1);
  let left = budget - 2 - Math.max(0, entries.length - 1) - keyBytes.reduce((sum, bytes) => sum + bytes, 0);
  const bySize = entries.map(([key, item]) => ({ key, item, size: measure(item, sizes) })).sort((a, b) => a.size - b.size);
  const shared = new Map<string, unknown>();
  const sharedCuts: Cuts = { lists: [], texts: [], fields: [] };
  bySize.forEach((entry, index) => {
    const share = Math.max(0, Math.floor(left / (bySize.length - index)));
    const fitted = entry.size <= share ? entry.item : fit(entry.item, share, fieldPath(path, entry.key), sharedCuts, sizes);
    left -= entry.size <= share ? entry.size : measure(fitted, sizes);
    shared.set(entry.key, fitted);
  });
  // The step's own fields (content, data, images, route) are never dropped: a router's route must survive.
  if (left >= 0 || path === "") {
    cuts.lists.push(...sharedCuts.lists);
    cuts.texts.push(...sharedCuts.texts);
    cuts.fields.push(...sharedCuts.fields);
    // The fields in their own order, as the step gave them.
    return Object.fromEntries(entries.map(([key]) => [key, shared.get(key)]));
  }

  const kept: [string, unknown][] = [];
  let used = 2;
  for (const [index, [key, item]] of entries.entries()) {
    const next = used + keyBytes[index]! + measure(item, sizes) + (kept.length > 0 ? 1 : 0);
    if (next > budget) break;
    kept.push([key, item]);
    used = next;
  }
  if (kept.length === 0 && entries.length > 0) {
    const [key, item] = entries[0]!;
    kept.push([key, fit(item, budget - 2 - keyBytes[0]!, fieldPath(path, key), cuts, sizes)]);
  }
  cuts.fields.push({ path, total: entries.length, stored: kept.length });
  return Object.fromEntries(kept);
}

/**
 * A list's leading items that fit (the first rows). Images are kept whole or
 * not at all: half an image is no image. When not even the first item fits, it
 * is kept cut, so a list of one huge record still shows its start.
 */
function fitList(list: readonly unknown[], budget: number, path: string, cuts: Cuts, sizes: WeakMap<object, number>): unknown[] {
  const kept: unknown[] = [];
  let used = 2;
  for (const item of list) {
    const itemSize = isLeftOut(item) ? 4 : measure(item, sizes);
    const next = used + itemSize + (kept.length > 0 ? 1 : 0);
    if (next > budget) break;
    kept.push(item);
    used = next;
  }
  if (kept.length === 0 && list.length > 0 && path !== "images") kept.push(fit(list[0], budget - 2, fieldPath(path, 0), cuts, sizes));
  cuts.lists.push({ path, total: list.length, stored: kept.length });
  return kept;
}

/** A text's start and end within `budget` bytes, its middle replaced by truncateMiddle's notice of how much was left out. */
function fitText(text: string, size: number, budget: number, path: string, cuts: Cuts): string {
  let limit = Math.floor((text.length * budget) / size);
  let cut = truncateMiddle(text, limit);
  // Escapes and multi-byte characters make bytes and characters differ: shrink until it fits, or nothing of the text is left.
  for (let cutBytes = bytesOf(cut); cutBytes > budget && limit > 80; cutBytes = bytesOf(cut)) {
    limit = Math.min(limit - 1, Math.floor((limit * budget) / cutBytes));
    cut = truncateMiddle(text, limit);
  }
  cuts.texts.push({ path, total: text.length, stored: Math.min(text.length, keptByTruncateMiddle(limit)) });
  return cut;
}

/** Counts grouped as people read them, as lib/tools/builtin/shared/limits.ts writes them: 1,000. */
const count = (value: number): string => value.toLocaleString("en-US");

const capWords = (cap: number): string => (cap % 1_000_000 === 0 ? `${cap / 1_000_000} MB` : formatBytes(cap));

function describe(cuts: Cuts, totalBytes: number, storedBytes: number, cap: number): OutputTruncation {
  const all = cuts.lists.length + cuts.texts.length + cuts.fields.length;
  const lists = cuts.lists.slice(0, MAX_LISTED_PARTS);
  const fields = cuts.fields.slice(0, Math.max(0, MAX_LISTED_PARTS - lists.length));
  const texts = cuts.texts.slice(0, Math.max(0, MAX_LISTED_PARTS - lists.length - fields.length));
  const parts = [
    ...cuts.lists.map((part) => `${part.path}: the first ${count(part.stored)} of ${count(part.total)} ${part.total === 1 ? "item" : "items"}`),
    ...cuts.fields.map((part) => `${part.path || "the result"}: the first ${count(part.stored)} of ${count(part.total)} fields`),
    ...cuts.texts.map((part) => `${part.path}: ${count(part.stored)} of ${count(part.total)} characters (its middle left out)`),
  ];
  const named = parts.slice(0, MAX_NOTICE_PARTS).join(". ");
  const more = parts.length > MAX_NOTICE_PARTS ? ` And ${count(parts.length - MAX_NOTICE_PARTS)} more cut.` : "";
  return {
    totalBytes,
    storedBytes,
    lists,
    fields,
    texts,
    unlisted: all - lists.length - fields.length - texts.length,
    notice: `The result was ${formatBytes(totalBytes)}, over the ${capWords(cap)} a step stores; stored: ${formatBytes(storedBytes)}.${named ? ` ${named}.` : ""}${more}`,
  };
}

/** A shape the shared cut cannot bring under the cap (thousands of fields each with a long text): its text alone, and a notice saying so. */
function lastResort(output: StepOutput, totalBytes: number, cap: number): StepOutput {
  const content = truncateMiddle(output.content, LAST_RESORT_CHARACTERS);
  const kept: StepOutput = { content, ...(output.route !== undefined ? { route: output.route } : {}) };
  const texts = content.length < output.content.length ? [{ path: "content", total: output.content.length, stored: keptByTruncateMiddle(LAST_RESORT_CHARACTERS) }] : [];
  const truncated = describe({ lists: [], texts, fields: [] }, totalBytes, bytesOf(kept), cap);
  truncated.notice += " Its data and images were not stored: too many large parts to keep a share of each.";
  return { ...kept, truncated };
}

/** The characters of the whole text truncateMiddle keeps at `limit`: its head and its tail, room left for its notice. */
const keptByTruncateMiddle = (limit: number): number => 2 * Math.max(0, Math.floor((limit - 80) / 2));
