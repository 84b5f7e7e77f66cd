"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState, ErrorNotice, Spinner } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { api, ApiError } from "@/lib/client/api";
import type { RunSummary } from "@/lib/contracts/run";
import { RUN_TRIGGER_KINDS, RUN_TRIGGER_LABELS, type RunTriggerKind } from "@/lib/contracts/run-trigger";
import { triggerDetailText } from "@/lib/run-view/trigger-text";
import { CONTROL_CLASS } from "@/components/ui/field";
import { CardActions, CardCell, RowCard, RowCardTable } from "@/components/ui/row-cards";
import { useFormatTime } from "@/components/ui/use-format-time";
import { formatDuration } from "@/lib/run-view/format-time";
import { TimeAgo } from "./time-ago";
import { CancelRunDialog, type CancelTarget } from "./cancel-run-button";
import { deleteRefusal, DeleteRunDialog, type DeleteTarget } from "./delete-run-button";
import type { RunStatusFilterValue } from "@/lib/run-view/run-status-filters";
import { RunStatusFilter } from "./run-status-filter";
import { useChangeFeed } from "./use-change-feed";
import { useNow } from "./use-now";

interface RunListProps {
  /** Null when the server could not read them; `initialError` says why. */
  initialRuns: RunSummary[] | null;
  initialError?: string | null;
  initialStatus: RunStatusFilterValue;
  /** Only runs started this way; null for every start. */
  initialTrigger: RunTriggerKind | null;
}

interface RunFilters {
  status: RunStatusFilterValue;
  trigger: RunTriggerKind | null;
}

/** The filters as a query string (the page's address and the API's). */
function filterQuery({ status, trigger }: RunFilters): string {
  const query = new URLSearchParams();
  if (status !== "all") query.set("status", status);
  if (trigger) query.set("trigger", trigger);
  const text = query.toString();
  return text ? `?${text}` : "";
}

const ACTIVE = new Set(["running", "awaiting_input"]);

