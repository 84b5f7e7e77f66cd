"use client";

import { useCallback, useMemo, useState } from "react";
import type { WorkflowDefinition } from "@/lib/workflow/definition";
import {
  canRedo,
  canUndo,
  commitChange,
  createHistory,
  previewChange,
  redo as redoHistory,
  settleChange,
  undo as undoHistory,
  type History,
} from "@/lib/editor/history";

type Change = (definition: WorkflowDefinition) => WorkflowDefinition;

interface DocumentState {
  history: History<WorkflowDefinition>;
  /** The definition as last saved (or loaded); unsaved changes = the present is another object. */
  saved: WorkflowDefinition;
  version: number;
}

/**
 * The editor's source of truth: the workflow definition with its undo
 * history, the version it was loaded or saved as, and whether it has changed
 * since. Everything on the canvas is derived from `definition`.
 */
export function useEditorDocument(initial: WorkflowDefinition, initialVersion: number) {
  const [state, setState] = useState<DocumentState>(() => ({ history: createHistory(initial), saved: initial, version: initialVersion }));
  /** One undo step; edits with the same `mergeKey` in quick succession are one step. */
  const commit = useCallback((change: Change, mergeKey?: string) => {
    setState((current) => {
      const next = change(current.history.present);
      if (next === current.history.present) return current;
      return { ...current, history: commitChange(current.history, next, { mergeKey, now: Date.now() }) };
    });
  }, []);

  /** A change that is part of a gesture (a drag): shown at once, recorded by `settle`. */
  const preview = useCallback((change: Change) => {
    setState((current) => {
      const next = change(current.history.present);
      return next === current.history.present ? current : { ...current, history: previewChange(current.history, next) };
    });
  }, []);

  const settle = useCallback(() => {
    setState((current) => (current.history.gestureStart === null ? current : { ...current, history: settleChange(current.history) }));
  }, []);

  const undo = useCallback(() => setState((current) => ({ ...current, history: undoHistory(current.history) })), []);
  const redo = useCallback(() => setState((current) => ({ ...current, history: redoHistory(current.history) })), []);

  /** After a save: `definition` (what was sent) is now version `version`. */
  const markSaved = useCallback((definition: WorkflowDefinition, version: number) => {
    setState((current) => ({ ...current, saved: definition, version }));
  }, []);

  /** Replaces everything with a stored definition (after a conflict), dropping the history. */
  const reset = useCallback((definition: WorkflowDefinition, version: number) => {
    setState({ history: createHistory(definition), saved: definition, version });
  }, []);

  const { history, saved, version } = state;
  return useMemo(
    () => ({
      definition: history.present,
      version,
      dirty: history.present !== saved,
      canUndo: canUndo(history),
      canRedo: canRedo(history),
      commit,
      preview,
      settle,
      undo,
      redo,
      markSaved,
      reset,
    }),
    [history, saved, version, commit, preview, settle, undo, redo, markSaved, reset],
  );
}

export type EditorDocument = ReturnType<typeof useEditorDocument>;
