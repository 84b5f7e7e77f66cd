/**
 * Completing a template as it is typed: the `{{ …` open at the caret, and the
 * text once a field's expression is chosen for it. Pure, for the template
 * fields' combobox and its tests.
 */

/** The template being typed at the caret: where its `{{` is and what follows it; null when the caret is in no open template. */
export function openTemplateAt(text: string, caret: number): { start: number; typed: string } | null {
  const before = text.slice(0, caret);
  const start = before.lastIndexOf("{{");
  if (start < 0) return null;
  const typed = before.slice(start + 2);
  // A brace between the `{{` and the caret means that template was closed (or is not one).
  if (/[{}]/.test(typed)) return null;
  return { start, typed: typed.trim() };
}

/**
 * `text` with the template opened at `start` replaced by `{{ expression }}`
 * (a closing `}}` already after the caret is taken in), and the caret after it.
 */
export function completeTemplate(text: string, caret: number, start: number, expression: string): { text: string; caret: number } {
  const after = text.slice(caret);
  const closing = /^[^{}]*?\}\}/.exec(after);
  const rest = closing ? after.slice(closing[0].length) : after;
  const template = `{{ ${expression} }}`;
  return { text: text.slice(0, start) + template + rest, caret: start + template.length };
}
