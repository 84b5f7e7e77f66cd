"use client";

import Link from "next/link";
import { useCallback, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { formatCount, ListCount, ListPager, ListSearch, ListSelect, useListNavigation } from "@/components/ui/list-controls";
import { EmptyState, ErrorNotice, Spinner } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { api, ApiError } from "@/lib/client/api";
import type { ListPage } from "@/lib/contracts/list-page";
import type { RunSummary } from "@/lib/contracts/run";
import type { RunListQuery, RunListResponse } from "@/lib/contracts/run-list";
import type { UsageSummary } from "@/lib/contracts/usage";
import { RUN_TRIGGER_KINDS, RUN_TRIGGER_LABELS, type RunTriggerKind } from "@/lib/contracts/run-trigger";
import { triggerDetailText } from "@/lib/run-view/trigger-text";
import { CONTROL_CLASS } from "@/components/ui/field";
import { CardActions, CardCell, columnsOf, RowCard, RowCardTable, type RowCardColumn } from "@/components/ui/row-cards";
import { useFormatTime } from "@/components/ui/use-format-time";
import { formatDuration } from "@/lib/run-view/format-time";
import { TimeAgo } from "./time-ago";
import { CancelRunDialog, type CancelTarget } from "./cancel-run-button";
import { deleteRefusal, DeleteRunDialog, type DeleteTarget } from "./delete-run-button";
import { runListHref } from "./run-list-query";
import { RunStatusFilter } from "./run-status-filter";
import { useChangeFeed } from "./use-change-feed";
import { useNow } from "./use-now";
import { tokensDetail, tokensText, UsageCost } from "./usage-text";

interface RunListProps {
  /** Null when the server could not read them; `initialError` says why. */
  initialRuns: RunSummary[] | null;
  initialPage: ListPage | null;
  /** The tokens and cost of every run the filter matches; null when the runs could not be read. */
  initialUsage: UsageSummary | null;
  initialError?: string | null;
  /** What the address asks for: filters, search, order, cursor. */
  query: RunListQuery;
  /**
   * The workflows whose runs the person may cancel and delete (run:cancel on them); null for every workflow. Other
   * rows offer only Open.
   */
  cancelableWorkflows?: readonly string[] | null;
}

const ACTIVE = new Set(["running", "awaiting_input"]);

/** The table's columns, then the actions (named for screen readers only: its buttons say what they do). */
const RUN_COLUMNS: RowCardColumn[] = [
  ...["Status", "Workflow", "Version", "Started by", "Started", "Duration", "Approvals", "Tokens", "Cost"].map((label) => ({ label, headClassName: "px-4 py-2.5" })),
  { label: "Actions", labelHidden: true, headClassName: "px-4 py-2.5" },
];

/**
 * The runs, a page at a time, filtered, searched and ordered by the address
 * (so a page can be linked and Back returns to the one before), and read
 * again as runs change.
 */
export function RunList({ initialRuns, initialPage, initialUsage, initialError = null, query, cancelableWorkflows = null }: RunListProps) {
  const { navigate, pending } = useListNavigation();
  const [runs, setRuns] = useState<RunSummary[] | null>(initialRuns);
  const [page, setPage] = useState<ListPage | null>(initialPage);
  const [usage, setUsage] = useState<UsageSummary | null>(initialUsage);
  const [error, setError] = useState<string | null>(initialError);
  const [loading, setLoading] = useState(false);
  const request = useRef(0);
  const [cancelTarget, setCancelTarget] = useState<CancelTarget | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<DeleteTarget | null>(null);
  const table = useRef<HTMLDivElement>(null);
  const apiPath = `/api/runs${runListHref(query).slice("/runs".length)}`;

  const load = useCallback(async () => {
    const ticket = ++request.current;
    setLoading(true);
    try {
      const fresh = await api<RunListResponse>(apiPath);
      // A slower answer must not replace a newer one.
      if (ticket !== request.current) return;
      setRuns(fresh.runs);
      setPage(fresh.page);
      setUsage(fresh.usage);
      setError(null);
    } catch (caught) {
      if (ticket !== request.current) return;
      setError(caught instanceof ApiError ? caught.message : "The runs could not be loaded.");
    } finally {
      if (ticket === request.current) setLoading(false);
    }
  }, [apiPath]);

  // This page again whenever runs change (the first page gains the new ones; a later page stays where its cursor is).
  useChangeFeed(useCallback(() => void load(), [load]));

  const change = (next: Partial<RunListQuery>) => navigate(runListHref({ ...query, ...next, cursor: undefined }));
  const filtered = query.status !== undefined || query.trigger !== undefined || query.search !== undefined || query.from !== undefined || query.to !== undefined || query.workflowId !== undefined;

  const anyActive = runs?.some((run) => ACTIVE.has(run.status)) ?? false;
  const now = useNow(1000, anyActive);
  const relativeNow = useNow(30_000);
  const countText = page ? formatCount(page.total, "run", "runs") + (filtered ? " match these filters" : "") : "";

  return (
    <div className="space-y-4" ref={table}>
      <div className="flex flex-wrap items-center gap-3">
        <ListSearch label="Search runs by workflow name" placeholder="Search by workflow name" search={query.search} onSearch={(search) => change({ search })} />
        <ListSelect label="Order" value={query.direction} onChange={(value) => change({ direction: value === "asc" ? "asc" : "desc" })}>
          <option value="desc">Newest first</option>
          <option value="asc">Oldest first</option>
        </ListSelect>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <RunStatusFilter value={query.status ?? "all"} onChange={(next) => change({ status: next === "all" ? undefined : next })} />
        <ListSelect label="Started by" value={query.trigger ?? ""} onChange={(value) => change({ trigger: (value || undefined) as RunTriggerKind | undefined })}>
          {/* Items of a For each loop are listed under their loop's step; "For each step" lists them here. */}
          <option value="">Anything but loop items</option>
          {RUN_TRIGGER_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {RUN_TRIGGER_LABELS[kind]}
            </option>
          ))}
        </ListSelect>
        {/* The two days as one: they wrap to the next line together, not To alone. */}
        <div role="group" aria-label="Made between" className="flex flex-wrap items-center gap-3 max-sm:w-full">
          <DateFilter label="From" value={query.from} onChange={(value) => change({ from: value })} />
          <DateFilter label="To" value={query.to} onChange={(value) => change({ to: value })} />
        </div>
        {query.workflowId !== undefined ? (
          <Link href={runListHref({ ...query, workflowId: undefined, cursor: undefined })} className="text-sm font-medium text-accent underline-offset-4 hover:underline">
            One workflow only: show every workflow&rsquo;s runs
          </Link>
        ) : null}
        {query.workflowId !== undefined ? (
          <Link href={`/workflows/${encodeURIComponent(query.workflowId)}/activity`} className="text-sm font-medium text-accent underline-offset-4 hover:underline">
            Its last 30 days, charted
          </Link>
        ) : null}
      </div>
      <ListCount text={countText} busy={pending || (loading && runs !== null)} />
      {page && usage && usage.calls > 0 ? <UsageTotal runs={page.total} usage={usage} /> : null}
      {error ? (
        <ErrorNotice title="Could not load the runs">
          <p>{error}</p>
          <Button size="sm" className="mt-2" onClick={() => void load()}>
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
          title={!filtered && query.cursor === undefined ? "No runs yet" : query.cursor !== undefined ? "No more runs" : "No runs match these filters"}
          action={
            !filtered && query.cursor === undefined ? (
              <Link href="/workflows" className="text-sm font-medium text-accent underline-offset-4 hover:underline">
                Open a workflow to run it
              </Link>
            ) : undefined
          }
        >
          {!filtered && query.cursor === undefined
            ? "Runs appear here as soon as a workflow starts, and update live while they run."
            : query.cursor !== undefined
              ? "This page is past the last run: go back to the first page."
              : "Choose another status, start or time, clear the search, or All and Anything, to see the other runs."}
        </EmptyState>
      ) : (
        <RowCardTable
          caption={`${countText}, ${query.direction === "asc" ? "oldest" : "newest"} first`}
          head={columnsOf(RUN_COLUMNS).head}
          tableClassName="text-sm"
        >
          {runs.map((run) => (
            <RunRow
              key={run.id}
              run={run}
              now={now}
              relativeNow={relativeNow}
              mayCancel={cancelableWorkflows === null || cancelableWorkflows.includes(run.workflowId)}
              onCancel={setCancelTarget}
              onDelete={setDeleteTarget}
            />
          ))}
        </RowCardTable>
      )}
      <ListPager
        label="Pages of runs"
        firstHref={query.cursor !== undefined ? runListHref({ ...query, cursor: undefined }) : null}
        nextHref={page?.nextCursor ? runListHref({ ...query, cursor: page.nextCursor }) : null}
      />
      <CancelRunDialog target={cancelTarget} onClose={() => setCancelTarget(null)} onSettled={() => void load()} />
      {deleteTarget ? (
        <DeleteRunDialog
          target={deleteTarget}
          onClose={() => setDeleteTarget(null)}
          onDeleted={() => {
            const gone = deleteTarget.runId;
            setDeleteTarget(null);
            // Off the list at once; the reload brings whatever else changed.
            setRuns((current) => current?.filter((run) => run.id !== gone) ?? null);
            void load();
          }}
          // The row and its Delete button are gone: focus goes to the list's first link, or the filters when it is empty.
          focusAfter={() => table.current?.querySelector<HTMLElement>("tbody a, select") ?? null}
        />
      ) : null}
    </div>
  );
}

