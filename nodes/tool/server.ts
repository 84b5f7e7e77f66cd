import { existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { lookUpSecret, parseSecretReference, type ArgumentChange, type SecretResolver, type Tool } from "@/lib/tools";
import { fieldName } from "@/lib/workflow/field-path";
import { maskSecretInputs } from "@/lib/workflow/mask-secret-inputs";
import { nodeProgressOf } from "@/lib/workflow/node-progress";
import type { StepOutput } from "@/lib/workflow/run-types";
import { ParkedRun, RunCancelled, StepFailure } from "@/lib/workflow/step-errors";
import { boundArgumentsOf, stepToolContext } from "@/lib/workflow/step-tool-context";
import { findReferences } from "@/lib/workflow/templates";
import type { WorkflowRequirement } from "@/lib/contracts/workflow-problem";
import type { NodeExecutionContext, NodeKindServer, NodeValidationContext, StepResult } from "../node-kind-server";
import type { ToolNode } from "./definition";
import { localAddressIn, stringsIn } from "./local-address";
import { mcpOriginProblem, unavailableProblem } from "./mcp-origin";

export const toolServer: NodeKindServer<ToolNode> = {
  validate: checkToolNode,
  execute: runToolNode,
};

/**
 * The tool exists (and is the one the node was saved with), its operation,
 * settings and arguments fit its models, its secrets are stored references
 * that are set, and a hosted tool is not pointed at this machine's network.
 */
async function checkToolNode(node: ToolNode, context: NodeValidationContext): Promise<void> {
  const { problems, requirements, checkTemplates } = context;
  const error = (field: string | null, message: string, severity: "error" | "warning" = "error") =>
    problems.push({ nodeId: node.id, field, message, severity });
  const tool = context.pool.get(node.tool);
  if (!tool || tool.name !== node.tool) {
    error("tool", `Unknown tool "${node.tool}". Known tools: ${context.pool.names().join(", ")}.`);
    return;
  }
  const refusal = mcpOriginProblem(node, tool) ?? unavailableProblem(tool);
  if (refusal !== null) {
    error("tool", refusal);
    return;
  }
  if (tool.operations) {
    const known = Object.keys(tool.operations);
    if (!node.operation) {
      error("operation", `Choose an operation of ${tool.title}: ${known.join(", ")}.`);
      return;
    }
    if (!known.includes(node.operation)) {
      error("operation", `${tool.title} has no operation "${node.operation}"; expected one of ${known.join(", ")}.`);
      return;
    }
  } else if (node.operation) {
    error("operation", `${tool.title} has no operations; clear the operation.`);
  }

  if (tool.settingsModel) {
    const parsed = tool.settingsModel.safeParse(node.settings);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) error(fieldName("settings", issue.path), issue.message.replace(/^Invalid input: /, ""));
    } else if (tool.rootSetting) {
      // The run would refuse a relative folder (lib/tools/confinement.ts); say so on the field while it is being built.
      const root = (parsed.data as Record<string, unknown>)[tool.rootSetting];
      if (typeof root === "string" && root.trim() !== "" && !path.isAbsolute(root)) {
        error(`settings.${tool.rootSetting}`, `Expected an absolute folder path, got "${root}": a relative folder would depend on where the server was started.`);
      } else if (typeof root === "string" && root.trim() !== "" && !existsSync(root)) {
        // A warning, not an error: the folder may be made before the run (by a person, or by an earlier step).
        error(`settings.${tool.rootSetting}`, `The folder ${root} does not exist (yet): the step will fail unless it is created before it runs.`, "warning");
      }
    }
    // The settings model drops keys it does not know: say so, rather than let a typo pass for a setting.
    const known = tool.settingsModel instanceof z.ZodObject ? Object.keys(tool.settingsModel.shape) : null;
    for (const key of known ? Object.keys(node.settings).filter((each) => !known.includes(each)) : []) {
      error(`settings.${key}`, `${tool.title} has no setting "${key}"; it is ignored. Known settings: ${known!.join(", ") || "none"}.`, "warning");
    }
  } else if (Object.keys(node.settings).length > 0) {
    error("settings", `${tool.title} has nothing to configure; remove its settings.`);
  }

  const model = tool.inputModelFor(node.operation ? { operation: node.operation } : {});
  const shape = model instanceof z.ZodObject ? (model.shape as Record<string, z.ZodType>) : {};
  for (const [name, value] of Object.entries(node.arguments)) {
    const field = `arguments.${name}`;
    if (!(name in shape)) {
      error(field, `${tool.title} has no input "${name}"; known inputs: ${Object.keys(shape).join(", ") || "none"}.`);
      continue;
    }
    if (tool.secretInputs.includes(name)) continue;
    checkTemplates(value, field);
    if (findReferences(value).length === 0) {
      const parsed = shape[name]!.safeParse(value);
      if (!parsed.success) error(field, parsed.error.issues.map((issue) => issue.message.replace(/^Invalid input: /, "")).join("; "));
    }
  }

  // A step's tool gets its inputs only from its bindings (an agent's tool gets the rest from the model).
  if (!context.graph.attachedTo.has(node.id)) {
    for (const [name, schema] of Object.entries(shape)) {
      if (name === "operation" || tool.secretInputs.includes(name) || name in node.arguments) continue;
      if (!schema.safeParse(undefined).success) {
        error(`arguments.${name}`, `${tool.title} needs "${name}": give it a value, or a template such as {{ inputs.${name} }}.`);
      }
    }
  }

  for (const input of tool.secretInputs) {
    await checkSecretInput(tool, node, input, shape[input], error, requirements, context.secrets);
  }

  // A hosted tool (a remote MCP server's) runs elsewhere: this machine's localhost and private network are out of its reach.
  if (tool.runtime === "hosted") {
    for (const [field, text] of [...stringsIn(node.arguments, "arguments"), ...stringsIn(node.settings, "settings")]) {
      const address = localAddressIn(text);
      if (address) {
        error(field, `${tool.title} runs on a remote server, which cannot reach ${address} on this machine or its network. Use an address the server can reach, or a local tool.`);
      }
    }
  }
}

