import nodemailer from "nodemailer";
import { APPROVAL_KIND_HEADLINE, approvalWorkflowTitle, type ApprovalDetail } from "@/lib/contracts/approval";
import { describeApprovers } from "@/lib/contracts/approval-policy";
import type { StudioDatabase } from "@/lib/persistence";
import { getApprovalDetail } from "@/lib/persistence/approval-queries";
import { recordAudit } from "@/lib/persistence/audit-store";
import { newId } from "@/lib/persistence/ids";
import { isUniqueViolation } from "@/lib/persistence/prisma-errors";
import { decidersOf, type ApprovalDecider } from "./approval-deciders";

/**
 * E-mail telling the people who may decide an approval that it waits for them
 * (issue 30). Never on a request's or a run's path: a background job, started
 * where runs are driven, passes every STUDIO_NOTIFY_CHECK_MS and
 *
 * 1. sweeps the waiting approvals for a round nobody was told of yet (it
 *    started waiting: `requested`; its deadline escalated it: `escalated`)
 *    and writes one outbox row per person who may decide it and has an
 *    address. A sweep rather than a subscriber to `approval-requested`
 *    events: it reads only committed approvals, sees escalations (which are
 *    no run event), and loses nothing over a restart or to a process that
 *    drives runs but does not serve (the unique row per approval, person and
 *    round makes two processes' sweeps write it once);
 * 2. sends the rows that are due. A try takes its row first (a conditional
 *    update moving `nextAttemptAt` on and counting the attempt), so two
 *    processes never both send it; a refusal is tried again after a backoff,
 *    at most MAX_ATTEMPTS times; once the mail server accepted the message
 *    the row is marked sent and never sent again. The one window: a crash
 *    after the server accepted and before the row was marked, when the row is
 *    sent again once its lease ran out (at least once, not exactly once).
 *
 * A row whose approval was decided before it went is dropped. The mail holds
 * what the card shows, masked as the card is, and a link that only opens the
 * card: a decision is made signed in, on the card, never by a link.
 */

export const MAX_ATTEMPTS = 5;
/** The first retry's wait; each next one doubles, up to MAX_BACKOFF_MS. */
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 10 * 60_000;
/** How long a try holds its row: another process may try it after this (a crash mid-send). */
const LEASE_MS = 2 * 60_000;
/** At most this much of the preview, as the card's first screen shows it; the card has the rest. */
const PREVIEW_LINES = 40;
const PREVIEW_CHARACTERS = 4_000;
/** An address we send to: one line, something@host. */
const ADDRESS = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

export interface NotificationJob {
  check(): Promise<void>;
  stop(): void;
}

/** Whatever sends a message; the SMTP transport, or a test's. Resolves once the server accepted it. */
export type SendMail = (message: { from: string; to: string; subject: string; text: string }) => Promise<unknown>;

interface NotificationOptions {
  database: StudioDatabase;
  smtpUrl: string;
  from: string | undefined;
  publicUrl: string;
  everyMs: number;
  log: (message: string, error?: unknown) => void;
  send?: SendMail;
}

export function startApprovalNotifications(options: NotificationOptions): NotificationJob {
  const send = options.send ?? smtpSender(options.smtpUrl);
  const from = options.from ?? `Neurosurfer Studio <studio@${new URL(options.smtpUrl).hostname}>`;
  let running: Promise<void> | null = null;
  const check = (): Promise<void> => {
    running ??= pass({ ...options, from, send })
      .catch((error: unknown) => options.log("could not send the approvals' notifications; the next pass tries again", scrub(error, options.smtpUrl)))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void check(), options.everyMs);
  timer.unref();
  void check();
  return { check, stop: () => clearInterval(timer) };
}

function smtpSender(smtpUrl: string): SendMail {
  const transport = nodemailer.createTransport(smtpUrl);
  return (message) => transport.sendMail(message);
}