/** A day the runs were made on or after (From) or on or before (To); cleared, no limit. */
function DateFilter({ label, value, onChange }: { label: string; value: string | undefined; onChange: (value: string | undefined) => void }) {
  // The address may hold a moment; the box shows its day.
  const day = value?.slice(0, 10) ?? "";
  return (
    <label className="flex items-center gap-2 text-sm text-muted max-sm:w-full max-sm:justify-between">
      <span className="whitespace-nowrap">{label}</span>
      <input type="date" className={`${CONTROL_CLASS} w-auto min-w-0 py-1.5`} value={day} onChange={(event) => onChange(event.target.value || undefined)} />
    </label>
  );
}

function RunRow({
  run,
  now,
  relativeNow,
  mayCancel,
  onCancel,
  onDelete,
}: {
  run: RunSummary;
  now: number;
  relativeNow: number;
  /** Whether Cancel and Delete are offered (run:cancel on the run's workflow); Open always is. */
  mayCancel: boolean;
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
      <CardCell part="detail" label={run.usage.calls > 0 ? "tokens" : undefined} className={`whitespace-nowrap px-4 py-3 tabular-nums text-muted ${run.usage.calls > 0 ? "" : "max-sm:hidden"}`} title={run.usage.calls > 0 ? tokensDetail(run.usage) : undefined}>
        {tokensText(run.usage)}
      </CardCell>
      <CardCell part="detail" label={run.usage.calls > 0 ? "cost" : undefined} className={`whitespace-nowrap px-4 py-3 ${run.usage.calls > 0 ? "" : "max-sm:hidden"}`}>
        <UsageCost usage={run.usage} />
      </CardCell>
      <CardCell part="actions" className="px-4 py-3">
        <CardActions>
          {mayCancel ? (
            <>
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
            </>
          ) : null}
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

/** The filter's total, all pages: "142 runs · 1.2 M tokens · $3.41 at today's prices". */
function UsageTotal({ runs, usage }: { runs: number; usage: UsageSummary }) {
  return (
    <p className="text-sm text-muted" data-testid="runs-usage-total">
      <span className="tabular-nums">{formatCount(runs, "run", "runs")}</span> · <span title={tokensDetail(usage)}>{tokensText(usage)} tokens</span> ·{" "}
      <UsageCost usage={usage} className="font-medium text-foreground" />
      {usage.costMicros !== null ? " at today's prices" : null}
    </p>
  );
}
