"use client";

import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { NewButton } from "@/components/ui/new-button";
import { EmptyState, PageHeader } from "@/components/ui/page-header";
import { CardActions, CardCell, columnsOf, labelledColumns, RowCard, RowCardTable, type RowCardColumn } from "@/components/ui/row-cards";
import { RelativeTime } from "@/components/workflow-list/relative-time";
import { StatusMessage, type StatusMessageValue } from "@/components/workflow-list/status-message";
import { CreateSecretDialog } from "./create-secret-dialog";
import { DeleteSecretDialog } from "./delete-secret-dialog";
import { EditSecretDialog } from "./edit-secret-dialog";
import { ReplaceSecretValueDialog } from "./replace-secret-value-dialog";
import { savedButUnusableMessage } from "./secret-problem";
import { toSecretRow, type SecretRow, type SecretSaveResponse, type SecretTool, type SecretWorkflowChoice } from "./secret-types";

type OpenDialog =
  | { kind: "create" }
  | { kind: "replace"; secret: SecretRow }
  | { kind: "edit"; secret: SecretRow }
  | { kind: "delete"; secret: SecretRow }
  | null;

/** The secrets table's columns, in the order of the cells of {@link SecretTableRow}. */
const SECRET_COLUMNS: readonly RowCardColumn[] = labelledColumns(
  [["Name", "w-56"], ["Value", "w-32"], ["Tool", "w-40"], ["Description"], ["Updated", "w-32"]],
  "w-[17.5rem]",
);

/**
 * The stored secrets, never their values, and everything done to them. A
 * save that the secret's tool finds unusable is kept as a warning on its row
 * (for this visit: the check needs the value, which the list never has).
 */
export function SecretList({
  initialSecrets,
  secretTools,
  toolTitles,
  workflows,
  mayManage = true,
}: {
  initialSecrets: SecretRow[];
  /** Whether the person may add, replace and remove secrets (secret:manage); without it the list is read-only and says why. */
  mayManage?: boolean;
  /** The workflows a secret can be limited to, by name. */
  workflows: SecretWorkflowChoice[];
  /** The tools that declare secret inputs, for the Tool picker. */
  secretTools: SecretTool[];
  /** Every installed tool's title by name, for secrets tied to any of them. */
  toolTitles: Record<string, string>;
}) {
  const [secrets, setSecrets] = useState(initialSecrets);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [message, setMessage] = useState<StatusMessageValue | null>(null);
  const heading = useRef<HTMLDivElement>(null);

  const titleOf = (tool: string | null) => (tool ? (toolTitles[tool] ?? tool) : null);
  const closeDialog = () => setDialog(null);

  function saved({ secret, problem }: SecretSaveResponse, verb: string) {
    const row = toSecretRow(secret);
    setSecrets((current) => [...current.filter((each) => each.name !== row.name), row].sort((a, b) => a.name.localeCompare(b.name)));
    setProblems((current) => {
      const { [row.name]: _previous, ...rest } = current;
      return problem ? { ...rest, [row.name]: problem } : rest;
    });
    const warning = savedButUnusableMessage(titleOf(row.tool), problem);
    setMessage(warning ? { tone: "caution", text: warning } : { tone: "safe", text: `${verb} ${row.name}.` });
    closeDialog();
  }

  const newButton = <NewButton onClick={() => setDialog({ kind: "create" })}>New secret</NewButton>;

  return (
    <div>
      <div ref={heading} tabIndex={-1} className="outline-none">
        <PageHeader
          title="Secrets"
          description={
            <>
              Passwords, API keys and connection URLs for your tools. A step refers to one as{" "}
              <code className="font-mono text-foreground">{"${NAME}"}</code>; the value is stored encrypted and never shown again after
              saving.
              {mayManage ? null : " Adding, replacing and removing secrets needs the secret:manage scope, which your role does not include."}
            </>
          }
          actions={mayManage ? newButton : undefined}
        />
      </div>

      <StatusMessage message={message} onDismiss={() => setMessage(null)} />

      {secrets.length === 0 ? (
        <EmptyState
          title="No secrets stored"
          action={
            mayManage ? (
              <Button variant="primary" onClick={() => setDialog({ kind: "create" })}>
                Add your first secret
              </Button>
            ) : undefined
          }
        >
          Tools like {secretTools.map((tool) => tool.title).join(" and ") || "SQL Database"} need a credential to connect. Store it here
          once, then pick it in a step&apos;s settings.
        </EmptyState>
      ) : (
        <RowCardTable
          caption="Stored secrets; values are never shown"
          tableClassName="sm:min-w-[52rem] sm:table-fixed"
          {...columnsOf(SECRET_COLUMNS)}
        >
          {secrets.map((secret) => {
            const problem = problems[secret.name];
            const warning = problem ? savedButUnusableMessage(titleOf(secret.tool), problem) : "";
            return (
              <SecretTableRow
                key={secret.name}
                secret={secret}
                toolTitle={titleOf(secret.tool)}
                usableBy={usableByText(secret.workflows, workflows)}
                warning={warning}
                mayManage={mayManage}
                onReplace={() => setDialog({ kind: "replace", secret })}
                onEdit={() => setDialog({ kind: "edit", secret })}
                onDelete={() => setDialog({ kind: "delete", secret })}
              />
            );
          })}
        </RowCardTable>
      )}

      {dialog?.kind === "create" ? (
        <CreateSecretDialog tools={secretTools} workflows={workflows} onClose={closeDialog} onSaved={(response) => saved(response, "Saved")} />
      ) : null}
      {dialog?.kind === "replace" ? (
        <ReplaceSecretValueDialog secret={dialog.secret} onClose={closeDialog} onSaved={(response) => saved(response, "Replaced the value of")} />
      ) : null}
      {dialog?.kind === "edit" ? (
        <EditSecretDialog secret={dialog.secret} tools={secretTools} workflows={workflows} onClose={closeDialog} onSaved={(response) => saved(response, "Updated")} />
      ) : null}
      {dialog?.kind === "delete" ? (
        <DeleteSecretDialog
          secret={dialog.secret}
          onClose={closeDialog}
          focusAfter={() => heading.current}
          onDeleted={() => {
            const name = dialog.secret.name;
            setSecrets((current) => current.filter((each) => each.name !== name));
            setProblems(({ [name]: _removed, ...rest }) => rest);
            setMessage({ tone: "neutral", text: `Deleted ${name}.` });
            closeDialog();
          }}
        />
      ) : null}
    </div>
  );
}

