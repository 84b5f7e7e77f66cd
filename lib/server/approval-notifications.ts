import nodemailer from "nodemailer";
import { APPROVAL_KIND_HEADLINE, approvalWorkflowTitle, type ApprovalDetail } from "@/lib/contracts/approval";
import { describeApprovers } from "@/lib/contracts/approval-policy";
import { isEmailAddress, type NotificationChannel } from "@/lib/contracts/notifications";
import type { StudioDatabase } from "@/lib/persistence";
import { getApprovalDetail, listApprovals } from "@/lib/persistence/approval-queries";
import { recordAudit } from "@/lib/persistence/audit-store";
import { newId } from "@/lib/persistence/ids";
import { openWebhooks } from "@/lib/persistence/notification-webhook-store";
import { isUniqueViolation } from "@/lib/persistence/prisma-errors";
import { decidersOf, type ApprovalDecider } from "./approval-deciders";
import { approvalMessage, isReminder, type NotificationRound } from "./approval-message";
import { deliverWebhook, webhookBody, WebhookDeliveryError, type DeliveryOptions } from "./notification-webhooks";

/**
 * Telling the people who may decide an approval that it waits for them
 * (issue 30), by e-mail and by outgoing webhook (a workflow's, and each
 * person's own). Never on a request's or a run's path: a background job,
 * started where runs are driven, passes every STUDIO_NOTIFY_CHECK_MS and
 *
 * 1. sweeps the waiting approvals for a round nobody was told of yet (it
 *    started waiting: `requested`; its deadline escalated it: `escalated`;
 *    its deadline is near: `reminder` / `escalated-reminder`) and writes one
 *    outbox row per channel and person who may decide it, as each chose
 *    (e-mail on or off, their own webhook), plus one for the workflow's
 *    webhook. A sweep rather than a subscriber to `approval-requested`
 *    events: it reads only committed approvals, sees escalations and
 *    deadlines drawing near (which are no run event), and loses nothing over
 *    a restart or to a process that drives runs but does not serve (the
 *    unique row per approval, person, round and channel makes two processes'
 *    sweeps write it once);
 * 2. sends the rows that are due. A try takes its row first (a conditional
 *    update moving `nextAttemptAt` on and counting the attempt), so two
 *    processes never both send it; a refusal (a mail server's, a receiver's
 *    non-2xx, no answer) is tried again after a backoff, at most MAX_ATTEMPTS
 *    times; a webhook to an address the outbound checks refuse fails at once.
 *    Once the server accepted the message the row is marked sent and never
 *    sent again. The one window: a crash after the server accepted and before
 *    the row was marked, when the row is sent again once its lease ran out
 *    (at least once, not exactly once).
 *
 * A row whose approval was decided before it went is dropped. Every message
 * holds what the card shows, masked as the card is (lib/server/approval-message.ts),
 * and a link that only opens the card: a decision is made signed in, on the
 * card, never by a link. Each send and each failure is in the security log,
 * and the card lists them.
 */

export const MAX_ATTEMPTS = 5;
/** The first retry's wait; each next one doubles, up to MAX_BACKOFF_MS. */
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 10 * 60_000;
/** How long a try holds its row: another process may try it after this (a crash mid-send). */
const LEASE_MS = 2 * 60_000;
/** A reminder goes when this share of the deadline's time is left… */
const REMINDER_SHARE = 0.2;
/** …but never later than this before it runs out. */
const REMINDER_AT_LEAST_MS = 60_000;

export interface NotificationJob {
  check(): Promise<void>;
  stop(): void;
}

/** Whatever sends a message; the SMTP transport, or a test's. Resolves once the server accepted it. */
export type SendMail = (message: { from: string; to: string; subject: string; text: string }) => Promise<unknown>;

export interface NotificationOptions {
  database: StudioDatabase;
  /** The mail server (STUDIO_SMTP_URL); without one nobody is mailed, and webhooks still go. */
  smtpUrl: string | undefined;
  from: string | undefined;
  publicUrl: string;
  everyMs: number;
  log: (message: string, error?: unknown) => void;
  send?: SendMail;
  /** The outbound checks' exceptions and resolver for webhooks. */
  webhooks: DeliveryOptions;
  /** For tests: the clock. */
  now?: () => number;
  /** A notification was delivered, or failed for good: whoever drives its run says so on the run's timeline (RunDriver.approvalChanged). */
  told?: (approvalId: string, runId: string) => Promise<void>;
}

