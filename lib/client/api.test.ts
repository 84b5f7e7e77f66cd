import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "./api";

afterEach(() => vi.unstubAllGlobals());

/** A 200 answer whose body arrives half, then fails the way a real fetch body does when its request is aborted. */
function halfAnswer(signal: AbortSignal): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"valid":true,"prob'));
      signal.addEventListener("abort", () => controller.error(new DOMException("The operation was aborted.", "AbortError")));
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}

describe("api", () => {
  it("rejects with the abort when the request is aborted while its body arrives, rather than answering {}", async () => {
    const controller = new AbortController();
    vi.stubGlobal("fetch", async (_path: string, init: RequestInit) => halfAnswer(init.signal!));
    const pending = api<{ problems: unknown[] }>("/api/workflows/validate", { body: {}, signal: controller.signal });
    // Abort once the answer has started (the fetch resolved): the body read is what fails.
    await Promise.resolve();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });
});
