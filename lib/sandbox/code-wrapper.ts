/**
 * The author writes a function BODY (`return inputs.a + 1`); QuickJS compiles
 * `(async function (inputs, nodes) { <body>\n})`. The header shares the body's first line, so QuickJS's line numbers
 * are the author's and only columns on line 1 are shifted, by the header's length; `authorPosition` undoes that.
 *
 * Async, as n8n's Code node is, so `await` works in the body; a returned Promise or thenable is awaited either way.
 * Sloppy mode, as there: code written for n8n (an assignment to an undeclared name) behaves the same.
 *
 * A body that closes the function early (`}); other code; (function () {`) only moves where its own code runs
 * inside the VM: it gains nothing there, since the harness keeps what it needs out of the author's reach.
 */

/** QuickJS's name for the author's code in stack frames and syntax errors (`at code:3:7`). */
export const CODE_FILE_NAME = "code";

export interface WrappedCode {
  source: string;
  /** Characters before the author's first line: subtracted from columns on line 1. */
  headerLength: number;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Names a parameter of a sloppy function cannot have, or should not (they would hide what the code expects). */
const RESERVED = new Set(
  (
    "await break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package " +
    "private protected public arguments eval undefined NaN Infinity globalThis"
  ).split(" "),
);

/** Throws when `name` cannot be a parameter: the scope's keys come from the studio, so this is its mistake. */
export function checkParameterName(name: string): void {
  if (!IDENTIFIER.test(name) || RESERVED.has(name)) throw new TypeError(`sandbox scope key ${JSON.stringify(name)} is not a usable JavaScript identifier`);
}

export function wrapCode(code: string, parameterNames: readonly string[]): WrappedCode {
  const header = `(async function (${parameterNames.join(", ")}) { `;
  return { source: `${header}${code}\n})`, headerLength: header.length };
}

/**
 * QuickJS's 1-based line and column in the wrapped source, as a place in the author's code. Past the author's last
 * line (an unclosed brace is reported at the wrapper's closing `})`) it is the end of the author's code.
 */
export function authorPosition(code: string, wrapped: WrappedCode, line: number, column: number): { line: number; column: number } {
  const lines = code.split("\n");
  if (line > lines.length) return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
  if (line === 1) return { line, column: Math.max(1, column - wrapped.headerLength) };
  return { line: Math.max(1, line), column: Math.max(1, column) };
}
