import { draftWorkflow, type ArchitectEvent } from "@/lib/architect/architect";
import type { DraftVocabulary } from "@/lib/architect/draft-schema";
import type { DraftRequest } from "@/lib/contracts/architect";
import { parseSecretReference } from "@/lib/tools/contracts";
import { createAgentModel } from "@/lib/workflow/agent/agent-model";
import { WorkflowDefinitionSchema, type WorkflowDefinition } from "@/lib/workflow/definition";
import type { Principal } from "./access/principal";
import { secretsFor } from "./access/secret-view";
import { HttpError } from "./http";
import { startStudio } from "./studio";
import { catalogEntry } from "./tool-catalog";
import { validateWithStudio } from "./workflow-api";

/*
 * The Architect in the studio (POST /api/architect/drafts): the person's
 * chosen model, the studio's catalog (its own tools and the connected MCP
 * servers') and the names of the secrets they may use, the studio's own
 * validator for the workflow being edited; the rounds streamed as server-sent
 * events, read one at a time as the client takes them (a client that stops
 * reading stops the drafting; one that leaves aborts the model's call).
 * Nothing is saved or run: the editor shows the draft as a proposal.
 */

/** What the Architect may use, as `principal` sees it: every callable tool, and only the secrets they may use. */
async function vocabularyFor(principal: Principal): Promise<DraftVocabulary> {
  const studio = await startStudio();
  const secrets = await secretsFor(principal, studio.database);
  return { tools: studio.pool().all().map(catalogEntry), secretNames: secrets.map((secret) => secret.name) };
}

/** The person's model: the API key read from the stored secret it names, one of `usable` (422 naming `model.apiKey` otherwise). */
async function modelFor(request: DraftRequest, usable: readonly string[]) {
  const studio = await startStudio();
  let apiKey: string | undefined;
  if (request.model.apiKey) {
    const name = parseSecretReference(request.model.apiKey)!;
    apiKey = usable.includes(name) ? await studio.secrets(name) : undefined;
    if (apiKey === undefined) {
      throw new HttpError(422, `model.apiKey: no stored secret ${name} you may use; store the provider's key in Settings → Secrets.`, {
        issues: [{ path: "model.apiKey", message: `no stored secret ${name} you may use`, code: "custom" }],
      });
    }
  }
  try {
    return createAgentModel(request.model, apiKey);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new HttpError(422, `model: ${message}`, { issues: [{ path: "model.baseUrl", message, code: "custom" }] });
  }
}

/** The graph on the canvas, parsed as a workflow (422 naming `current` when it is not one). */
function currentOf(request: DraftRequest): WorkflowDefinition | undefined {
  if (request.current === undefined) return undefined;
  const parsed = WorkflowDefinitionSchema.safeParse(request.current);
  if (!parsed.success) {
    throw new HttpError(422, "current: not a workflow the editor could have sent", {
      issues: parsed.error.issues.slice(0, 20).map((issue) => ({ path: ["current", ...issue.path].join("."), message: issue.message, code: issue.code })),
    });
  }
  return parsed.data;
}

/** One event in the SSE wire format, named by its type. */
const frame = (event: ArchitectEvent) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/** The Architect's rounds for `request`, as `principal` may draft (refused with a 422 before any model call). */
async function draftEvents(request: DraftRequest, principal: Principal, signal: AbortSignal): Promise<AsyncGenerator<ArchitectEvent>> {
  const current = currentOf(request);
  const vocabulary = await vocabularyFor(principal);
  const model = await modelFor(request, vocabulary.secretNames);
  return draftWorkflow({
    goal: request.goal,
    current,
    vocabulary,
    model,
    validate: async (definition) => (await validateWithStudio(principal, definition, request.workflowId ?? null)).problems,
    signal,
  });
}

/** The drafting's end (`done` or `failed`), for a caller that waits for it whole (the MCP tool draft_workflow). */
export async function draftResult(request: DraftRequest, principal: Principal, signal: AbortSignal): Promise<Extract<ArchitectEvent, { type: "done" | "failed" }>> {
  let last: ArchitectEvent | null = null;
  for await (const event of await draftEvents(request, principal, signal)) last = event;
  if (last?.type === "done" || last?.type === "failed") return last;
  return { type: "failed", error: "The drafting ended without an answer.", partial: null, usage: { inputTokens: 0, outputTokens: 0 } };
}

export async function draftStream(request: DraftRequest, principal: Principal, signal: AbortSignal): Promise<Response> {
  const events = await draftEvents(request, principal, signal);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await events.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(frame(next.value)));
        } catch (error) {
          controller.enqueue(encoder.encode(frame({ type: "failed", error: error instanceof Error ? error.message : String(error), partial: null, usage: { inputTokens: 0, outputTokens: 0 } })));
          controller.close();
        }
      },
      async cancel() {
        await events.return(undefined);
      },
    },
    // The next event is made only when the client has taken this one.
    { highWaterMark: 0 },
  );
  return new Response(body, { headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no" } });
}
