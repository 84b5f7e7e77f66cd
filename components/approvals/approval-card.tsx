"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { CONTROL_CLASS, Field, fieldAria } from "@/components/ui/field";
import { useNow } from "@/components/runs/use-now";
import { ToolIcon } from "@/components/tool-icon";
import { api, ApiError } from "@/lib/client/api";
import { TimeAgo } from "@/components/runs/time-ago";
import { decisionButtonName } from "@/lib/run-view/decision-names";
import { shortRunId } from "@/lib/run-view/run-lineage";
import { hiddenCharactersOf, type HiddenCharacters } from "@/lib/run-view/hidden-characters";
import { alwaysAllowedFolder, type ApprovalPreview as Effect } from "@/lib/tools/contracts";
import { operationTitle, toolTitle, type ToolTitles } from "@/lib/run-view/tool-titles";
import { DIGEST_MISMATCH } from "@/lib/validations/run";
import { APPROVAL_KIND_HEADLINE, approvalWorkflowTitle, type ApprovalCaller, type ApprovalDecision, type ApprovalRecord, type ApprovalSummary, type ApprovalVote } from "@/lib/contracts/approval";
import { alwaysAllowRefusal, type ApprovalPolicy } from "@/lib/contracts/approval-policy";
import { ALWAYS_ALLOW_DEFAULT_DAYS } from "@/lib/contracts/grants";
import type { ApprovalNotificationView } from "@/lib/contracts/notifications";
import { ApprovalPreview } from "./approval-preview";
import { ApprovalDue, ApprovalQuorum, voteRecordedText } from "./approval-standing";
import { ApprovalNotifications } from "./approval-notifications";
import { ApprovalEditor, editProblems, type ApprovalEdit } from "./approval-edit";
import { ArgumentEditDiff } from "./argument-edit-diff";
import { ArgumentList } from "./argument-list";

/**
 * What a card needs about an approval: the inbox's ApprovalDetail, or one the
 * run view assembles from an event's summary (lib/contracts/approval.ts),
 * plus where it belongs. `digest` is sent back with the decision: the server
 * refuses it when the approval is no longer what was shown.
 */
export type ApprovalCardData = ApprovalSummary & {
  /** Who decides and the votes so far (the inbox's ApprovalDetail has them; a run view's event summary does not). */
  policy?: ApprovalPolicy;
  votes?: ApprovalVote[];
  dueAt?: string | null;
  escalatedAt?: string | null;
  /** Who was told it waits and how it went (the inbox's ApprovalDetail has them). */
  notifications?: ApprovalNotificationView[];
  runId: string;
  nodeLabel: string;
  workflowName: string;
  /** The run and step that called its run (a Sub-workflow step), named beside its workflow. */
  calledBy?: ApprovalCaller | null;
  createdAt?: string;
};

interface ApprovalCardProps {
  approval: ApprovalCardData;
  toolTitles: ToolTitles;
  /** Shows the workflow and a link to the run (the inbox); the run view already says where it is. */
  showContext?: boolean;
  /** As a decision is sent: the list should keep the card while the server's change arrives first. */
  onDeciding?: () => void;
  /** After a decision was recorded here. */
  onDecided?: (approval: ApprovalRecord) => void;
  /** After a 409: decided elsewhere, so whatever lists it should refresh. */
  onStale?: () => void;
  /**
   * Whether the person may decide it (approval:decide on its workflow): without it the card is read-only and says who
   * can answer. The server refuses a decision without the scope either way.
   */
  mayDecide?: boolean;
  /** Why they may not (their scope, or the approval's policy: "Only admins may decide this approval."); the scope's words when not given. */
  readOnlyReason?: string | null;
}


/**
 * The folder "Always allow" opens, as the stored approval says: its file
 * preview names the path the gate checked (confined, relative to the step's
 * folder) and, when recorded, that folder itself, so it reads in full.
 * Null when the approval names no file.
 */
function alwaysFolderOf(effect: Effect): string | null {
  if (effect.kind !== "file-change" && effect.kind !== "file-replace") return null;
  const folder = alwaysAllowedFolder(effect.path);
  if (effect.root !== undefined) return folder === "." ? effect.root : `${effect.root.replace(/\/+$/, "")}/${folder}`;
  return folder === "." ? "the top folder" : folder;
}

