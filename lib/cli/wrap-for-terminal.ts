/** Marks the start of a continued line, so a wrapped command is not read as two. */
export const CONTINUATION = "  ↪ ";

/**
 * Breaks every line longer than `width` into pieces that fit, each piece
 * after the first marked as a continuation: nothing that will run sits past
 * the right edge, whatever the terminal does with long lines.
 *
 * @example
 *   wrapForTerminal("abcdefgh", 6) // "abcdef\n  ↪ gh"
 */
export function wrapForTerminal(text: string, width: number): string {
  const usable = Math.max(20, Math.floor(width));
  return text
    .split("\n")
    .flatMap((line) => {
      const characters = [...line];
      if (characters.length <= usable) return [line];
      const pieces = [characters.slice(0, usable).join("")];
      const rest = usable - CONTINUATION.length;
      for (let start = usable; start < characters.length; start += rest) pieces.push(CONTINUATION + characters.slice(start, start + rest).join(""));
      return pieces;
    })
    .join("\n");
}
