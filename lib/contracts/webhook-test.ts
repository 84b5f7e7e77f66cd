import { z } from "zod";

/**
 * A webhook node's test address: while an editor listens on it, one delivery
 * to /hooks-test/{path} is captured for the editor (secrets masked) and runs
 * the listened-to draft. The server stores the listen and streams what
 * happened to it; the editor reads both through these shapes.
 */

/** How long a listen lasts unless a delivery ends it first (seconds). */
export const LISTEN_SECONDS_DEFAULT = 180;
export const LISTEN_SECONDS_MAX = 300;

/** One listen, as the listen route answers it. */
export const WebhookTestListenSchema = z.object({
  listenId: z.string(),
  workflowId: z.string(),
  nodeId: z.string(),
  /** The saved version a test delivery runs. */
  version: z.number().int().positive(),
  /** What follows /hooks-test/ (the node's path or hook id). */
  path: z.string(),
  expiresAt: z.string(),
});
export type WebhookTestListen = z.infer<typeof WebhookTestListenSchema>;

/** A captured delivery as the editor shows it: every header, the credential's, Authorization, Cookie and any stored secret's value masked. */
export const WebhookTestCaptureSchema = z.object({
  method: z.string(),
  path: z.string(),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  headers: z.record(z.string(), z.string()),
  body: z.unknown(),
  receivedAt: z.string(),
});
export type WebhookTestCapture = z.infer<typeof WebhookTestCaptureSchema>;

/** What came of the listen's one delivery: the run it started, or why none started. */
export const WebhookTestResultSchema = z.object({
  capture: WebhookTestCaptureSchema,
  runId: z.string().nullable(),
  problem: z.string().nullable(),
});
export type WebhookTestResult = z.infer<typeof WebhookTestResultSchema>;

/**
 * The listen stream's events (GET …/listen?listen=<id>, Server-Sent Events):
 * `listening` first (the listen), then one of `captured` (a result),
 * `expired` (its time ran out) or `stopped` (stopped, or replaced by a newer
 * listen on the same address); the stream ends after it.
 */
export const LISTEN_EVENTS = ["listening", "captured", "expired", "stopped"] as const;
export type ListenEventType = (typeof LISTEN_EVENTS)[number];
