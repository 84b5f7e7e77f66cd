/** Caps that keep one tool result small enough to send to a model every turn. */
export const MAX_RESULT_CHARACTERS = 30_000;

/**
 * Text that may already have lost its middle (a stream kept bounded while it
 * arrived, `OutputBuffer`): its first and last parts, and how many characters
 * the whole had. Cutting it again must count from the whole, never from what
 * was kept: a notice that says "170,614 omitted" when 5.2 million were is a lie.
 */
export interface KeptText {
  head: string;
  tail: string;
  /** Characters of the whole: `head` + what was dropped + `tail`. */
  total: number;
}

export const keptLength = (text: string | KeptText): number => (typeof text === "string" ? text.length : text.head.length + text.tail.length);

const omissionNotice = (omitted: number) => `\n… [${omitted.toLocaleString("en-US")} characters omitted] …\n`;

/**
 * `text` cut to about `limit` characters, keeping the head and the tail (where
 * errors and summaries usually are) and saying how much of the whole was left
 * out, including what was dropped before (a `KeptText`).
 */
export function truncateMiddle(text: string | KeptText, limit = MAX_RESULT_CHARACTERS): string {
  const kept = typeof text === "string" ? { head: text, tail: "", total: text.length } : text;
  const whole = kept.head.length + kept.tail.length === kept.total;
  if (whole) {
    const joined = kept.head + kept.tail;
    if (joined.length <= limit) return joined;
    const keep = Math.max(0, Math.floor((limit - 80) / 2));
    return `${joined.slice(0, keep)}${omissionNotice(joined.length - keep * 2)}${joined.slice(joined.length - keep)}`;
  }
  const half = Math.max(0, Math.floor((limit - 80) / 2));
  const head = kept.head.length + kept.tail.length <= limit ? kept.head : kept.head.slice(0, half);
  const tail = kept.head.length + kept.tail.length <= limit ? kept.tail : kept.tail.slice(Math.max(0, kept.tail.length - half));
  return `${head}${omissionNotice(kept.total - head.length - tail.length)}${tail}`;
}