/** "only Daily report and Sync" for a limited secret (a removed workflow counted, not named); "" for every workflow. */
function usableByText(limitedTo: string[] | null, workflows: readonly SecretWorkflowChoice[]): string {
  if (limitedTo === null) return "";
  const names = limitedTo.flatMap((id) => workflows.find((workflow) => workflow.id === id)?.name ?? []);
  const gone = limitedTo.length - names.length;
  const listed = names.length <= 3 ? names.map((name) => `“${name}”`).join(", ") : `${names.length} workflows`;
  if (names.length === 0) return gone > 0 ? "only workflows since deleted: no workflow can use it" : "no workflow can use it";
  return `only ${listed}${gone > 0 ? ` (and ${gone} deleted)` : ""}`;
}

function SecretTableRow({
  secret,
  toolTitle,
  usableBy,
  warning,
  mayManage,
  onReplace,
  onEdit,
  onDelete,
}: {
  secret: SecretRow;
  /** Whether Replace value, Edit and Delete are offered (secret:manage). */
  mayManage: boolean;
  toolTitle: string | null;
  /** Which workflows may use it, in words; "" for every workflow. */
  usableBy: string;
  warning: string;
  onReplace: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <>
      <RowCard className="align-top" data-secret={secret.name}>
        <CardCell part="title" rowHeader className="py-3.5 pl-5 pr-3 text-left font-normal">
          <span className="block truncate font-mono text-sm font-medium text-foreground max-sm:whitespace-normal max-sm:[overflow-wrap:anywhere]" title={secret.name}>
            {secret.name}
          </span>
        </CardCell>
        <CardCell part="detail" className="px-3 py-3.5">
          <span aria-hidden="true" className="font-mono text-sm tracking-widest text-muted">
            ••••••••
          </span>
          <span className="sr-only">hidden</span>
        </CardCell>
        <CardCell part="detail" label={toolTitle ? "Tool" : undefined} className="px-3 py-3.5 text-sm">
          {toolTitle ? <span className="text-foreground">{toolTitle}</span> : <span className="text-muted">any tool</span>}
          {usableBy ? (
            <span className="mt-0.5 block text-xs text-muted" data-testid="secret-usable-by">
              {usableBy}
            </span>
          ) : null}
        </CardCell>
        <CardCell part="detail" className="px-3 py-3.5 text-sm max-sm:order-last max-sm:w-full">
          {secret.description ? (
            <span className="line-clamp-2 text-foreground">{secret.description}</span>
          ) : (
            <span className="italic text-muted">No description</span>
          )}
        </CardCell>
        <CardCell part="detail" label="Updated" className="whitespace-nowrap px-3 py-3.5 text-sm text-muted">
          <RelativeTime value={secret.updatedAt} />
        </CardCell>
        {/* Last on a card, below the description: `order` puts the description before it. */}
        <CardCell part="actions" className="py-3 pl-3 pr-4 max-sm:order-last">
          {mayManage ? (
            <CardActions className="gap-0.5">
              <Button size="sm" variant="ghost" onClick={onReplace}>
                Replace value<span className="sr-only"> of {secret.name}</span>
              </Button>
              <Button size="sm" variant="ghost" onClick={onEdit}>
                Edit<span className="sr-only"> {secret.name}</span>
              </Button>
              <Button size="sm" variant="ghost" className="text-caution! hover:bg-caution-soft!" onClick={onDelete}>
                Delete<span className="sr-only"> {secret.name}</span>
              </Button>
            </CardActions>
          ) : null}
        </CardCell>
      </RowCard>
      {warning ? (
        <tr data-secret-warning={secret.name} className="max-sm:block">
          <td colSpan={6} className="px-5 pb-3.5 pt-0 max-sm:block max-sm:p-0">
            <p className="flex items-start gap-2 rounded-md border border-caution/40 bg-caution-soft px-3 py-2 text-sm text-caution">
              <svg aria-hidden="true" viewBox="0 0 24 24" className="mt-0.5 size-4 shrink-0" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
                <path d="M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0ZM12 9v4M12 17h.01" />
              </svg>
              <span>
                <span className="sr-only">Warning: </span>
                {warning}
              </span>
            </p>
          </td>
        </tr>
      ) : null}
    </>
  );
}
