/**
 * Makes every character a person could not see, or that changes the order in
 * which they read, visible as a marked token: `⟨U+202E⟩`, `⟨2000 spaces⟩`.
 * The browser's approval card, the run view, the Arguments list and the
 * terminal prompt all mark text through this one function, so what a person
 * reads is what runs, in the order it runs (Trojan Source, CVE-2021-42574).
 */

/** Why a character was marked: `bidi` reorders what is read; the others hide. */
export type MarkReason = "bidi" | "invisible" | "control" | "blank-run";

export type VisibleSegment = { kind: "text"; text: string } | { kind: "mark"; text: string; reason: MarkReason };

export interface VisibleText {
  /** The text in logical order, hidden characters replaced by marks. */
  segments: VisibleSegment[];
  /** A direction-changing character is present. */
  hasBidi: boolean;
  /** Anything was marked (bidi, invisible, control, or a long run of blanks). */
  hasHidden: boolean;
}

export interface VisibleTextOptions {
  /** Runs of spaces and tabs longer than this show their length instead. Default 8. */
  blankRun?: number;
  /**
   * Runs of blanks holding more line breaks than this (line feeds and carriage
   * returns) show their length instead, so thousands of empty lines cannot push
   * the rest of a command out of view. Default 4.
   */
  lineBreakRun?: number;
  /** Line feeds stay line breaks (commands, file lines) rather than marks. Default true. */
  keepLineFeeds?: boolean;
  /** Tabs stay tabs (file content) rather than marks. Default false. */
  keepTabs?: boolean;
}

/** Explicit embeddings, overrides and isolates, and the implicit marks: each can reorder what a person reads. */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;

/**
 * Everything else that prints nothing: C0 and C1 controls, format characters
 * (zero-width, soft hyphen, tags), line and paragraph separators, private-use,
 * unassigned code points, lone surrogates, variation selectors, every space
 * other than the plain one, and letters that render blank (Hangul fillers,
 * the blank Braille pattern).
 */
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}\uFE00-\uFE0F\u115F\u1160\u3164\uFFA0\u2800\u{E0100}-\u{E01EF}]|(?! )\p{Zs}/u;

const BLANK = /[ \t]/;
const BLANK_OR_BREAK = /[ \t\r\n]/;
const BLANK_OR_CARRIAGE_RETURN = /[ \t\r]/;
const LINE_END = /[\r\n]/;

/** The mark for one code point: `⟨U+202E⟩`. */
export function codePointMark(character: string): string {
  const hex = character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `⟨U+${hex}⟩`;
}

const BLANK_NOUNS: [character: string, noun: string][] = [
  [" ", "spaces"],
  ["\t", "tabs"],
  ["\n", "line breaks"],
  ["\r", "carriage returns"],
];

/** `⟨2000 spaces⟩`, `⟨9 tabs⟩`, `⟨10 blanks⟩`, `⟨2000 line breaks⟩`, `⟨4000 blanks: 2000 line breaks, 2000 carriage returns⟩`. */
function blankRunMark(run: string): string {
  const characters = [...run];
  const counts = BLANK_NOUNS.map(([character, noun]) => ({ noun, count: characters.filter((each) => each === character).length })).filter(({ count }) => count > 0);
  if (counts.length === 1) return `⟨${run.length} ${counts[0]!.noun}⟩`;
  if (!LINE_END.test(run)) return `⟨${run.length} blanks⟩`;
  return `⟨${run.length} blanks: ${counts.map(({ noun, count }) => `${count} ${noun}`).join(", ")}⟩`;
}

/**
 * Splits `text` into plain pieces and marks, in logical order.
 *
 * @example
 *   markHiddenCharacters("echo hi \u202E#").segments
 *   // [{ kind: "text", text: "echo hi " }, { kind: "mark", text: "⟨U+202E⟩", reason: "bidi" }, { kind: "text", text: "#" }]
 */
export function markHiddenCharacters(text: string, options: VisibleTextOptions = {}): VisibleText {
  const blankRun = options.blankRun ?? 8;
  const keepLineFeeds = options.keepLineFeeds ?? true;
  const keepTabs = options.keepTabs ?? false;
  const lineBreakRun = options.lineBreakRun ?? 4;
  const segments: VisibleSegment[] = [];
  let plain = "";
  let hasBidi = false;
  const flush = () => {
    if (plain !== "") segments.push({ kind: "text", text: plain });
    plain = "";
  };
  const mark = (markText: string, reason: MarkReason) => {
    flush();
    segments.push({ kind: "mark", text: markText, reason });
  };
  // Spaces and tabs between line breaks: a long stretch shows its length, a tab its code point unless kept;
  // a line feed stays a break, a carriage return (it can overwrite a terminal line) is always marked.
  const markBlanksWithinLines = (run: string[]) => {
    for (let index = 0; index < run.length; index++) {
      const character = run[index]!;
      if (character === "\n") {
        plain += character;
      } else if (character === "\r") {
        mark(codePointMark(character), "control");
      } else {
        let end = index;
        while (end < run.length && BLANK.test(run[end]!)) end++;
        const blanks = run.slice(index, end).join("");
        if (blanks.length > blankRun) mark(blankRunMark(blanks), "blank-run");
        else {
          for (const each of blanks) {
            if (each === "\t" && !keepTabs) mark(codePointMark(each), "control");
            else plain += each;
          }
        }
        index = end - 1;
      }
    }
  };

  // A run of blanks may span lines: marked whole when it holds many line breaks, else piece by piece.
  const inRun = (character: string) => (keepLineFeeds ? BLANK_OR_BREAK : BLANK_OR_CARRIAGE_RETURN).test(character);
  const characters = [...text];
  for (let index = 0; index < characters.length; index++) {
    const character = characters[index]!;
    if (inRun(character)) {
      let end = index;
      while (end < characters.length && inRun(characters[end]!)) end++;
      const run = characters.slice(index, end);
      const lineBreaks = run.filter((each) => LINE_END.test(each)).length;
      if (lineBreaks > lineBreakRun) mark(blankRunMark(run.join("")), "blank-run");
      else markBlanksWithinLines(run);
      index = end - 1;
    } else if (BIDI.test(character)) {
      hasBidi = true;
      mark(codePointMark(character), "bidi");
    } else if (INVISIBLE.test(character)) {
      mark(codePointMark(character), /\p{Cc}/u.test(character) ? "control" : "invisible");
    } else {
      plain += character;
    }
  }
  flush();
  return { segments, hasBidi, hasHidden: segments.some((segment) => segment.kind === "mark") };
}

/**
 * The marked text as one string, for a terminal or a log line.
 *
 * @example
 *   toVisibleString("a\u001b[2Kb") // "a⟨U+001B⟩[2Kb"
 */
export function toVisibleString(text: string, options?: VisibleTextOptions): string {
  return markHiddenCharacters(text, options)
    .segments.map((segment) => segment.text)
    .join("");
}

/** Whether `text` holds a direction-changing character: the guardrail refuses such commands. */
export function hasBidiControl(text: string): boolean {
  return BIDI.test(text);
}

/** Whether anything in `text` would be marked. */
export function hasHiddenCharacters(text: string, options?: VisibleTextOptions): boolean {
  return markHiddenCharacters(text, options).hasHidden;
}