/** Every run, newest first, filtered by status (kept in the URL) and refreshed as runs change. */
export function RunList({ initialRuns, initialError = null, initialStatus, initialTrigger }: RunListProps) {
  const router = useRouter();
  const pathname = usePathname();
  const [filters, setFilters] = useState<RunFilters>({ status: initialStatus, trigger: initialTrigger });
  const { status } = filters;
  const [runs, setRuns] = useState<RunSummary[] | null>(initialRuns);
  const [error, setError] = useState<string | null>(initialError);
  const [loading, setLoading] = useState(false);
  const request = useRef(0);
  const [cancelTarget, setCancelTarget] = useState<CancelTarget | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<DeleteTarget | null>(null);
  const table = useRef<HTMLDivElement>(null);

  const load = useCallback(async (filter: RunFilters) => {
    const ticket = ++request.current;
    setLoading(true);
    try {
      const { runs: fresh } = await api<{ runs: RunSummary[] }>(`/api/runs${filterQuery(filter)}`);
      // A slower answer to an older filter must not replace a newer one.
      if (ticket !== request.current) return;
      setRuns(fresh);
      setError(null);
    } catch (caught) {
      if (ticket !== request.current) return;
      setError(caught instanceof ApiError ? caught.message : "The runs could not be loaded.");
    } finally {
      if (ticket === request.current) setLoading(false);
    }
  }, []);

  const filtersRef = useRef(filters);
  useEffect(() => {
    filtersRef.current = filters;
  }, [filters]);
  useChangeFeed(useCallback(() => void load(filtersRef.current), [load]));

  function changeFilters(next: RunFilters) {
    setFilters(next);
    router.replace(`${pathname}${filterQuery(next)}`, { scroll: false });
    void load(next);
  }

  const anyActive = runs?.some((run) => ACTIVE.has(run.status)) ?? false;
  const now = useNow(1000, anyActive);
  const relativeNow = useNow(30_000);

  return (
    <div className="space-y-4" ref={table}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <RunStatusFilter value={status} onChange={(next) => changeFilters({ ...filters, status: next })} />
          <label className="flex items-center gap-2 whitespace-nowrap text-sm text-muted">
            Started by
            <select
              className={`${CONTROL_CLASS} w-auto py-1.5`}
              value={filters.trigger ?? ""}
              onChange={(event) => changeFilters({ ...filters, trigger: (event.target.value || null) as RunTriggerKind | null })}
            >
              {/* Items of a For each loop are listed under their loop's step; "For each step" lists them here. */}
              <option value="">Anything but loop items</option>
              {RUN_TRIGGER_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {RUN_TRIGGER_LABELS[kind]}
                </option>
              ))}
            </select>
          </label>
        </div>
        {loading && runs !== null ? <Spinner label="Refreshing" /> : null}
      </div>
      {error ? (
        <ErrorNotice title="Could not load the runs">
          <p>{error}</p>
          <Button size="sm" className="mt-2" onClick={() => void load(filters)}>
            Try again
          </Button>
        </ErrorNotice>
      ) : null}
      {runs === null ? (
        loading ? (
          <Spinner label="Loading runs" />
        ) : null
      ) : runs.length === 0 ? (
        <EmptyState
          title={status === "all" && !filters.trigger ? "No runs yet" : "No runs match these filters"}
          action={
            status === "all" && !filters.trigger ? (
              <Link href="/workflows" className="text-sm font-medium text-accent underline-offset-4 hover:underline">
                Open a workflow to run it
              </Link>
            ) : undefined
          }
        >
          {status === "all" && !filters.trigger
            ? "Runs appear here as soon as a workflow starts, and update live while they run."
            : "Choose another status or start, or All and Anything, to see the other runs."}
        </EmptyState>
      ) : (
        <RowCardTable
          caption="Runs, newest first"
          head={
            <>
              <th scope="col" className="px-4 py-2.5">Status</th>
              <th scope="col" className="px-4 py-2.5">Workflow</th>
              <th scope="col" className="px-4 py-2.5">Version</th>
              <th scope="col" className="px-4 py-2.5">Started by</th>
              <th scope="col" className="px-4 py-2.5">Started</th>
              <th scope="col" className="px-4 py-2.5">Duration</th>
              <th scope="col" className="px-4 py-2.5">Approvals</th>
              <th scope="col" className="px-4 py-2.5">
                <span className="sr-only">Actions</span>
              </th>
            </>
          }
          tableClassName="text-sm"
        >
          {runs.map((run) => (
            <RunRow key={run.id} run={run} now={now} relativeNow={relativeNow} onCancel={setCancelTarget} onDelete={setDeleteTarget} />
          ))}
        </RowCardTable>
      )}
      <CancelRunDialog target={cancelTarget} onClose={() => setCancelTarget(null)} onSettled={() => void load(filters)} />
      {deleteTarget ? (
        <DeleteRunDialog
          target={deleteTarget}
          onClose={() => setDeleteTarget(null)}
          onDeleted={() => {
            const gone = deleteTarget.runId;
            setDeleteTarget(null);
            // Off the list at once; the reload brings whatever else changed.
            setRuns((current) => current?.filter((run) => run.id !== gone) ?? null);
            void load(filters);
          }}
          // The row and its Delete button are gone: focus goes to the list's first link, or the filters when it is empty.
          focusAfter={() => table.current?.querySelector<HTMLElement>("tbody a, select") ?? null}
        />
      ) : null}
    </div>
  );
}

