/** Caps that keep one tool result small enough to send to a model every turn. */
export const MAX_RESULT_CHARACTERS = 30_000;

/**
 * `text` cut to `limit` characters, keeping the head and the tail (where
 * errors and summaries usually are) and saying how much was left out.
 */
export function truncateMiddle(text: string, limit = MAX_RESULT_CHARACTERS): string {
  if (text.length <= limit) return text;
  const keep = Math.floor((limit - 80) / 2);
  const omitted = text.length - keep * 2;
  return `${text.slice(0, keep)}\n… [${omitted} characters omitted] …\n${text.slice(text.length - keep)}`;
}
