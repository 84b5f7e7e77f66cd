import { z } from "zod";

/**
 * How the studio tells people that an approval waits for them (issue 30):
 * an outgoing webhook per workflow or per person, and each person's choice
 * of e-mail, their own webhook and the browser's notification. One schema per
 * thing: the API's bodies, the forms and the stored rows all go through these.
 */

/** An address mail is sent to: one line, something@host. A sign-in name that is not one gets no mail. */
export function isEmailAddress(text: string): boolean {
  return /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/.test(text);
}

export const WEBHOOK_FORMATS = ["json", "slack", "teams"] as const;
export const WebhookFormatSchema = z.enum(WEBHOOK_FORMATS);
export type WebhookFormat = z.infer<typeof WebhookFormatSchema>;

/** What each format is, for the forms. */
export const WEBHOOK_FORMAT_TITLES: Readonly<Record<WebhookFormat, { label: string; explanation: string }>> = {
  json: { label: "JSON", explanation: "The approval as JSON, signed (X-Studio-Signature), for your own receiver." },
  slack: { label: "Slack", explanation: "A Slack incoming webhook's message (text and blocks); paste the hook's URL from Slack." },
  teams: { label: "Microsoft Teams", explanation: "A Teams incoming webhook's message card; paste the connector's or workflow's URL from Teams." },
};

/** The signing secret's bounds: long enough not to be guessed, short enough for a header-sized HMAC key. */
export const MIN_WEBHOOK_SECRET_LENGTH = 16;
export const MAX_WEBHOOK_SECRET_LENGTH = 200;

/**
 * What is wrong with a webhook URL, in words for the form, or null: http(s)
 * only, no user name or password in it (the signing secret stands for them).
 * Whether it leads to this machine or its network is only known when it is
 * resolved, so that is checked at each send (lib/server/notification-webhooks.ts).
 */
export function webhookUrlProblem(text: string): string | null {
  if (text.trim() === "") return "enter the webhook's URL";
  if (!URL.canParse(text.trim())) return "enter a full URL, such as https://hooks.example.com/studio";
  const url = new URL(text.trim());
  if (url.protocol !== "https:" && url.protocol !== "http:") return `use an https:// (or http://) URL, not ${url.protocol}`;
  if (url.username !== "" || url.password !== "") return "leave the user name and password out of the URL; the signing secret proves the message is the studio's";
  return null;
}

const WebhookUrlSchema = z
  .string()
  .trim()
  .max(2000, "use at most 2000 characters")
  .superRefine((text, context) => {
    const problem = webhookUrlProblem(text);
    if (problem !== null) context.addIssue({ code: "custom", message: problem });
  });

export const WebhookSecretSchema = z
  .string()
  .min(MIN_WEBHOOK_SECRET_LENGTH, `use at least ${MIN_WEBHOOK_SECRET_LENGTH} characters (Generate makes one)`)
  .max(MAX_WEBHOOK_SECRET_LENGTH, `use at most ${MAX_WEBHOOK_SECRET_LENGTH} characters`);

/**
 * A webhook as a form sends it. `secret` left out keeps the stored one (the
 * form shows it masked and never has it); a new webhook needs one.
 */
export const WebhookTargetBodySchema = z.strictObject({
  url: WebhookUrlSchema,
  format: WebhookFormatSchema.default("json"),
  secret: WebhookSecretSchema.optional(),
});
export type WebhookTargetBody = z.infer<typeof WebhookTargetBodySchema>;

/** What the forms show of a stored secret: never any of it. */
export const MASKED_WEBHOOK_SECRET = "********";

/** A stored webhook as the API shows it: the secret masked. */
export const WebhookTargetViewSchema = z.object({
  url: z.string(),
  format: WebhookFormatSchema,
  secret: z.literal(MASKED_WEBHOOK_SECRET),
  updatedAt: z.string(),
});
export type WebhookTargetView = z.infer<typeof WebhookTargetViewSchema>;

/** PUT /api/me/notifications: each of the person's channels. `webhook: null` removes theirs. */
export const NotificationChoicesBodySchema = z.strictObject({
  email: z.boolean(),
  browser: z.boolean(),
  webhook: WebhookTargetBodySchema.nullable(),
});
export type NotificationChoicesBody = z.infer<typeof NotificationChoicesBodySchema>;

/** GET /api/me/notifications: the choices, and what the form says beside e-mail. */
export const NotificationChoicesViewSchema = z.object({
  email: z.boolean(),
  browser: z.boolean(),
  webhook: WebhookTargetViewSchema.nullable(),
  /** Where mail goes (their sign-in name, when it is an address); null: no mail can reach them. */
  emailAddress: z.string().nullable(),
  /** Whether the studio has a mail server (STUDIO_SMTP_URL); without one nobody is mailed. */
  mailServer: z.boolean(),
});
export type NotificationChoicesView = z.infer<typeof NotificationChoicesViewSchema>;

/** PUT /api/workflows/{id}/notification-webhook. */
export const WorkflowWebhookBodySchema = WebhookTargetBodySchema;

/** GET /api/workflows/{id}/notification-webhook: its webhook, or null. */
export const WorkflowWebhookViewSchema = z.object({ webhook: WebhookTargetViewSchema.nullable() });
export type WorkflowWebhookView = z.infer<typeof WorkflowWebhookViewSchema>;

export const NOTIFICATION_CHANNELS = ["email", "webhook"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** One notification of an approval as its card lists it: to whom, how, and whether it arrived. */
export const ApprovalNotificationViewSchema = z.object({
  channel: z.enum(NOTIFICATION_CHANNELS),
  /** The person's name, or "the workflow" for the workflow's webhook. */
  to: z.string(),
  /** An e-mail address, or a webhook's host (its URL may hold a token). */
  address: z.string(),
  round: z.string(),
  status: z.enum(["pending", "sent", "failed"]),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
});
export type ApprovalNotificationView = z.infer<typeof ApprovalNotificationViewSchema>;

/** A notification's line on the card: "Webhook to hooks.example.com failed 3 times: 500". */
export function notificationLine(notification: ApprovalNotificationView): string {
  const how = notification.channel === "email" ? `E-mail to ${notification.address}` : `Webhook to ${notification.address}`;
  const reminder = notification.round.endsWith("reminder") ? " (reminder)" : "";
  if (notification.status === "sent") return `${how}${reminder} delivered`;
  const times = `${notification.attempts} time${notification.attempts === 1 ? "" : "s"}`;
  if (notification.status === "failed") return `${how}${reminder} failed ${times}: ${notification.lastError ?? "no answer"}`;
  return notification.attempts === 0 ? `${how}${reminder} waiting to be sent` : `${how}${reminder} failed ${times}, trying again: ${notification.lastError ?? "no answer"}`;
}