interface Mail {
  smtpUrl: string;
  from: string;
  send: SendMail;
}

export type PassOptions = NotificationOptions & { mail: Mail | null; now: () => number };

export function startApprovalNotifications(options: NotificationOptions): NotificationJob {
  const each = passOptions(options);
  let running: Promise<void> | null = null;
  const check = (): Promise<void> => {
    running ??= notificationPass(each)
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

/** One pass: sweep, remind, send. Exported for tests that run two at once, as two processes would. */
export async function notificationPass(options: PassOptions): Promise<void> {
  // Without a mail server and without any webhook nothing can be told: nothing is queued, nothing is read again.
  if (options.mail === null && (await options.database.notificationWebhook.count()) === 0) return;
  await enqueueWaiting(options);
  await enqueueReminders(options);
  await sendDue(options);
}

/** Options for a pass as startApprovalNotifications makes them: for tests driving passes by hand. */
export function passOptions(options: NotificationOptions): PassOptions {
  const mail: Mail | null =
    options.smtpUrl === undefined
      ? null
      : { smtpUrl: options.smtpUrl, from: options.from ?? `Neurosurfer Studio <studio@${new URL(options.smtpUrl).hostname}>`, send: options.send ?? smtpSender(options.smtpUrl) };
  return { ...options, mail, now: options.now ?? Date.now };
}

function roundOf(approval: Pick<ApprovalDetail, "escalatedAt">): "requested" | "escalated" {
  return approval.escalatedAt === null ? "requested" : "escalated";
}

/**
 * The current rounds of the waiting approvals that have no rows yet: one
 * indexed query finds those, so a pass over a studio where everyone was told
 * costs one query.
 */
async function enqueueWaiting(options: PassOptions): Promise<void> {
  const untold = await options.database.approval.findMany({
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
    const approval = await getApprovalDetail(id, options.database).catch(() => null);
    if (approval === null || approval.status !== "pending") continue;
    await enqueueRound(approval, roundOf(approval), options);
  }
}

/**
 * When the reminder of a deadline from `startedAt` to `dueAt` is due: when
 * REMINDER_SHARE of the time is left, and at least REMINDER_AT_LEAST_MS
 * before it runs out; null when the whole time is shorter than that (the
 * first message was the reminder).
 */
export function reminderAt(startedAt: string, dueAt: string): number | null {
  const start = Date.parse(startedAt);
  const due = Date.parse(dueAt);
  const lead = Math.max((due - start) * REMINDER_SHARE, REMINDER_AT_LEAST_MS);
  return lead >= due - start ? null : due - lead;
}

/** A reminder round for each waiting approval whose deadline is near, once (the unique row). */
async function enqueueReminders(options: PassOptions): Promise<void> {
  const now = options.now();
  const near = (await listApprovals({ status: "pending", limit: 1000 }, options.database)).filter((approval) => {
    if (approval.dueAt === null) return false;
    const at = reminderAt(approval.escalatedAt ?? approval.createdAt, approval.dueAt);
    return at !== null && at <= now && now < Date.parse(approval.dueAt);
  });
  if (near.length === 0) return;
  const reminded = await options.database.approvalNotification.findMany({
    where: { approvalId: { in: near.map((approval) => approval.id) }, round: { in: ["reminder", "escalated-reminder"] } },
    select: { approvalId: true, round: true },
  });
  const done = new Set(reminded.map((row) => `${row.approvalId} ${row.round}`));
  for (const approval of near) {
    const round = approval.escalatedAt === null ? "reminder" : "escalated-reminder";
    if (!done.has(`${approval.id} ${round}`)) await enqueueRound(approval, round, options);
  }
}

interface OutboxRow {
  personId: string;
  channel: NotificationChannel;
  address: string;
  webhookId?: string;
  status?: "dropped";
  lastError?: string;
}

/**
 * The rows of one round: per person who may decide it, an e-mail (as they
 * chose, with a mail server and an address) and their own webhook; the
 * workflow's webhook; and when nobody can be told, one `dropped` row saying
 * why, so the round is not looked at again.
 */
async function enqueueRound(approval: ApprovalDetail, round: NotificationRound, options: PassOptions): Promise<void> {
  const { database } = options;
  const deciders = await decidersOf(approval, database);
  const [choices, workflowHook] = await Promise.all([
    database.person.findMany({ where: { id: { in: deciders.map((person) => person.id) } }, select: { id: true, notifyByEmail: true, notificationWebhook: { select: { id: true, url: true } } } }),
    database.notificationWebhook.findUnique({ where: { workflowId: approval.workflowId }, select: { id: true, url: true } }),
  ]);
  const choiceOf = new Map(choices.map((choice) => [choice.id, choice]));
  const rows: OutboxRow[] = [];
  for (const person of deciders) {
    const choice = choiceOf.get(person.id);
    if (options.mail !== null) rows.push(emailRow(person, choice?.notifyByEmail ?? true));
    if (choice?.notificationWebhook) rows.push({ personId: person.id, channel: "webhook", address: new URL(choice.notificationWebhook.url).host, webhookId: choice.notificationWebhook.id });
  }
  if (workflowHook) rows.push({ personId: "", channel: "webhook", address: new URL(workflowHook.url).host, webhookId: workflowHook.id });
  if (rows.length === 0) rows.push({ personId: "", channel: "email", address: "", status: "dropped", lastError: deciders.length === 0 ? "nobody may decide it" : "nobody chose a way to be told" });
  for (const row of rows) {
    try {
      await database.approvalNotification.create({ data: { id: newId(), approvalId: approval.id, round, nextAttemptAt: new Date(options.now()), ...row } });
    } catch (error) {
      // Another process's sweep wrote it first.
      if (!isUniqueViolation(error)) throw error;
    }
  }
}

function emailRow(person: ApprovalDecider, wanted: boolean): OutboxRow {
  if (!wanted) return { personId: person.id, channel: "email", address: "", status: "dropped", lastError: "they turned e-mail off" };
  if (!isEmailAddress(person.login)) return { personId: person.id, channel: "email", address: "", status: "dropped", lastError: "no e-mail address (their sign-in name is not one)" };
  return { personId: person.id, channel: "email", address: person.login };
}

async function sendDue(options: PassOptions): Promise<void> {
  const { database } = options;
  const due = await database.approvalNotification.findMany({ where: { status: "pending", nextAttemptAt: { lte: new Date(options.now()) } }, orderBy: { createdAt: "asc" }, take: 100 });
  for (const row of due) {
    // Take it: only the process whose update matched sends it.
    const { count } = await database.approvalNotification.updateMany({
      where: { id: row.id, status: "pending", nextAttemptAt: row.nextAttemptAt },
      data: { nextAttemptAt: new Date(options.now() + LEASE_MS), attempts: { increment: 1 } },
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
  channel: string;
  address: string;
  webhookId: string | null;
  attempts: number;
}

async function sendOne(row: NotificationRow, options: PassOptions): Promise<void> {
  const { database } = options;
  const drop = (reason: string) => database.approvalNotification.update({ where: { id: row.id }, data: { status: "dropped", lastError: reason } });
  const approval = await getApprovalDetail(row.approvalId, database).catch(() => null);
  if (approval === null || approval.status !== "pending") {
    await drop("decided before it was sent");
    return;
  }
  const round = row.round as NotificationRound;
  const audit = { actor: "notifications", action: "approval-notified" as const, target: approval.workflowId };
  const detail = { approval: approval.id, run: approval.runId, person: row.personId || null, channel: row.channel, to: row.address, round, attempt: row.attempts };
  let send: () => Promise<unknown>;
  if (row.channel === "webhook") {
    const target = (await openWebhooks(row.webhookId === null ? [] : [row.webhookId], database)).get(row.webhookId ?? "");
    if (target === undefined) {
      await drop("the webhook was removed before it was sent");
      return;
    }
    const body = webhookBody(target.format, { approval, message: approvalMessage(approval, options.publicUrl, round), round });
    send = () => deliverWebhook(target, body, options.webhooks);
  } else {
    const mail = options.mail;
    if (mail === null) {
      await drop("no mail server is set any more");
      return;
    }
    const message = approvalMail(approval, row.personId, await decidersOf(approval, database), options.publicUrl, round);
    send = () => mail.send({ from: mail.from, to: row.address, ...message });
  }
  try {
    await send();
  } catch (error) {
    const reason = scrub(error, options.smtpUrl);
    const last = row.attempts >= MAX_ATTEMPTS || (error instanceof WebhookDeliveryError && error.permanent);
    const wait = Math.min(FIRST_BACKOFF_MS * 2 ** (row.attempts - 1), MAX_BACKOFF_MS);
    await database.approvalNotification.update({
      where: { id: row.id },
      data: last ? { status: "failed", lastError: reason } : { lastError: reason, nextAttemptAt: new Date(options.now() + wait) },
    });
    options.log(`the ${row.channel} notification of approval ${approval.id} to ${row.address || "nobody"} was refused (attempt ${row.attempts}): ${reason}${last ? "; giving up" : "; trying again"}`);
    await recordAudit({ ...audit, action: "approval-notification-failed", detail: { ...detail, error: reason, willRetry: !last } }, database);
    if (last) await tellTheRun(approval, options);
    return;
  }
  // Accepted: marked at once. A crash before this line is the one way it goes twice (see above).
  await database.approvalNotification.update({ where: { id: row.id }, data: { status: "sent", sentAt: new Date(options.now()), lastError: null } });
  await recordAudit({ ...audit, detail }, database);
  await tellTheRun(approval, options);
}

/** The run's timeline tells of the notification; it is stored either way, so a failure here leaves it to be told with the decision. */
async function tellTheRun(approval: ApprovalDetail, options: PassOptions): Promise<void> {
  await options.told?.(approval.id, approval.runId).catch((error: unknown) => options.log(`could not tell run ${approval.runId} of approval ${approval.id}'s notification`, error));
}

/** The error's words, never the mail server's URL (it may hold the password), one line, bounded. */
function scrub(error: unknown, smtpUrl: string | undefined): string {
  let text = error instanceof Error ? error.message : String(error);
  const url = smtpUrl !== undefined && URL.canParse(smtpUrl) ? new URL(smtpUrl) : null;
  for (const secret of [smtpUrl ?? "", url?.password ? decodeURIComponent(url.password) : "", url?.password ?? ""]) {
    if (secret !== "") text = text.split(secret).join("***");
  }
  return text.replace(/\s+/g, " ").slice(0, 500);
}

/** The mail for one decider: subject, and a plain-text body with what would happen, who else may decide, the deadline and the link. */
export function approvalMail(
  approval: ApprovalDetail,
  personId: string,
  deciders: readonly ApprovalDecider[],
  publicUrl: string,
  round: NotificationRound = approval.escalatedAt === null ? "requested" : "escalated",
): { subject: string; text: string } {
  const message = approvalMessage(approval, publicUrl, round);
  const others = deciders.filter((decider) => decider.id !== personId).map((decider) => decider.displayName);
  const needs = approval.policy.required > 1 ? `It needs ${approval.policy.required} different people to approve (${approval.votes.filter((vote) => vote.approve).length} so far).` : null;
  const lines = [
    `The step “${approval.nodeLabel}” of “${approvalWorkflowTitle(approval)}” ${APPROVAL_KIND_HEADLINE[approval.kind]} and waits for a decision${approval.escalatedAt !== null ? " (escalated: nobody decided in time)" : ""}.`,
    isReminder(round) ? `Reminder: its deadline is near (${approval.dueAt} UTC).` : null,
    "",
    "What would happen:",
    "",
    message.whatWillHappen,
    "",
    needs,
    others.length > 0 ? `Others who may decide: ${others.join(", ")}.` : "Nobody else may decide it.",
    approval.policy.approvers.length > 0 ? `Who decides: ${describeApprovers(approval.policy.approvers)}.` : null,
    approval.dueAt !== null ? `Deadline: ${approval.dueAt} (UTC); then ${deadlineOutcome(approval)}.` : null,
    "",
    `Open it to decide (sign in first): ${message.link}`,
    "",
    "This link only opens the approval: nothing is decided until you decide on its card.",
  ];
  return { subject: message.title, text: lines.filter((line) => line !== null).join("\n") };
}

function deadlineOutcome(approval: ApprovalDetail): string {
  const then = approval.policy.deadline?.then ?? "deny";
  if (then === "escalate" && approval.escalatedAt === null) return "it goes to the escalation's approvers";
  if (then === "answer" && approval.kind === "ask") return "it takes its default answer";
  return "it is denied";
}
