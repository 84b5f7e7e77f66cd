"use client";

import { useEffect, useRef } from "react";
import { autocompletion, completeFromList } from "@codemirror/autocomplete";
import { javascript } from "@codemirror/lang-javascript";
import { setDiagnostics } from "@codemirror/lint";
import { Annotation, Compartment, EditorState, Transaction } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { basicSetup } from "codemirror";
import type { CodeCompletion } from "@/lib/editor/code-completion";

interface CodeEditorProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** The names and fields offered while typing. */
  completions: readonly CodeCompletion[];
  /** A problem to mark at its place (1-based line and column), with its message. */
  marked?: { line: number; column: number; message: string } | null;
  readOnly?: boolean;
  invalid?: boolean;
  describedBy?: string | undefined;
  /** The accessible name, when no <label> points at `id`. */
  label?: string;
}

/**
 * JavaScript in a CodeMirror 6 editor: highlighting, brackets, undo, search, completion of the names the code
 * receives and the sampled upstream fields, and a problem's place underlined. Tab is left to move focus (the
 * editor's accessibility guidance: a keyboard user must be able to leave it); indent with the editor's
 * Mod-] / Mod-[ instead.
 */
export function CodeEditor({ id, value, onChange, completions, marked, readOnly = false, invalid, describedBy, label }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  const compartments = useRef({ completion: new Compartment(), readOnly: new Compartment(), attributes: new Compartment() });

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  // Made once, empty; the text arrives through the effect below, the other props through the compartments, so typing
  // never rebuilds it.
  useEffect(() => {
    const { completion, readOnly: readOnlyCompartment, attributes } = compartments.current;
    const created = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        extensions: [
          basicSetup,
          javascript(),
          completion.of([]),
          readOnlyCompartment.of([]),
          attributes.of([]),
          EDITOR_THEME,
          EditorView.updateListener.of((update) => {
            const typed = update.transactions.some((transaction) => transaction.docChanged && !transaction.annotation(FROM_OUTSIDE));
            if (typed) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
  }, []);

  // The first value, and a value changed from outside (the studio's undo, another panel), replaces the text; not as a
  // step of the editor's own undo history, which holds the person's typing only.
  useEffect(() => {
    const current = view.current;
    if (current && current.state.doc.toString() !== value) current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value }, annotations: [FROM_OUTSIDE.of(true), Transaction.addToHistory.of(false)] });
  }, [value]);

  useEffect(() => {
    const { completion, readOnly: readOnlyCompartment, attributes } = compartments.current;
    view.current?.dispatch({
      effects: [
        completion.reconfigure(autocompletion({ override: [completeFromList(completions.map((each) => ({ label: each.label, detail: each.detail, type: each.type })))] })),
        readOnlyCompartment.reconfigure([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
        attributes.reconfigure(
          EditorView.contentAttributes.of({
            id,
            // Focusable in its own right (axe's scrollable-region-focusable), and reached by Tab like any field.
            tabindex: "0",
            "aria-multiline": "true",
            ...(label ? { "aria-label": label } : {}),
            ...(invalid ? { "aria-invalid": "true" } : {}),
            ...(describedBy ? { "aria-describedby": describedBy } : {}),
          }),
        ),
      ],
    });
  }, [completions, readOnly, id, label, invalid, describedBy]);

  useEffect(() => {
    const current = view.current;
    if (!current) return;
    const diagnostics = marked ? [diagnosticAt(current.state, marked)] : [];
    current.dispatch(setDiagnostics(current.state, diagnostics));
  }, [marked, value]);

  return <div ref={host} data-testid={`${id}-editor`} className={`overflow-hidden rounded-md border ${invalid ? "border-danger" : "border-line-control"}`} />;
}

/** Marks a change the props made, which is not the person's typing and is not handed back to `onChange`. */
const FROM_OUTSIDE = Annotation.define<boolean>();

function diagnosticAt(state: EditorState, marked: { line: number; column: number; message: string }) {
  const line = state.doc.line(Math.min(Math.max(marked.line, 1), state.doc.lines));
  const from = Math.min(line.from + Math.max(marked.column - 1, 0), line.to);
  // Underline at least one character, or the rest of an empty line's place.
  const to = Math.min(from + 1, state.doc.length);
  return { from, to: Math.max(to, from), severity: "error" as const, message: marked.message };
}

const EDITOR_THEME = EditorView.theme({
  "&": { fontSize: "12px", backgroundColor: "var(--surface)", color: "var(--foreground)", maxHeight: "24rem" },
  ".cm-scroller": { fontFamily: "var(--font-mono, ui-monospace, SFMono-Regular, Menlo, monospace)", minHeight: "8rem" },
  ".cm-gutters": { backgroundColor: "var(--surface-sunken)", color: "var(--muted)", borderRight: "1px solid var(--line)" },
  "&.cm-focused": { outline: "2px solid var(--focus)", outlineOffset: "1px" },
  ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--accent-soft) 60%, transparent)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--accent-soft)" },
  ".cm-tooltip": { backgroundColor: "var(--surface)", border: "1px solid var(--line-strong)", color: "var(--foreground)" },
});