function RunRow({
  run,
  now,
  relativeNow,
  onCancel,
  onDelete,
}: {
  run: RunSummary;
  now: number;
  relativeNow: number;
  onCancel: (target: CancelTarget) => void;
  onDelete: (target: DeleteTarget) => void;
}) {
  const formatTime = useFormatTime();
  const active = ACTIVE.has(run.status);
  const duration =
    run.durationMs !== null ? formatDuration(run.durationMs) : active ? `running for ${formatDuration(now - Date.parse(run.startedAt))}` : "—";
  const startedAt = formatTime(run.startedAt, "exact");
  const refusal = deleteRefusal(run.status);
  return (
    <RowCard className="transition-colors hover:bg-surface-sunken/60">
      <CardCell part="detail" className="px-4 py-3">
        <StatusBadge status={run.status} />
      </CardCell>
      {/* A list of runs: the name opens the run (the run's page links on to its workflow). First on a card. */}
      <CardCell part="title" className="px-4 py-3 max-sm:order-first">
        <Link href={`/runs/${run.id}`} className="font-medium text-foreground underline-offset-4 [overflow-wrap:anywhere] hover:text-accent hover:underline">
          {run.workflowName}
        </Link>
      </CardCell>
      <CardCell part="detail" className="whitespace-nowrap px-4 py-3 tabular-nums text-muted">
        v{run.version}
      </CardCell>
      <CardCell part="detail" label="by" className="whitespace-nowrap px-4 py-3 text-muted" title={triggerDetailText(run.trigger)}>
        {RUN_TRIGGER_LABELS[run.trigger.kind]}
        {run.trigger.test ? <span className="ml-1 rounded bg-surface-sunken px-1 text-[11px]">test</span> : null}
      </CardCell>
      <CardCell part="detail" label="started" className="whitespace-nowrap px-4 py-3 text-muted">
        <TimeAgo value={run.startedAt} now={Math.max(relativeNow, now)} className="text-muted" />
      </CardCell>
      {/* "59 ms" on one line: a number cut from its unit reads as two things. */}
      <CardCell part="detail" label={run.durationMs !== null ? "took" : undefined} className="whitespace-nowrap px-4 py-3 tabular-nums text-muted" suppressHydrationWarning>
        {duration}
      </CardCell>
      <CardCell part="detail" label={run.totalApprovals > 0 ? "approvals" : undefined} className={`px-4 py-3 ${run.totalApprovals > 0 ? "" : "max-sm:hidden"}`}>
        {run.totalApprovals === 0 ? (
          <span className="text-muted">—</span>
        ) : (
          <span className="inline-flex flex-wrap items-center gap-1.5 tabular-nums">
            {run.totalApprovals}
            {run.pendingApprovals > 0 ? (
              <Link
                href="/inbox"
                className="inline-flex items-center rounded-full bg-caution-soft px-2 py-0.5 text-xs font-semibold text-caution hover:underline"
              >
                ({run.pendingApprovals} waiting)
              </Link>
            ) : null}
          </span>
        )}
      </CardCell>
      <CardCell part="actions" className="px-4 py-3">
        <CardActions>
          {active ? (
            <Button size="sm" onClick={() => onCancel({ runId: run.id, workflowName: run.workflowName })} aria-label={`Cancel the run of ${run.workflowName} started ${startedAt}`}>
              Cancel
            </Button>
          ) : null}
          {/* Disabled while the run goes on, the reason in its tooltip and its accessible description (the Cancel beside it is the way on). */}
          <Button
            size="sm"
            variant="ghost"
            disabled={refusal !== null}
            title={refusal ?? undefined}
            aria-description={refusal ?? undefined}
            onClick={() => onDelete({ runId: run.id, workflowName: run.workflowName, startedAt })}
            aria-label={`Delete the run of ${run.workflowName} started ${startedAt}`}
          >
            Delete
          </Button>
          <Link
            href={`/runs/${run.id}`}
            aria-label={`Open the run of ${run.workflowName} started ${startedAt}`}
            className="inline-flex h-7 items-center rounded-md border border-line-strong bg-surface px-2.5 text-xs font-medium text-foreground shadow-card hover:bg-surface-sunken"
          >
            Open
          </Link>
        </CardActions>
      </CardCell>
    </RowCard>
  );
}
