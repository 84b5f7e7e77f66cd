import { APPROVAL_KIND_HEADLINE, approvalWorkflowTitle, type ApprovalDetail } from "@/lib/contracts/approval";
import { FILE_LINE_MARKING, markHiddenCharacters } from "@/lib/tools/contracts";

/**
 * What every notification of a waiting approval says, whatever carries it
 * (e-mail, a webhook's JSON, Slack, Teams): its title, what would happen as
 * the card's first screen shows it (hidden characters marked, secrets already
 * masked in the stored preview), when it runs out and a link that only opens
 * the card. One place, so no channel tells more than another, or than the card.
 */

/** At most this much of the preview, as the card's first screen shows it; the card has the rest. */
const PREVIEW_LINES = 40;
const PREVIEW_CHARACTERS = 4_000;

/** requested | escalated | reminder | escalated-reminder (lib/server/approval-notifications.ts). */
export type NotificationRound = "requested" | "escalated" | "reminder" | "escalated-reminder";

export interface ApprovalMessage {
  /** "Deploy: Clean up wants to run a command", one line; "Reminder: …" for a reminder. */
  title: string;
  /** What would happen, plain text, hidden characters marked, cut like the card's first screen. */
  whatWillHappen: string;
  /** The card; opening it decides nothing. */
  link: string;
  dueAt: string | null;
  /** Why it is sent: it waits, its deadline escalated it, or its deadline is near. */
  reason: string;
}

export function isReminder(round: NotificationRound): boolean {
  return round === "reminder" || round === "escalated-reminder";
}

export function approvalMessage(approval: ApprovalDetail, publicUrl: string, round: NotificationRound): ApprovalMessage {
  const title = oneLine(`${isReminder(round) ? "Reminder: " : ""}${approvalWorkflowTitle(approval)}: ${approval.nodeLabel} ${APPROVAL_KIND_HEADLINE[approval.kind]}`);
  const reason = isReminder(round)
    ? `It still waits for a decision, and its deadline (${approval.dueAt ?? "none"}, UTC) is near.`
    : approval.escalatedAt !== null
      ? "It waits for a decision (escalated: nobody decided in time)."
      : "It waits for a decision.";
  return { title, whatWillHappen: cutPreview(markedText(approval.preview)), link: approvalLink(approval.id, publicUrl), dueAt: approval.dueAt, reason };
}

/** `<studio>/inbox?approval=<id>`: opens the card after sign-in, and nothing more. */
export function approvalLink(approvalId: string, publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/inbox?approval=${encodeURIComponent(approvalId)}`;
}

/** The text with every hidden or reordering character as its mark (`⟨U+202E⟩`), as the card shows it. */
export function markedText(text: string): string {
  return markHiddenCharacters(text, FILE_LINE_MARKING)
    .segments.map((segment) => segment.text)
    .join("");
}

export function cutPreview(preview: string): string {
  const lines = preview.split("\n");
  let shown = lines.slice(0, PREVIEW_LINES).join("\n");
  if (shown.length > PREVIEW_CHARACTERS) shown = shown.slice(0, PREVIEW_CHARACTERS);
  const cut = shown.length < preview.length;
  return cut ? `${shown}\n… (more on the card)` : shown;
}

export function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, " ").slice(0, 200);
}
