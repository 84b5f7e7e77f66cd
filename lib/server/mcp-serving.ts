import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { everyWorkflow, newestDefinitions, type WorkflowFields } from "@/lib/persistence";
import { isServingToken } from "@/lib/persistence/mcp-server-store";
import { isPersonalToken } from "@/lib/persistence/personal-token-store";
import type { JsonSchema } from "@/lib/tools";
import type { InputField } from "@/lib/workflow/definition";
import { inputFieldsOf } from "@/lib/workflow/run-inputs";
import { authenticate, bearerToken, starterOf, type Principal } from "./access/principal";
import { visibleWorkflows, workflowIdsWith } from "./access/workflow-access";
import { HttpError, json } from "./http";
import { APPROVAL_TOOL_NAMES, approvalTools, callApprovalTool } from "./mcp-approval-tools";
import { ARCHITECT_TOOL_NAMES, architectTools, callArchitectTool } from "./mcp-architect-tools";
import { mcpErrorResult } from "./mcp-results";
import { startRun } from "./runs";
import { startStudio, type Studio } from "./studio";

/**
 * The studio as an MCP server: every saved workflow is a tool whose input
 * schema is its input node's fields; a call starts a real run, waits for it
 * (approvals included: they wait in the inbox as for any run) and returns the
 * output node's value. Stateless streamable HTTP: a fresh server per request.
 */

const MAX_NAME_LENGTH = 64;

interface ServedWorkflow {
  toolName: string;
  workflowId: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
}

/** `Summarise a report!` -> `summarise_a_report`. */
export function workflowToolName(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, MAX_NAME_LENGTH);
  return slug === "" ? "workflow" : slug;
}

