"use client";

import Link from "next/link";
import { memo, useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { workflowStatus, type ProblemCounts } from "@/lib/editor/workflow-status";
import { MoreCommands } from "./more-commands";

interface EditorToolbarProps {
  name: string;
  version: number;
  dirty: boolean;
  saving: boolean;
  /** The last check's errors and warnings (warnings do not stop a run, but the cards show them, so the status line counts them too). */
  problems: ProblemCounts;
  canUndo: boolean;
  canRedo: boolean;
  running: boolean;
  /** Resolves with the saved version, or null when it could not be saved (a dialog then says why and takes focus). */
  onSave: () => Promise<number | null>;
  onVersions: () => void;
  /** Opens who else may see the workflow; absent when the person may not change that. */
  onShare?: () => void;
  onAutoLayout: () => void;
  onFitView: () => void;
  /** Opens the list of every node, to bring one into view and focus (cards out of view are not in the Tab order). */
  onGoToNode: () => void;
  /** Opens "Describe what it should do": the Architect drafts from a goal, shown as a proposal (absent read-only). */
  onDescribe?: () => void;
  onUndo: () => void;
  onRedo: () => void;
  onRun: () => void;
  /** The version the workflow's triggers start; null while unpublished. */
  publishedVersion: number | null;
  /** Whether the draft has trigger nodes (webhooks): publishing is offered then, or while something is live. */
  hasTriggers: boolean;
  publishing: boolean;
  onPublish: () => void;
  onUnpublish: () => void;
  /** Shown, not changed (the person lacks workflow:edit on it): no undo, layout, versions to restore, save or publish. */
  readOnly?: boolean;
  /** Whether the person may start runs of it (workflow:run). */
  mayRun?: boolean;
  /** Whether the person may publish and unpublish it (workflow:publish): without it the live version is shown, no button. */
  mayPublish?: boolean;
  /** Its Activity page (runs, failures, duration and cost per day). */
  activityHref: string;
}

const SHORTCUT = "Ctrl/⌘+";

/** The editor's header: which workflow and version, whether it is saved, and its commands. */
export const EditorToolbar = memo(function EditorToolbar(props: EditorToolbarProps) {
  const { name, version, dirty, saving } = props;
  // A read-only view is not checked (checking is for those who change it): it claims no state.
  const status = props.readOnly ? null : workflowStatus(props.problems);
  const savedState = useRef<HTMLSpanElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Saving disables the Save button, which would drop keyboard focus on the page's body: it goes to the saved state instead.
  const saveFromButton = () => {
    void props.onSave().then((saved) => {
      if (saved !== null) savedState.current?.focus();
    });
  };
  // Opened from New workflow (whose dialog and button are gone) focus would be on the page's body: it starts on the
  // workflow's name instead, which a screen reader reads out, with the toolbar and the canvas next in the Tab order.
  useEffect(() => {
    const focused = document.activeElement;
    if (!focused || focused === document.body || !focused.isConnected) heading.current?.focus();
  }, []);
  return (
    <div className="relative flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-line bg-surface px-4 py-2 max-sm:flex-nowrap max-sm:gap-x-2 max-sm:px-3 max-sm:py-1.5">
      {/* On a phone one row, the name above its state, so the canvas keeps the height; from sm up one line of it all. */}
      <div className="flex min-w-0 items-center gap-x-3 max-sm:flex-1 max-sm:gap-x-2">
        <Link href="/workflows" className="rounded-md text-sm text-muted hover:text-foreground max-sm:-ml-1 max-sm:px-1 max-sm:text-lg">
          <span aria-hidden="true" className="sm:hidden">
            ←
          </span>
          <span className="max-sm:sr-only">Workflows</span>
        </Link>
        <span aria-hidden="true" className="text-line-strong max-sm:hidden">
          /
        </span>
        <div className="flex min-w-0 items-center gap-x-3 max-sm:flex-col max-sm:items-start">
          <h1 ref={heading} tabIndex={-1} className="max-w-full truncate rounded-sm text-base font-semibold tracking-tight outline-none" title={name}>
            {name || "Untitled workflow"}
          </h1>
          <div className="flex items-center gap-x-3 whitespace-nowrap max-sm:gap-x-2">
            <span className="rounded-full border border-line bg-surface-sunken px-2 py-0.5 font-mono text-[0.6875rem] text-muted max-sm:hidden">v{version}</span>
            <span ref={savedState} role="status" tabIndex={-1} className="flex items-center gap-1.5 whitespace-nowrap rounded-sm text-xs text-muted" data-testid="save-state">
              <span aria-hidden="true" className={`size-2 rounded-full ${saving ? "animate-pulse bg-accent" : dirty ? "bg-caution" : "bg-safe"}`} />
              {saving ? "Saving…" : dirty ? "Unsaved changes" : "Saved"}
            </span>
            {status ? (
              <span className={`whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${status.tone === "safe" ? "bg-safe-soft text-safe" : "bg-caution-soft text-caution"}`}>
                {status.text}
              </span>
            ) : null}
          </div>
        </div>
      </div>
      <div className="ml-auto flex flex-wrap items-center gap-1.5 max-sm:flex-nowrap" role="toolbar" aria-label="Workflow">
        {/* From sm up these sit in the row; on a phone in the list More opens below the header. */}
        {props.readOnly ? (
          <span className="whitespace-nowrap rounded-full bg-surface-sunken px-2 py-0.5 text-xs font-medium text-muted" title="You may look at this workflow, not change it">
            View only
          </span>
        ) : null}
        <MoreCommands>
          {props.readOnly ? null : <EditingCommands {...props} />}
          <Button size="sm" variant="ghost" onClick={props.onFitView} title="Show the whole workflow">
            Fit view
          </Button>
          <Button size="sm" variant="ghost" onClick={props.onGoToNode} title={`Find a node and give it focus (${SHORTCUT}K)`} aria-keyshortcuts="Control+K Meta+K">
            Go to node…
          </Button>
          {props.readOnly && !props.onShare ? null : <span aria-hidden="true" className="mx-1 h-5 w-px bg-line max-sm:hidden" />}
          {props.readOnly ? null : (
            <Button size="sm" onClick={props.onVersions}>
              Versions
            </Button>
          )}
          <Link
            href={props.activityHref}
            className="inline-flex h-7 items-center whitespace-nowrap rounded-md border border-line-strong bg-surface px-2.5 text-xs font-medium text-foreground shadow-card hover:bg-surface-sunken"
            title="Runs, failures, median duration and cost per day over the last 30 days"
          >
            Activity
          </Link>
          {props.onShare ? (
            <Button size="sm" onClick={props.onShare} title="Who else may see this workflow, and what they may do on it">
              Share
            </Button>
          ) : null}
        </MoreCommands>
        {props.readOnly || !props.onDescribe ? null : (
          <Button size="sm" onClick={props.onDescribe} title="Describe what it should do: the Architect drafts it, checked, for you to accept in parts">
            Describe…
          </Button>
        )}
        {props.readOnly ? null : (
          <>
            <Button size="sm" onClick={saveFromButton} disabled={saving || !dirty} title={`Save a new version (${SHORTCUT}S)`}>
              Save
            </Button>
            <PublishControl {...props} />
          </>
        )}
        {props.mayRun === false ? null : (
          <Button size="sm" variant="primary" onClick={props.onRun} disabled={props.running || saving}>
            {props.running ? "Starting…" : "Run"}
          </Button>
        )}
      </div>
    </div>
  );
});

/** Undo, redo and auto-layout: commands that change the workflow, absent from a read-only view. */
function EditingCommands({ canUndo, canRedo, onUndo, onRedo, onAutoLayout }: EditorToolbarProps) {
  return (
    <>
      <Button size="sm" variant="ghost" onClick={onUndo} disabled={!canUndo} title={`Undo (${SHORTCUT}Z)`}>
        Undo
      </Button>
      <Button size="sm" variant="ghost" onClick={onRedo} disabled={!canRedo} title={`Redo (${SHORTCUT}Shift+Z)`}>
        Redo
      </Button>
      <span aria-hidden="true" className="mx-1 h-5 w-px bg-line max-sm:hidden" />
      <Button size="sm" variant="ghost" onClick={onAutoLayout} title="Arrange the nodes left to right">
        Auto-layout
      </Button>
    </>
  );
}

/**
 * Which version is live (its triggers start runs) and the button that makes
 * the saved version live. Saving never changes what is live; publishing does.
 */
function PublishControl({ version, dirty, saving, publishedVersion, hasTriggers, publishing, onPublish, onUnpublish, mayPublish = true }: EditorToolbarProps) {
  if (!hasTriggers && publishedVersion === null) return null;
  const current = publishedVersion === version;
  return (
    <>
      {publishedVersion !== null ? (
        <span
          className="whitespace-nowrap rounded-full bg-safe-soft px-2 py-0.5 text-xs font-medium text-safe"
          data-testid="live-version"
          title={mayPublish ? undefined : "Publishing and unpublishing need the workflow:publish scope on it"}
        >
          Live: v{publishedVersion}
        </span>
      ) : null}
      {!mayPublish ? null : current ? (
        <Button size="sm" onClick={onUnpublish} disabled={publishing} title="Stop the triggers: deliveries get 404 until it is published again">
          {publishing ? "Unpublishing…" : "Unpublish"}
        </Button>
      ) : (
        <Button
          size="sm"
          onClick={onPublish}
          disabled={publishing || saving || dirty}
          title={dirty ? "Save first: only a saved version can go live" : `Make version ${version} live: its triggers start runs`}
        >
          {publishing ? "Publishing…" : `Publish v${version}`}
        </Button>
      )}
    </>
  );
}
