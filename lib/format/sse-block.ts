/**
 * The Server-Sent Events wire format, read: a buffer of text split into its
 * blocks (a blank line ends each), and a block into its fields. Shared by the
 * CLI that follows a run on a studio and the tests' SSE client.
 */

export interface SseBlock {
  /** The `id:` field, when the block had one. */
  id: string | null;
  /** The `event:` field; `message` when absent, as in the browser. */
  event: string;
  /** The `data:` lines, joined with line feeds; "" when there were none. */
  data: string;
  /** Whether the block dispatches a message (one with only `retry:` or comments does not). */
  dispatches: boolean;
}

/** The complete blocks at the start of `buffer`, and what is left of it (a block not yet ended). */
export function takeSseBlocks(buffer: string): { blocks: SseBlock[]; rest: string } {
  const blocks: SseBlock[] = [];
  let rest = buffer;
  for (let boundary = rest.search(/\r?\n\r?\n/); boundary >= 0; boundary = rest.search(/\r?\n\r?\n/)) {
    blocks.push(parseSseBlock(rest.slice(0, boundary)));
    rest = rest.slice(boundary).replace(/^\r?\n\r?\n/, "");
  }
  return { blocks, rest };
}

export function parseSseBlock(block: string): SseBlock {
  let id: string | null = null;
  let event = "message";
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") id = value;
    else if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  return { id, event, data: data.join("\n"), dispatches: data.length > 0 || id !== null || event !== "message" };
}

/**
 * The blocks that dispatch a message, read from a response body as they
 * arrive; cancelling the body when the reader stops early (or the stream
 * fails), so the server stops sending.
 */
export async function* readSseBlocks(body: ReadableStream<BufferSource>): AsyncGenerator<SseBlock> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const { blocks, rest } = takeSseBlocks(buffer + value);
      buffer = rest;
      for (const block of blocks) if (block.dispatches) yield block;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
