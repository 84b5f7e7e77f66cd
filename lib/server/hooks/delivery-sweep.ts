import { forgetOldDeliveries } from "@/lib/persistence/publishing";
import type { StudioDatabase } from "@/lib/persistence";

/** How often the idempotency keys past their window are removed. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Removes the idempotency keys of webhook deliveries older than their 24 h
 * window, at start and then hourly, so the table holds about a day of keys
 * rather than every key ever sent (a key past its window is also forgotten
 * when a delivery brings it again). The timer never keeps the process alive.
 */
export function sweepOldDeliveries(database: StudioDatabase, log: (message: string, error?: unknown) => void): () => void {
  const sweep = () => void forgetOldDeliveries(database).catch((error: unknown) => log("could not forget old webhook idempotency keys", error));
  sweep();
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
