"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { NewButton } from "@/components/ui/new-button";
import { formatCount, ListCount, ListPager, ListSearch, ListSelect, useListNavigation } from "@/components/ui/list-controls";
import { EmptyState, ErrorNotice, PageHeader } from "@/components/ui/page-header";
import { api } from "@/lib/client/api";
import type { ListPage } from "@/lib/contracts/list-page";
import type { WorkflowListQuery } from "@/lib/contracts/workflow-list";
import { DeleteWorkflowDialog } from "./delete-workflow-dialog";
import { downloadJson } from "./download-json";
import { ImportWorkflowButton } from "./import-workflow-button";
import { NewWorkflowDialog } from "./new-workflow-dialog";
import { RenameWorkflowDialog } from "./rename-workflow-dialog";
import { columnsOf, RowCardTable, type RowCardColumn } from "@/components/ui/row-cards";
import { StatusMessage, type StatusMessageValue } from "./status-message";
import { workflowPath, type WorkflowDetailResponse } from "./workflow-detail";
import { exportFileName, sortByUpdated, toListItem, type WorkflowListItem } from "./workflow-list-item";
import { SORT_CHOICES, sortChoiceOf, workflowListHref } from "./workflow-list-query";
import { WorkflowRow, type WorkflowAction } from "./workflow-row";

type OpenDialog = { kind: "new" } | { kind: "rename"; workflow: WorkflowListItem } | { kind: "delete"; workflow: WorkflowListItem } | null;

/** The workflows table's columns, in the order of the cells of a {@link WorkflowRow}. */
// Hidden cells leave the grid, so below md the actions cell is the second column: it takes the second width.
const WORKFLOW_COLUMNS: readonly RowCardColumn[] = [
  { label: "Workflow", headClassName: "py-2.5 pl-4 pr-3 md:pl-5" },
  { label: "Version", headClassName: "hidden px-3 py-2.5 md:table-cell", widthClassName: "w-28 md:w-20" },
  { label: "Last run", headClassName: "hidden px-3 py-2.5 md:table-cell", widthClassName: "w-0 md:w-40" },
  { label: "Updated", headClassName: "hidden px-3 py-2.5 md:table-cell", widthClassName: "w-0 md:w-36" },
  { label: "Actions", labelHidden: true, headClassName: "py-2.5 pl-3 pr-5 text-right", widthClassName: "w-0 md:w-[19rem]" },
];

interface WorkflowListProps {
  /** The page the server rendered, and what it was asked for (from the address). */
  initialWorkflows: WorkflowListItem[];
  initialPage: ListPage;
  query: WorkflowListQuery;
  /**
   * Whether the person's role may make and change workflows (workflow:edit): without it the list offers only Export
   * (no New, Import, Rename, Duplicate or Delete). A share that narrows one workflow is checked by the server as ever.
   */
  mayEdit?: boolean;
}

type ListedWorkflows = { workflows: Parameters<typeof toListItem>[0][]; page: ListPage };

/**
 * The workflow list, a page at a time, searched and ordered by the address,
 * with everything done to workflows as a whole: create, import, rename,
 * duplicate, export, delete.
 */
