import type { WebhookTestListen } from "@/lib/contracts/webhook-test";
import { openTestListen, readTestListen, stopTestListen } from "@/lib/persistence/webhook-test-listens";
import type { ListenForTestBody } from "@/lib/validations/workflow";
import { sseResponse } from "./event-stream";
import { startStudio } from "./studio";

/**
 * An editor listening for a test delivery on one webhook node: the listen is
 * a row every process reads (lib/persistence/webhook-test-listens.ts), and
 * the editor follows it over Server-Sent Events. The stream waits for a
 * wake-up (the delivery was dealt with, here or in another process; it was
 * stopped or replaced) or the listen's expiry, reads the row and reports.
 */

export async function listenForTest(workflowId: string, nodeId: string, body: ListenForTestBody): Promise<WebhookTestListen> {
  const studio = await startStudio();
  const { listen, replaced } = await openTestListen(workflowId, body.version, nodeId, body.seconds, studio.database);
  if (replaced) studio.testListens.publish(replaced, undefined);
  return listen;
}

export async function stopListening(workflowId: string, nodeId: string, listenId: string): Promise<boolean> {
  const studio = await startStudio();
  const stopped = await stopTestListen(workflowId, nodeId, listenId, studio.database);
  if (stopped) studio.testListens.publish(listenId, undefined);
  return stopped;
}

/** `listening` (the listen) first, then one of `captured`, `expired` or `stopped` (lib/contracts/webhook-test.ts), and the end. */
export async function listenStream(workflowId: string, nodeId: string, listenId: string, signal: AbortSignal): Promise<Response> {
  const studio = await startStudio();
  return sseResponse(signal, async (channel) => {
    let expiry: ReturnType<typeof setTimeout> | undefined;
    let announced = false;
    // One read at a time, in order: wake-ups that arrive together read the row once each, after each other.
    let reading = Promise.resolve();
    const report = async () => {
      const now = await readTestListen(workflowId, nodeId, listenId, studio.database);
      if (channel.closed) return;
      if (now.state === "listening") {
        if (!announced) channel.send("listening", now.listen);
        announced = true;
        // The one timer a listen needs: when it runs out, read it once more and say so.
        expiry ??= setTimeout(wake, Math.max(0, Date.parse(now.listen.expiresAt) - Date.now()) + 50);
        return;
      }
      channel.send(now.state, now.state === "captured" ? now.result : now.state === "expired" ? now.listen : {});
      channel.close();
    };
    const wake = () => {
      reading = reading.then(report).catch((error: unknown) => {
        console.error("[studio] could not read a webhook test listen", error);
        channel.close();
      });
    };
    channel.onClose(() => clearTimeout(expiry));
    // Subscribed before the first read: a delivery dealt with in between wakes it again.
    channel.onClose(studio.testListens.subscribe(listenId, wake));
    channel.write("retry: 1000\n\n");
    wake();
    await reading;
  });
}