type PassOptions = NotificationOptions & { from: string; send: SendMail };

async function pass(options: PassOptions): Promise<void> {
  await enqueue(options.database);
  await sendDue(options);
}

function roundOf(approval: Pick<ApprovalDetail, "escalatedAt">): "requested" | "escalated" {
  return approval.escalatedAt === null ? "requested" : "escalated";
}

/**
 * One row per person who may decide each waiting approval's current round, unless its round has rows already: one
 * indexed query finds those, so a pass over a studio where everyone was told costs one query. A decider without an
 * address, or an approval nobody may decide, gets a `dropped` row, so it is not looked at again.
 */
async function enqueue(database: StudioDatabase): Promise<void> {
  const untold = await database.approval.findMany({
    where: {
      status: "pending",
      OR: [
        { escalatedAt: null, notifications: { none: { round: "requested" } } },
        { escalatedAt: { not: null }, notifications: { none: { round: "escalated" } } },
      ],
    },
    select: { id: true },
    orderBy: { createdAt: "asc" },
    take: 200,
  });
  for (const { id } of untold) {
    const approval = await getApprovalDetail(id, database).catch(() => null);
    if (approval === null || approval.status !== "pending") continue;
    const round = roundOf(approval);
    const deciders = await decidersOf(approval, database);
    const rows = deciders.map((person) =>
      ADDRESS.test(person.login)
        ? { personId: person.id, address: person.login }
        : { personId: person.id, address: "", status: "dropped", lastError: "no e-mail address (their sign-in name is not one)" },
    );
    if (rows.length === 0) rows.push({ personId: "", address: "", status: "dropped", lastError: "nobody may decide it" });
    for (const row of rows) {
      try {
        await database.approvalNotification.create({ data: { id: newId(), approvalId: approval.id, round, channel: "email", ...row } });
      } catch (error) {
        // Another process's sweep wrote it first.
        if (!isUniqueViolation(error)) throw error;
      }
    }
  }
}

async function sendDue(options: PassOptions): Promise<void> {
  const { database } = options;
  const due = await database.approvalNotification.findMany({ where: { status: "pending", nextAttemptAt: { lte: new Date() } }, orderBy: { createdAt: "asc" }, take: 100 });
  for (const row of due) {
    // Take it: only the process whose update matched sends it.
    const { count } = await database.approvalNotification.updateMany({
      where: { id: row.id, status: "pending", nextAttemptAt: row.nextAttemptAt },
      data: { nextAttemptAt: new Date(Date.now() + LEASE_MS), attempts: { increment: 1 } },
    });
    if (count === 0) continue;
    await sendOne({ ...row, attempts: row.attempts + 1 }, options);
  }
}

interface NotificationRow {
  id: string;
  approvalId: string;
  personId: string;
  round: string;
  address: string;
  attempts: number;
}

async function sendOne(row: NotificationRow, options: PassOptions): Promise<void> {
  const { database } = options;
  const approval = await getApprovalDetail(row.approvalId, database).catch(() => null);
  if (approval === null || approval.status !== "pending") {
    await database.approvalNotification.update({ where: { id: row.id }, data: { status: "dropped", lastError: "decided before it was sent" } });
    return;
  }
  const deciders = await decidersOf(approval, database);
  const message = approvalMail(approval, row.personId, deciders, options.publicUrl);
  const audit = { actor: "notifications", action: "approval-notified" as const, target: approval.workflowId };
  const detail = { approval: approval.id, run: approval.runId, person: row.personId, channel: "email", round: row.round, attempt: row.attempts };
  try {
    await options.send({ from: options.from, to: row.address, ...message });
  } catch (error) {
    const reason = scrub(error, options.smtpUrl);
    const last = row.attempts >= MAX_ATTEMPTS;
    const wait = Math.min(FIRST_BACKOFF_MS * 2 ** (row.attempts - 1), MAX_BACKOFF_MS);
    await database.approvalNotification.update({
      where: { id: row.id },
      data: last ? { status: "failed", lastError: reason } : { lastError: reason, nextAttemptAt: new Date(Date.now() + wait) },
    });
    options.log(`the notification of approval ${approval.id} to person ${row.personId} was refused (attempt ${row.attempts}): ${reason}${last ? "; giving up" : "; trying again"}`);
    await recordAudit({ ...audit, action: "approval-notification-failed", detail: { ...detail, error: reason, willRetry: !last } }, database);
    return;
  }
  // Accepted: marked at once. A crash before this line is the one way it goes twice (see above).
  await database.approvalNotification.update({ where: { id: row.id }, data: { status: "sent", sentAt: new Date(), lastError: null } });
  await recordAudit({ ...audit, detail }, database);
}