function outcomeText(approval: Pick<ApprovalRecord, "decision" | "status" | "decidedBy" | "feedback" | "editedArguments">, folder: string | null): string {
  const by = approval.decidedBy ? ` by ${approval.decidedBy.name}` : "";
  if (approval.editedArguments && approval.decision !== "deny") return `Approved with edits${by}. The edited version goes ahead, and the step is told what changed.`;
  switch (approval.decision) {
    case "once":
      return `Approved once${by}. The write goes ahead.`;
    case "always":
      return `Always allowed${by}. Future writes in ${folder ?? "this folder"} won’t ask again.`;
    case "approve":
      return `Approved${by}. It goes ahead.`;
    case "answer":
      return `Answered${by}.`;
    case "deny":
      return `Denied${by}.${approval.feedback ? ` Your reason was passed on: “${approval.feedback}”` : ""}`;
    default:
      return approval.status === "cancelled" ? "Withdrawn: the run was cancelled." : "Decided.";
  }
}

/**
 * One approval: what wants to happen and where, its arguments, a preview,
 * and the decision buttons for its kind. The same card in the inbox and
 * beside the waiting node in the run view.
 */
export function ApprovalCard({ approval, toolTitles, showContext = true, onDeciding, onDecided, onStale, mayDecide = true, readOnlyReason = null }: ApprovalCardProps) {
  const id = useId();
  const now = useNow(30_000);
  const [denying, setDenying] = useState(false);
  const [editing, setEditing] = useState(false);
  const [editIssues, setEditIssues] = useState<Record<string, string>>({});
  const [reason, setReason] = useState("");
  const [answer, setAnswer] = useState("");
  const [answerError, setAnswerError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [decided, setDecided] = useState<ApprovalRecord | null>(null);
  // This person's approval counted toward a policy that needs several: the card says so and offers nothing more.
  const [voted, setVoted] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const cardRef = useRef<HTMLElement>(null);
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  // Whether the decision was made from this card by keyboard or pointer: the buttons it pressed are gone then, so focus goes on to the outcome.
  const focusOutcome = useRef(false);

  useEffect(() => {
    if (!decided || !focusOutcome.current) return;
    focusOutcome.current = false;
    outcomeRef.current?.focus();
  }, [decided]);

  const tool = approval.tool ? toolTitle(toolTitles, approval.tool) : null;
  // The server falls back to the tool's name for an unlabelled node; people read its title instead.
  const label = approval.tool && approval.nodeLabel === approval.tool ? (tool ?? approval.nodeLabel) : approval.nodeLabel;
  const operation = operationTitle(toolTitles, approval.tool, approval.operation);
  const folder = alwaysFolderOf(approval.effect);
  // A policy that needs several people gives no "Always allow" (the server refuses it too); a run view's card knows no policy.
  const mayAlwaysAllow = !approval.policy || alwaysAllowRefusal(approval.policy) === null;
  const pending = approval.status === "pending" && !decided && !stale && !voted;
  const hidden = hiddenCharactersOf(approval.effect, approval.arguments);
  // What the person approved instead of the proposal, once approved with an edit (from this card, or stored).
  const edited = decided?.editedArguments ?? approval.editedArguments ?? null;
  // A run's plan (node `__run__`) lists its workflow's steps, which run as built: only an agent's plan can be edited.
  const editable = approval.kind === "plan" ? approval.nodeId !== "__run__" : approval.kind !== "ask" && approval.tool !== null;
  // Several cards in the inbox show the same buttons: each says which step it decides, what that would do and,
  // where cards of several runs meet (the inbox), which run, as two runs of one workflow ask the same thing.
  const named = (visible: string) => decisionButtonName(visible, label, approval.effect, showContext ? approval.runId : undefined);

  async function decide(decision: ApprovalDecision, feedback?: string, edit?: ApprovalEdit) {
    setBusy(true);
    setError(null);
    focusOutcome.current = cardRef.current?.contains(document.activeElement) ?? false;
    onDeciding?.();
    try {
      const body = {
        decision,
        ...(feedback && feedback.trim() !== "" ? { feedback: feedback.trim() } : {}),
        ...(approval.digest ? { digest: approval.digest } : {}),
        ...edit,
      };
      const result = await api<{ approval: ApprovalRecord & { policy: ApprovalPolicy; votes: ApprovalVote[] } }>(`/api/approvals/${encodeURIComponent(approval.id)}`, { method: "POST", body });
      if (result.approval.status === "pending") setVoted(voteRecordedText(result.approval.policy, result.approval.votes));
      else setDecided(result.approval);
      onDecided?.(result.approval);
    } catch (caught) {
      if (edit && caught instanceof ApiError && caught.status === 422) {
        // Nothing was decided: the form shows each refused field beside it.
        setEditIssues(editProblems(caught));
        setError(caught.message);
      } else if (caught instanceof ApiError && caught.status === 409 && caught.body.reason === DIGEST_MISMATCH) {
        setError(caught.message);
        onStale?.();
      } else if (caught instanceof ApiError && caught.status === 409) {
        setStale(true);
        onStale?.();
      } else {
        setError(caught instanceof ApiError ? caught.message : "The decision could not be sent. Try again.");
      }
    } finally {
      setBusy(false);
    }
  }

  function submitDenial(event: FormEvent) {
    event.preventDefault();
    void decide("deny", reason);
  }

  function submitAnswer(event: FormEvent) {
    event.preventDefault();
    if (answer.trim() === "") {
      setAnswerError("Write an answer first, or deny the question.");
      return;
    }
    setAnswerError(undefined);
    void decide("answer", answer);
  }

  const titleId = `${id}-title`;
  return (
    <article
      ref={cardRef}
      aria-labelledby={titleId}
      className={`min-w-0 rounded-xl border bg-surface shadow-card transition-opacity [overflow-wrap:anywhere] ${pending ? "border-line-strong" : "border-line opacity-90"}`}
      data-approval-id={approval.id}
    >
      <header className="flex items-start gap-3 border-b border-line px-4 py-3">
        <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-md bg-caution-soft text-caution">
          <ToolIcon icon={approval.tool ? (toolTitles[approval.tool]?.icon ?? null) : "list-checks"} domain={approval.tool ? toolTitles[approval.tool]?.domain : undefined} className="size-4" />
        </span>
        <div className="min-w-0 flex-1">
          {/* Focusable from script only: the inbox moves focus here when the card before it leaves. */}
          <h3 id={titleId} tabIndex={-1} className="rounded-sm text-sm font-semibold text-foreground" data-approval-title>
            {label} {APPROVAL_KIND_HEADLINE[approval.kind]}
          </h3>
          <p className="mt-0.5 text-xs text-muted">
            {[tool, operation].filter(Boolean).join(" · ")}
            {showContext ? (
              <>
                {tool ? " in " : "In "}
                <span className="font-medium text-foreground">{approvalWorkflowTitle({ workflowName: approval.workflowName, calledBy: approval.calledBy ?? null })}</span> ·{" "}
                <Link href={`/runs/${approval.runId}`} className="font-medium text-accent underline-offset-4 hover:underline">
                  open run {shortRunId(approval.runId)}
                </Link>
              </>
            ) : null}
            {approval.createdAt ? (
              <>
                {" · asked "}
                <TimeAgo value={approval.createdAt} now={now} />
              </>
            ) : null}
          </p>
        </div>
      </header>

      <div className="space-y-4 px-4 py-4">
        {/* Edited: what went ahead comes first, so the proposal below is not read as what ran. */}
        {edited ? <ArgumentEditDiff proposed={approval.kind === "plan" ? { plan: approval.preview } : approval.arguments} approved={edited} /> : null}
        {edited ? <p className="text-xs font-medium text-muted">What the step proposed, before the edit:</p> : null}
        <ApprovalPreview kind={approval.kind} effect={approval.effect} toolTitle={tool ?? "the tool"} arguments={approval.arguments} />
        {approval.kind !== "mcp" && approval.kind !== "plan" && approval.kind !== "ask" && Object.keys(approval.arguments).length > 0 ? (
          <details className="group" open={approval.kind !== "write"}>
            <summary className="cursor-pointer py-1 text-xs font-medium text-muted hover:text-foreground">Arguments</summary>
            <div className="mt-2">
              <ArgumentList values={approval.arguments} />
            </div>
          </details>
        ) : null}
      </div>

      <footer className="space-y-2 border-t border-line px-4 py-3" aria-live="polite">
        {approval.status === "pending" && !decided && !voted ? (
          <>
            <ApprovalDue policy={approval.policy} dueAt={approval.dueAt} escalatedAt={approval.escalatedAt} now={now} />
            <ApprovalQuorum policy={approval.policy} votes={approval.votes} />
            <ApprovalNotifications notifications={approval.notifications} />
          </>
        ) : null}
        {voted ? (
          <p role="status" className="text-sm font-medium text-safe" data-testid="approval-outcome">
            {voted}
          </p>
        ) : decided ? (
          <p ref={outcomeRef} role="status" tabIndex={-1} className={`rounded-sm text-sm font-medium ${decided.decision === "deny" ? "text-caution" : "text-safe"}`} data-testid="approval-outcome">
            {outcomeText(decided, folder)}
          </p>
        ) : stale ? (
          <p role="status" className="text-sm text-muted">
            Someone already decided this elsewhere; the list is refreshing.
          </p>
        ) : approval.status !== "pending" ? (
          <p className="text-sm text-muted">{outcomeText(approval, folder)}</p>
        ) : !mayDecide ? (
          <p className="text-sm text-muted" data-testid="approval-read-only">
            {readOnlyReason ?? `Only people who may decide approvals on “${approval.workflowName}” can answer this (the approval:decide scope).`}
          </p>
        ) : denying ? (
          <form onSubmit={submitDenial} className="space-y-3">
            <Field id={`${id}-reason`} label="What should it do instead?" help="Optional. Your reason is passed on, so the step can fail with it.">
              <textarea
                {...fieldAria(`${id}-reason`, { help: true })}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                rows={2}
                maxLength={10_000}
                autoFocus
                className={CONTROL_CLASS}
              />
            </Field>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" variant="danger" disabled={busy}>
                {busy ? "Denying…" : "Deny"}
              </Button>
              <Button onClick={() => setDenying(false)} disabled={busy}>
                Back
              </Button>
            </div>
          </form>
        ) : editing ? (
          <ApprovalEditor
            approvalId={approval.id}
            kind={approval.kind}
            proposed={approval.arguments}
            plan={approval.effect.kind === "text" ? approval.effect.text : approval.preview}
            idPrefix={id}
            busy={busy}
            problems={editIssues}
            onApprove={(edit) => void decide(approval.kind === "write" ? "once" : "approve", undefined, edit)}
            onCancel={() => {
              setEditing(false);
              setEditIssues({});
              setError(null);
            }}
          />
        ) : approval.kind === "ask" ? (
          <form onSubmit={submitAnswer} className="space-y-3">
            <Field id={`${id}-answer`} label="Your answer" error={answerError}>
              <textarea
                {...fieldAria(`${id}-answer`, { error: answerError })}
                value={answer}
                onChange={(event) => setAnswer(event.target.value)}
                rows={3}
                maxLength={10_000}
                className={CONTROL_CLASS}
              />
            </Field>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" variant="primary" disabled={busy} aria-label={named("Send answer")}>
                Send answer
              </Button>
              <Button onClick={() => setDenying(true)} disabled={busy} aria-label={named("Deny")}>
                Deny
              </Button>
            </div>
          </form>
        ) : (
          <div className="space-y-2">
            <HiddenCharactersNotice found={hidden} />
            <div className="flex flex-wrap items-center gap-2">
              {approval.kind === "write" ? (
                <>
                  <Button variant="primary" onClick={() => void decide("once")} disabled={busy} aria-label={named("Approve once")}>
                    Approve once
                  </Button>
                  {mayAlwaysAllow ? (
                    <Button onClick={() => void decide("always")} disabled={busy} aria-describedby={`${id}-always`} aria-label={named("Always allow")}>
                      Always allow
                    </Button>
                  ) : null}
                </>
              ) : (
                <Button variant="primary" onClick={() => void decide("approve")} disabled={busy} aria-label={named("Approve")}>
                  Approve
                </Button>
              )}
              {editable ? (
                <Button onClick={() => setEditing(true)} disabled={busy} aria-label={named("Edit and approve")}>
                  Edit and approve
                </Button>
              ) : null}
              <Button variant="ghost" onClick={() => setDenying(true)} disabled={busy} className="text-caution hover:text-caution" aria-label={named("Deny")}>
                Deny
              </Button>
            </div>
            {approval.kind === "write" && mayAlwaysAllow ? (
              <p id={`${id}-always`} className="text-xs text-muted">
                Always allow: future writes in {folder ?? "this folder"} won’t ask again for this workflow, for {approval.policy?.alwaysAllowDays ?? ALWAYS_ALLOW_DEFAULT_DAYS} days.
              </p>
            ) : null}
          </div>
        )}
        {error ? (
          <p role="alert" className="mt-2 text-sm font-medium text-caution">
            {error}
          </p>
        ) : null}
      </footer>
    </article>
  );
}

/** Said above the buttons, so nobody approves without knowing that marks stand for characters they could not see. */
function HiddenCharactersNotice({ found }: { found: HiddenCharacters }) {
  if (!found.hidden) return null;
  return (
    <p role="note" className="rounded-md border border-caution/50 bg-caution-soft px-3 py-2 text-sm font-medium text-caution">
      {found.bidi
        ? "This action holds direction-changing characters, which can make text read in another order than it runs, and may hold other hidden characters. Each is shown as a ⟨U+…⟩ mark where it sits."
        : "This action holds hidden characters (invisible, control or long runs of blanks). Each is shown as a ⟨…⟩ mark where it sits."}
    </p>
  );
}
