import http from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted reply of the model: text, tool calls, or both. */
export interface ScriptedReply {
  text?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown>; id?: string }[];
  /**
   * When streaming: the text is sent, then the reply waits for this promise
   * before its tool calls and its end, so a test can watch a half-streamed
   * answer for as long as it needs (no timers).
   */
  holdAfterText?: Promise<void>;
}

/** A request the server received, as sent. */
export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body text, exactly as it arrived. */
  rawBody: string;
  body: Record<string, unknown>;
}

/**
 * One entry of the script: a reply, or a function of the request body that
 * returns one, possibly later (a promise), e.g. to hold a reply back while a
 * test kills the client.
 */
export type ScriptedStep = ScriptedReply | ((body: Record<string, unknown>) => ScriptedReply | Promise<ScriptedReply>);

export interface ScriptedOpenAIServer {
  /** The base URL to configure, ending in `/v1`. */
  readonly baseUrl: string;
  /** Every request, in order. */
  readonly requests: RecordedRequest[];
  /** Adds replies to the end of the script. */
  script(...replies: ScriptedStep[]): void;
  close(): Promise<void>;
}

/**
 * A small OpenAI-compatible server for tests: `POST /v1/chat/completions`
 * answers each request with the next scripted reply (tool calls included),
 * streamed as server-sent events when the request asks for `stream`, else as
 * one JSON completion. It records every request, headers and body, so a test
 * can check what a model would have been sent. When the script runs out it
 * answers "(no more scripted replies)".
 *
 * @example
 *   const model = await startScriptedOpenAIServer();
 *   model.script({ toolCalls: [{ name: "write_file", arguments: { path: "a.txt", content: "hi" } }] }, { text: "Done." });
 */
export async function startScriptedOpenAIServer(): Promise<ScriptedOpenAIServer> {
  const requests: RecordedRequest[] = [];
  const replies: ScriptedStep[] = [];
  let counter = 0;

  const server = http.createServer((request, response) => {
    let rawBody = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (rawBody += chunk));
    request.on("end", async () => {
      let body: Record<string, unknown> = {};
      try {
        body = rawBody ? (JSON.parse(rawBody) as Record<string, unknown>) : {};
      } catch {
        response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "the body is not JSON" } }));
        return;
      }
      requests.push({ path: request.url ?? "", headers: request.headers, rawBody, body });
      if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
        response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${request.method} ${request.url}` } }));
        return;
      }
      counter += 1;
      const next = replies.shift();
      const reply = typeof next === "function" ? await next(body) : (next ?? { text: "(no more scripted replies)" });
      // The client may have gone away while a held reply waited.
      if (response.destroyed) return;
      const model = typeof body.model === "string" ? body.model : "scripted";
      const id = `chatcmpl-${counter}`;
      const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
        id: call.id ?? `call_${counter}_${index}`,
        type: "function" as const,
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      }));
      const finishReason = toolCalls.length > 0 ? "tool_calls" : "stop";
      const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
      const created = Math.floor(Date.now() / 1000);

      if (body.stream !== true) {
        response.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id,
            object: "chat.completion",
            created,
            model,
            choices: [
              {
                index: 0,
                message: { role: "assistant", content: reply.text ?? null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
                finish_reason: finishReason,
              },
            ],
            usage,
          }),
        );
        return;
      }
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
      const send = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
        response.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
      send({ role: "assistant", content: "" }, null);
      // Text in a few pieces, as a real server streams it.
      const text = reply.text ?? "";
      for (let start = 0; start < text.length; start += 8) send({ content: text.slice(start, start + 8) }, null);
      if (reply.holdAfterText) await reply.holdAfterText;
      toolCalls.forEach((call, index) => send({ tool_calls: [{ index, ...call }] }, null));
      send({}, finishReason);
      response.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage })}\n\n`);
      response.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...more) => void replies.push(...more),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