/** The error's words, never the mail server's URL (it may hold the password), one line, bounded. */
function scrub(error: unknown, smtpUrl: string): string {
  let text = error instanceof Error ? error.message : String(error);
  const url = URL.canParse(smtpUrl) ? new URL(smtpUrl) : null;
  for (const secret of [smtpUrl, url?.password ? decodeURIComponent(url.password) : "", url?.password ?? ""]) {
    if (secret !== "") text = text.split(secret).join("***");
  }
  return text.replace(/\s+/g, " ").slice(0, 500);
}

/** The mail for one decider: subject, and a plain-text body with what would happen, who else may decide, the deadline and the link. */
export function approvalMail(approval: ApprovalDetail, personId: string, deciders: readonly ApprovalDecider[], publicUrl: string): { subject: string; text: string } {
  const subject = oneLine(`${approvalWorkflowTitle(approval)}: ${approval.nodeLabel} ${APPROVAL_KIND_HEADLINE[approval.kind]}`);
  const others = deciders.filter((decider) => decider.id !== personId).map((decider) => decider.displayName);
  const link = `${publicUrl.replace(/\/+$/, "")}/inbox?approval=${encodeURIComponent(approval.id)}`;
  const needs = approval.policy.required > 1 ? `It needs ${approval.policy.required} different people to approve (${approval.votes.filter((vote) => vote.approve).length} so far).` : null;
  const lines = [
    `The step “${approval.nodeLabel}” of “${approvalWorkflowTitle(approval)}” ${APPROVAL_KIND_HEADLINE[approval.kind]} and waits for a decision${approval.escalatedAt !== null ? " (escalated: nobody decided in time)" : ""}.`,
    "",
    "What would happen:",
    "",
    cutPreview(approval.preview),
    "",
    needs,
    others.length > 0 ? `Others who may decide: ${others.join(", ")}.` : "Nobody else may decide it.",
    approval.policy.approvers.length > 0 ? `Who decides: ${describeApprovers(approval.policy.approvers)}.` : null,
    approval.dueAt !== null ? `Deadline: ${approval.dueAt} (UTC); then ${deadlineOutcome(approval)}.` : null,
    "",
    `Open it to decide (sign in first): ${link}`,
    "",
    "This link only opens the approval: nothing is decided until you decide on its card.",
  ];
  return { subject, text: lines.filter((line) => line !== null).join("\n") };
}

function deadlineOutcome(approval: ApprovalDetail): string {
  const then = approval.policy.deadline?.then ?? "deny";
  if (then === "escalate" && approval.escalatedAt === null) return "it goes to the escalation's approvers";
  if (then === "answer" && approval.kind === "ask") return "it takes its default answer";
  return "it is denied";
}

function cutPreview(preview: string): string {
  const lines = preview.split("\n");
  let shown = lines.slice(0, PREVIEW_LINES).join("\n");
  if (shown.length > PREVIEW_CHARACTERS) shown = shown.slice(0, PREVIEW_CHARACTERS);
  const cut = shown.length < preview.length;
  return cut ? `${shown}\n… (more on the card)` : shown;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, " ").slice(0, 200);
}