/** The JSON Schema of a workflow's run inputs, from its input node's fields. */
export function inputJsonSchema(fields: readonly InputField[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of fields) {
    const type = field.type === "number" ? "number" : field.type === "boolean" ? "boolean" : "string";
    const description = [field.label, field.description].filter(Boolean).join(": ");
    properties[field.name] = { type, ...(description ? { description } : {}), ...(field.default !== undefined ? { default: field.default } : {}) };
    if (field.required && field.default === undefined) required.push(field.name);
  }
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/**
 * Who is calling: a client holding the studio's MCP token (Settings → MCP),
 * served every workflow; or one holding a person's personal access token with
 * workflow:run, served the workflows that person may run, its runs theirs.
 */
export type McpCaller = { kind: "studio" } | { kind: "person"; principal: Principal };

/** Every saved workflow `caller` may run, as a tool; names are unique, the oldest workflow keeping the plain slug. */
export async function servedWorkflows(studio: Studio, caller: McpCaller = { kind: "studio" }): Promise<ServedWorkflow[]> {
  const named = await servedNames(studio, caller);
  const definitions = await newestDefinitions(named.map(({ summary }) => summary), studio.database);
  return named.flatMap(({ toolName, summary }) => {
    const definition = definitions.get(summary.id);
    // Deleted between the two reads: not served.
    if (!definition) return [];
    return [
      {
        toolName,
        workflowId: summary.id,
        title: summary.name,
        description: summary.description || `Runs the workflow "${summary.name}" in Neurosurfer Studio and returns its output.`,
        inputSchema: inputJsonSchema(inputFieldsOf(definition)),
      },
    ];
  });
}

/** The tool name of each workflow `caller` may run, oldest first (a call needs only these, not the definitions). */
async function servedNames(studio: Studio, caller: McpCaller): Promise<{ toolName: string; summary: WorkflowFields }[]> {
  const runnable = caller.kind === "person" ? await workflowIdsWith(caller.principal, "workflow:run", studio.database) : null;
  const visible = caller.kind === "person" ? visibleWorkflows(caller.principal) : null;
  const summaries = (await everyWorkflow(studio.database, visible)).filter((summary) => runnable === null || runnable.has(summary.id));
  const taken = new Set<string>([...APPROVAL_TOOL_NAMES, ...ARCHITECT_TOOL_NAMES]);
  return summaries.map((summary) => {
    const base = workflowToolName(summary.name);
    let toolName = base;
    for (let suffix = 2; taken.has(toolName); suffix += 1) toolName = `${base.slice(0, MAX_NAME_LENGTH - 4)}_${suffix}`;
    taken.add(toolName);
    return { toolName, summary };
  });
}

/** Handles one request to /api/mcp: 401 without the token, else the MCP exchange. */
export async function handleMcpRequest(request: Request): Promise<Response> {
  const studio = await startStudio();
  const caller = await mcpCaller(request, studio);
  if (caller === "no-run-scope") {
    return json(
      { error: "This personal access token may neither run workflows, decide approvals nor build workflows: make one with the workflow:run, approval:decide or workflow:edit scope (Settings → Account)." },
      403,
    );
  }
  if (caller === null) {
    return json(
      { error: "Send the studio's MCP token (Settings → MCP) or a personal access token with workflow:run as Authorization: Bearer <token>." },
      401,
      { "www-authenticate": 'Bearer realm="neurosurfer-studio"' },
    );
  }
  const server = buildServer(studio, caller, request);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  return transport.handleRequest(request);
}

async function mcpCaller(request: Request, studio: Studio): Promise<McpCaller | "no-run-scope" | null> {
  const token = bearerToken(request);
  if (token === null) return null;
  if (isPersonalToken(token)) {
    const principal = await authenticate(request);
    if (principal === null) return null;
    // Served its runnable workflows (workflow:run), the approval tools (approval:decide), the building tools (workflow:edit).
    return principal.scopes.has("workflow:run") || principal.scopes.has("approval:decide") || principal.scopes.has("workflow:edit") ? { kind: "person", principal } : "no-run-scope";
  }
  return (await isServingToken(token, studio.database)) ? { kind: "studio" } : null;
}

function buildServer(studio: Studio, caller: McpCaller, httpRequest: Request): McpServer {
  const person = caller.kind === "person" ? caller.principal : null;
  const mcp = new McpServer({ name: "neurosurfer-studio", version: "0.1.0" }, { capabilities: { tools: {} } });
  // The low-level handlers: workflow input schemas are JSON Schema already, not zod.
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      ...approvalTools(person),
      ...architectTools(person),
      ...(await servedWorkflows(studio, caller)).map((workflow) => ({
      name: workflow.toolName,
      title: workflow.title,
      description: workflow.description,
      inputSchema: workflow.inputSchema as { type: "object" },
      annotations: { title: workflow.title, readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      })),
    ],
  }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const approvalAnswer = await callApprovalTool(request.params.name, request.params.arguments, person, httpRequest, studio.database);
    if (approvalAnswer !== null) return approvalAnswer;
    const architectAnswer = await callArchitectTool(request.params.name, request.params.arguments, person, httpRequest);
    if (architectAnswer !== null) return architectAnswer;
    const workflows = await servedNames(studio, caller);
    const served = workflows.find((each) => each.toolName === request.params.name);
    if (!served) {
      throw new McpError(ErrorCode.InvalidParams, `No workflow is served as "${request.params.name}". Known: ${workflows.map((each) => each.toolName).join(", ") || "none"}.`);
    }
    const workflow = { workflowId: served.summary.id, title: served.summary.name };
    let runId: string;
    try {
      const startedBy = caller.kind === "person" ? starterOf(caller.principal) : null;
      runId = (await startRun(workflow.workflowId, { inputs: request.params.arguments ?? {} }, { kind: "mcp", nodeId: null }, startedBy)).id;
    } catch (error) {
      if (error instanceof HttpError && error.status === 422) throw new McpError(ErrorCode.InvalidParams, error.message);
      throw error;
    }
    const progressToken = request.params._meta?.progressToken;
    const report = async (progress: number, message: string) => {
      if (progressToken === undefined) return;
      await extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress, message } }).catch(() => undefined);
    };
    return waitForRun(studio, runId, workflow.title, extra.signal, report);
  });
  return mcp;
}

