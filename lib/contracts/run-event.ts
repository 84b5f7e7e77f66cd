import { z } from "zod";

/**
 * The run's events as the engine stores and streams them and the run view
 * reads them: one list of types, noun then verb. Adding a type is a change
 * here plus its handling in the run view (lib/run-view/apply-event.ts, whose
 * exhaustive table the type checker and a test hold to this list).
 */
export const RUN_EVENT_TYPES = [
  "run-started",
  "run-resumed",
  "run-awaiting-input",
  "run-succeeded",
  "run-failed",
  "run-cancelled",
  "node-started",
  "node-progress",
  "node-notified",
  "node-succeeded",
  "node-failed",
  "node-skipped",
  "node-text-delta",
  "node-tool-call-started",
  "node-tool-call-finished",
  "approval-requested",
  "approval-decided",
] as const;

export const RunEventTypeSchema = z.enum(RUN_EVENT_TYPES);
export type RunEventType = z.infer<typeof RunEventTypeSchema>;

/** The events after which a run has nothing more to say; its stream then ends. */
export const RUN_ENDING_EVENT_TYPES: ReadonlySet<RunEventType> = new Set(["run-succeeded", "run-failed", "run-cancelled"]);

/**
 * An event as stored and streamed; `seq` is its position in the run (1, 2, 3, …).
 * The envelope is checked here; each type's payload is read by its handler.
 */
export const RunEventSchema = z.object({
  runId: z.string(),
  seq: z.number().int().positive(),
  type: RunEventTypeSchema,
  nodeId: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type RunEvent = z.infer<typeof RunEventSchema>;

/**
 * Reads one streamed event without trusting it: the event, `unknown` for a
 * well-formed event of a type this client does not know (from a newer
 * server: skip it, keep going), or null for something that is no event.
 */
export function readRunEvent(data: string): RunEvent | "unknown" | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = RunEventSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const envelope = RunEventSchema.extend({ type: z.string() }).safeParse(value);
  return envelope.success ? "unknown" : null;
}