async function checkSecretInput(
  tool: Tool,
  node: ToolNode,
  input: string,
  schema: z.ZodType | undefined,
  error: (field: string | null, message: string, severity?: "error" | "warning") => void,
  requirements: WorkflowRequirement[],
  secrets: SecretResolver,
): Promise<void> {
  const field = `arguments.${input}`;
  const value = node.arguments[input];
  const required = schema ? !schema.safeParse(undefined).success : false;
  if (value === undefined || value === "") {
    if (required) error(field, `${tool.title} needs a secret for "${input}": choose a stored secret, or store one in Settings → Secrets.`);
    return;
  }
  if (typeof value !== "string") {
    error(field, `expected a \${NAME} reference to a stored secret.`);
    return;
  }
  const reference = parseSecretReference(value);
  if (!reference) {
    // Secrets are encrypted at rest; one typed into a workflow would not be, so such a workflow does not run.
    error(field, "This secret is written into the workflow in plain text. Store it in Settings → Secrets and reference it as ${NAME}.");
    return;
  }
  const found = await lookUpSecret(secrets, reference);
  const problem = found.value === undefined ? found.problem : tool.checkSecret(input, found.value);
  requirements.push({ nodeId: node.id, kind: "secret", name: reference, field: input, satisfied: problem === "", problem });
  if (problem) error(field, `The secret ${reference} ${problem}. ${tool.credentialHelp}`.trim());
}

/**
 * Calls the tool once with the node's settings and resolved arguments, through
 * the tool framework: its permission checks ask the approval inbox, its
 * progress becomes node-progress events. Secret inputs are masked in what is recorded.
 */
async function runToolNode(node: ToolNode, context: NodeExecutionContext): Promise<StepResult> {
  const tool = context.pool().get(node.tool);
  // An MCP server that is still connecting, or comes back later, may offer it again.
  if (!tool || tool.name !== node.tool) throw new StepFailure(`The tool "${node.tool}" is not available.`, undefined, { kind: "unavailable" });
  const boundArgs = boundArgumentsOf(node.arguments, node.operation, context.scope());
  const recordedArgs = maskSecretInputs(tool, boundArgs);

  // A wait let go by this process (a park, a shutdown) reaches the tool as a failed request; it is no failure of the step.
  let letGo = false;
  const ctx = stepToolContext(context, {
    tool,
    operation: node.operation,
    recordedArguments: recordedArgs,
    settings: node.settings,
    waitFor: (request) =>
      context.waitFor(request).catch((error: unknown) => {
        if (error instanceof ParkedRun) letGo = true;
        throw error;
      }),
    approvals: { nodeId: node.id },
    events: {
      emit: (event) => {
        void context.emit("node-progress", nodeProgressOf(event)).catch((error) => context.log("Could not record a progress event", error));
      },
    },
    mode: context.mode,
    planApproved: context.planApproved,
    persistGrant: context.persistGrant,
  });
  const exclusive = !tool.isConcurrencySafe(boundArgs as never);
  const result = await context.lock.run(exclusive, () => tool.run({}, ctx, { boundArgs }));
  if (context.cancelled()) throw new RunCancelled();
  if (letGo) throw new ParkedRun();
  // A person's edit (Edit and approve): the step's input is the call that ran, and its output says what changed.
  const input = result.edited.length > 0 ? applyChanges(recordedArgs, result.edited) : recordedArgs;
  if (result.isError) throw new StepFailure(result.content, input, { kind: result.errorKind, retryable: result.retryable });
  const output: StepOutput = { content: result.content };
  if (result.data !== undefined) output.data = result.data;
  if (result.images.length > 0) output.images = result.images;
  if (result.edited.length > 0) output.edited = [...result.edited];
  return { output, input };
}

function applyChanges(args: Record<string, unknown>, changes: readonly ArgumentChange[]): Record<string, unknown> {
  const changed = { ...args };
  for (const change of changes) {
    if (change.to === undefined) delete changed[change.field];
    else changed[change.field] = change.to;
  }
  return changed;
}