/** A call waits this long for its run before giving up (the run itself goes on). */
export const SERVED_CALL_TIMEOUT_MS = 30 * 60_000;
const POLL_MS = 1_000;
const PROGRESS_EVERY_MS = 10_000;

/**
 * Waits for the run, reporting progress (when the caller asked for it with a
 * progressToken) as soon as the run's state changes and every
 * PROGRESS_EVERY_MS while it stays put: a client that resets its timeout on
 * progress keeps waiting through an approval that takes minutes. The result
 * says who decided each approval and when, so the caller knows a person was
 * in the loop.
 */
async function waitForRun(
  studio: Studio,
  runId: string,
  title: string,
  signal: AbortSignal,
  report: (progress: number, message: string) => Promise<void>,
): Promise<CallToolResult> {
  const started = Date.now();
  // Progress must increase with every notification (MCP spec), so it counts them.
  let progress = 0;
  let lastReport = { at: 0, status: "" };
  let wake: (() => void) | null = null;
  const unsubscribe = studio.bus.subscribe(runId, () => wake?.());
  try {
    await report(progress, `Run ${runId} of "${title}" started.`);
    for (;;) {
      const run = await studio.database.run.findUnique({ where: { id: runId }, select: { status: true, output: true, error: true } });
      if (!run) return mcpErrorResult(`The run ${runId} disappeared (was the workflow deleted?).`);
      if (run.status === "succeeded" || run.status === "failed" || run.status === "cancelled") {
        const decisions = await decisionsOf(studio, runId);
        if (run.status === "succeeded") return withDecisions(outputResult(run.output), decisions);
        const ending = run.status === "failed" ? `failed: ${run.error ?? "no reason was recorded"}` : "was cancelled.";
        return withDecisions(mcpErrorResult(`The run ${runId} of "${title}" ${ending}`), decisions);
      }
      if (signal.aborted) return mcpErrorResult(`The caller went away; the run ${runId} goes on in the studio.`);
      if (Date.now() - started > SERVED_CALL_TIMEOUT_MS) {
        return mcpErrorResult(`The run ${runId} of "${title}" is still ${run.status} after ${SERVED_CALL_TIMEOUT_MS / 60_000} minutes; follow it in the studio.`);
      }
      if (run.status !== lastReport.status || Date.now() - lastReport.at >= PROGRESS_EVERY_MS) {
        lastReport = { at: Date.now(), status: run.status };
        progress += 1;
        const waiting = run.status === "awaiting_input" ? "waiting for a person to decide in the studio's inbox" : run.status;
        await report(progress, `Run ${runId}: ${waiting} (${Math.floor((Date.now() - started) / 1000)} s so far).`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  } finally {
    unsubscribe();
  }
}

interface Decision {
  tool: string | null;
  status: string;
  decidedBy: string | null;
  decidedAt: Date | null;
}

async function decisionsOf(studio: Studio, runId: string): Promise<Decision[]> {
  return studio.database.approval.findMany({
    where: { runId, decidedAt: { not: null } },
    orderBy: { decidedAt: "asc" },
    select: { tool: true, status: true, decidedBy: true, decidedAt: true },
  });
}

/** `approved write_note: by admin at 2026-12-01T02:31:07.000Z`, one line per decision, after the run's own content. */
function withDecisions(result: CallToolResult, decisions: readonly Decision[]): CallToolResult {
  if (decisions.length === 0) return result;
  const lines = decisions.map(
    (decision) => `${decision.status} ${decision.tool ?? "a step"}: by ${decision.decidedBy ?? "an unnamed person"} at ${decision.decidedAt?.toISOString() ?? "an unrecorded time"}`,
  );
  const text = `Decided in the studio's inbox:\n${lines.join("\n")}`;
  return { ...result, content: [...result.content, { type: "text", text }] };
}

function outputResult(stored: string | null): CallToolResult {
  const value: unknown = stored === null ? null : JSON.parse(stored);
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return {
    content: [{ type: "text", text }],
    ...(value !== null && typeof value === "object" && !Array.isArray(value) ? { structuredContent: value as Record<string, unknown> } : {}),
  };
}