export function WorkflowList({ initialWorkflows, initialPage, query, mayEdit = true }: WorkflowListProps) {
  const [workflows, setWorkflows] = useState(initialWorkflows);
  const [page, setPage] = useState(initialPage);
  const { navigate, pending } = useListNavigation();
  const apiPath = `/api/workflows${workflowListHref(query).slice("/workflows".length)}`;
  const newestChangeFirst = query.sort === "updatedAt" && query.direction === "desc";
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [busy, setBusy] = useState<{ id: string; action: WorkflowAction } | null>(null);
  const [message, setMessage] = useState<StatusMessageValue | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const heading = useRef<HTMLDivElement>(null);

  /** Reads the list again, so runs and saves made elsewhere show too. */
  const reload = useCallback(async () => {
    try {
      const latest = await api<ListedWorkflows>(apiPath);
      setWorkflows(latest.workflows.map(toListItem));
      setPage(latest.page);
      setListError(null);
    } catch (error) {
      setListError(error instanceof Error ? error.message : String(error));
    }
  }, [apiPath]);

  // Back and forward restore this page as it was first rendered: read the list again, so renames, copies and imports made since show.
  useEffect(() => {
    const controller = new AbortController();
    api<ListedWorkflows>(apiPath, { signal: controller.signal })
      .then((latest) => {
        setWorkflows(latest.workflows.map(toListItem));
        setPage(latest.page);
      })
      // The list as rendered stays; the next action that fails reloads it and says why.
      .catch(() => undefined);
    return () => controller.abort();
  }, [apiPath]);

  /** Shows a workflow the server just returned at once (first, when the newest change is), then reads the page again to place it. */
  const upsert = useCallback(
    (detail: WorkflowDetailResponse["workflow"]) => {
      setWorkflows((current) => {
        const previous = current.find((item) => item.id === detail.id);
        const item = toListItem({ ...detail, lastRunStatus: previous?.lastRunStatus ?? null });
        if (newestChangeFirst) return sortByUpdated([item, ...current.filter((each) => each.id !== detail.id)]);
        return previous ? current.map((each) => (each.id === detail.id ? item : each)) : [item, ...current];
      });
      void reload();
    },
    [newestChangeFirst, reload],
  );
  const searching = query.search !== undefined;
  const countText = `${formatCount(page.total, "workflow", "workflows")}${searching ? ` named like “${query.search}”` : ""}`;

  async function act(action: WorkflowAction, workflow: WorkflowListItem) {
    if (action === "rename" || action === "delete") {
      setDialog({ kind: action, workflow });
      return;
    }
    setBusy({ id: workflow.id, action });
    try {
      if (action === "duplicate") {
        const { workflow: copy } = await api<WorkflowDetailResponse>(`${workflowPath(workflow.id)}/duplicate`, { method: "POST", body: {} });
        upsert(copy);
        setMessage({ tone: "safe", text: `Duplicated “${workflow.name}” as “${copy.name}”.` });
      } else {
        const { workflow: stored } = await api<WorkflowDetailResponse>(workflowPath(workflow.id));
        downloadJson(stored.definition, exportFileName(stored.name));
        setMessage({ tone: "neutral", text: `Exported “${stored.name}” (version ${stored.latestVersion}) as ${exportFileName(stored.name)}.` });
      }
    } catch (error) {
      const verb = action === "duplicate" ? "duplicated" : "exported";
      setMessage({ tone: "caution", text: `“${workflow.name}” was not ${verb}: ${error instanceof Error ? error.message : String(error)}` });
      void reload();
    } finally {
      setBusy(null);
    }
  }

  const closeDialog = () => setDialog(null);
  const newButton = <NewButton onClick={() => setDialog({ kind: "new" })}>New workflow</NewButton>;

  return (
    <div>
      <div ref={heading} tabIndex={-1} className="outline-none">
        <PageHeader
          title="Workflows"
          description={
            mayEdit
              ? "Chains of tools that run on this machine. Open one to build it on the canvas, or import one exported from another studio."
              : "Chains of tools that run on this machine, shared with you. Open one to see how it is built; changing workflows needs the workflow:edit scope."
          }
          actions={
            mayEdit ? (
              <>
                <ImportWorkflowButton
                  onImported={(workflow, dropped) => {
                    upsert(workflow);
                    setMessage(
                      dropped.length === 0
                        ? { tone: "safe", text: `Imported “${workflow.name}”.` }
                        : {
                            tone: "caution",
                            text: `Imported “${workflow.name}” in default mode: imported workflows always ask before acting, so these settings of the file were dropped: ${dropped
                              .map((setting) => setting.description)
                              .join("; ")}. Choose them again in its settings if you trust it.`,
                          },
                    );
                  }}
                />
                {newButton}
              </>
            ) : undefined
          }
        />
      </div>

      <StatusMessage message={message} onDismiss={() => setMessage(null)} />
      {listError ? (
        <div className="mb-4">
          <ErrorNotice title="The list could not be refreshed">{listError}</ErrorNotice>
        </div>
      ) : null}

      <div className="mb-4 flex flex-wrap items-center gap-3">
        <ListSearch label="Search workflows" placeholder="Search by name" search={query.search} onSearch={(search) => navigate(workflowListHref({ ...query, search, cursor: undefined }))} />
        <ListSelect
          label="Order"
          value={sortChoiceOf(query)}
          onChange={(value) => {
            const choice = SORT_CHOICES.find((each) => each.value === value) ?? SORT_CHOICES[0]!;
            navigate(workflowListHref({ ...query, sort: choice.sort, direction: choice.direction, cursor: undefined }));
          }}
        >
          {SORT_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </ListSelect>
      </div>
      <div className="mb-3">
        <ListCount text={countText} busy={pending} />
      </div>

      {workflows.length === 0 && (searching || query.cursor !== undefined) ? (
        <EmptyState title={searching ? "No workflow is named like that" : "No more workflows"}>
          {searching ? "Search for part of a name, or clear the search to see every workflow." : "This page is past the last workflow: go back to the first page."}
        </EmptyState>
      ) : workflows.length === 0 ? (
        <EmptyState
          title="No workflows yet"
          action={
            mayEdit ? (
              <Button variant="primary" onClick={() => setDialog({ kind: "new" })}>
                Create your first workflow
              </Button>
            ) : undefined
          }
        >
          A workflow takes the inputs you give it, passes them through tools (read files, query a database, search the web) and
          returns a result. Start from an empty one, or import a JSON file with Import JSON above.
        </EmptyState>
      ) : (
        // Below md (200 % zoom) the version, last run and update time fold under the name and the actions stack, so the
        // name keeps the row's width instead of the table scrolling it out of sight; below sm (a phone) each row is a card.
        <RowCardTable
          caption={`${countText}, ${SORT_CHOICES.find((choice) => choice.value === sortChoiceOf(query))?.caption ?? ""}`}
          tableClassName="sm:table-fixed md:min-w-[44rem]"
          {...columnsOf(WORKFLOW_COLUMNS)}
        >
          {workflows.map((workflow) => (
            <WorkflowRow
              key={workflow.id}
              workflow={workflow}
              busy={busy?.id === workflow.id ? busy.action : null}
              mayEdit={mayEdit}
              onAction={(action, target) => void act(action, target)}
            />
          ))}
        </RowCardTable>
      )}
      <ListPager
        label="Pages of workflows"
        firstHref={query.cursor !== undefined ? workflowListHref({ ...query, cursor: undefined }) : null}
        nextHref={page.nextCursor !== null ? workflowListHref({ ...query, cursor: page.nextCursor }) : null}
      />

      {dialog?.kind === "new" ? <NewWorkflowDialog onClose={closeDialog} /> : null}
      {dialog?.kind === "rename" ? (
        <RenameWorkflowDialog
          workflow={dialog.workflow}
          onClose={closeDialog}
          onRenamed={(detail) => {
            upsert(detail);
            setMessage({ tone: "safe", text: `Renamed “${dialog.workflow.name}” to “${detail.name}” (version ${detail.latestVersion}).` });
            closeDialog();
          }}
        />
      ) : null}
      {dialog?.kind === "delete" ? (
        <DeleteWorkflowDialog
          workflow={dialog.workflow}
          onClose={closeDialog}
          focusAfter={() => heading.current}
          onDeleted={() => {
            setWorkflows((current) => current.filter((item) => item.id !== dialog.workflow.id));
            void reload();
            setMessage({ tone: "neutral", text: `Deleted “${dialog.workflow.name}”.` });
            closeDialog();
          }}
        />
      ) : null}
    </div>
  );
}
