import { confinePath, PathConfinementError, relativeToRoot, resolveRoot } from "./confinement";
import { canonicalJson } from "./permissions/approval-digest";
import type { IOHandler } from "./io-handler";
import { argumentChanges, type ArgumentChange } from "./permissions/argument-changes";
import { checkPermissions } from "./permissions/gate";
import { pathRefusal } from "./permissions/path-rules";
import { lookUpSecret, parseSecretReference, SecretMasker } from "./secrets";
import type { RunOptions, ToolBase } from "./tool-base";
import type { ToolContext, ToolEventSink } from "./tool-context";
import type { ToolErrorKind } from "./tool-error";
import { mapStrings, ToolResult } from "./tool-result";
import { describeIssues } from "./validation";

/** A refusal on the way to `call()`: becomes a `ToolResult.error` of its kind (never retryable), never an exception. */
class CallRefused extends Error {
  constructor(
    message: string,
    readonly kind: ToolErrorKind = "invalid-input",
  ) {
    super(message);
  }
}

/**
 * Runs one call of `tool` the way every host must: validate, resolve secrets,
 * confine paths, pass the permission gate, call, and mask secrets in whatever
 * leaves. Bad input and refusals come back as `ToolResult.error`; a tool that
 * throws is reported as an error too, so one bad tool cannot crash a run.
 */
export async function executeTool(
  tool: ToolBase,
  rawArgs: unknown,
  ctx: ToolContext,
  options: RunOptions = {},
): Promise<ToolResult> {
  const masker = new SecretMasker();
  // What a person changed when approving (Edit and approve): said with the result, a refusal of the edited call too.
  let edited: ArgumentChange[] = [];
  try {
    if (ctx.signal.aborted) return cancelledBeforeStart(tool);
    const merged = mergeArguments(tool, rawArgs, options.boundArgs ?? {});
    // As given, before secret references are resolved: an edited call takes its secret inputs from here.
    const given = { ...merged };
    let { args, callContext } = await prepareCall(tool, merged, ctx, masker);

    // Every MCP call meets the gate: `mcp_policy: denied` refuses even read-only ones, and a
    // tool that is neither read-only nor destructive still asks under `gated`.
    const gated = (callArgs: Record<string, unknown>) => tool.isDestructive(callArgs) || tool.origin === "mcp";
    const edit = gated(args) ? await passGate(tool, args, callContext, masker) : null;
    if (edit) {
      // The person approved another call: that one runs, checked as the model's would be. What it asks
      // is what they approved (their edit answers it), but a guardrail still refuses what it refuses.
      edited = argumentChanges(shownArguments(tool, given, masker), shownArguments(tool, edit, masker));
      ({ args, callContext } = await prepareCall(tool, editedCall(tool, given, edit), { ...ctx, io: approvedByEdit(ctx.io) }, masker));
      if (gated(args)) await passGate(tool, args, callContext, masker);
    }
    if (ctx.signal.aborted) return cancelledBeforeStart(tool);

    callContext.events.emit({ type: "tool-progress", tool: tool.name, message: tool.progressMessage(args) });
    const called = await tool.call(args, callContext);
    const result = edited.length > 0 ? called.withEdit(edited) : called;
    return masker.isEmpty ? result : result.mapText((text) => masker.mask(text));
  } catch (error) {
    const failure = failureOf(tool, error, masker);
    return edited.length > 0 ? failure.withEdit(edited) : failure;
  }
}

function failureOf(tool: ToolBase, error: unknown, masker: SecretMasker): ToolResult {
  if (error instanceof CallRefused) return ToolResult.error(masker.mask(error.message), { kind: error.kind });
  if (PathConfinementError.isInstance(error)) return ToolResult.error(masker.mask(error.message), { kind: "confinement" });
  const message = error instanceof Error ? error.message : String(error);
  return ToolResult.error(masker.mask(`\`${tool.name}\` failed: ${message}`));
}

/** Validates the merged arguments, resolves secrets and confines paths: the call as it would run, and its context. */
async function prepareCall(
  tool: ToolBase,
  merged: Record<string, unknown>,
  ctx: ToolContext,
  masker: SecretMasker,
): Promise<{ args: Record<string, unknown>; callContext: ToolContext }> {
  checkOperation(tool, merged);
  const settings = parseSettings(tool, ctx.settings);
  await resolveSecretInputs(tool, merged, ctx, masker);

  const model = tool.inputModelFor(merged);
  const parsed = model.safeParse(merged);
  if (!parsed.success) {
    throw new CallRefused(`Invalid arguments for \`${tool.name}\`:\n${describeIssues(parsed.error)}\nFix these and call it again.`);
  }
  // An operation's own model does not know the discriminator; keep it so the call can be routed.
  const args = tool.operations
    ? { ...(parsed.data as Record<string, unknown>), operation: merged.operation }
    : (parsed.data as Record<string, unknown>);

  const callContext: ToolContext = { ...ctx, settings, events: maskingSink(ctx.events, masker) };
  confinePathInputs(tool, args, callContext);
  return { args, callContext };
}

/**
 * The call a person approved: their arguments, with the original's secret
 * inputs (a person never sets those; checkEditedArguments refused an edit that tried).
 */
function editedCall(tool: ToolBase, given: Record<string, unknown>, edit: Record<string, unknown>): Record<string, unknown> {
  const call = { ...edit };
  for (const input of tool.secretInputs) {
    if (given[input] === undefined) delete call[input];
    else call[input] = given[input];
  }
  return call;
}

/** Arguments as a person or the model is shown them: secret inputs out, secret values masked. */
function shownArguments(tool: ToolBase, args: Record<string, unknown>, masker: SecretMasker): Record<string, unknown> {
  const shown = mapStrings(args, (text) => masker.mask(text)) as Record<string, unknown>;
  for (const input of tool.secretInputs) delete shown[input];
  return shown;
}

/** The edited call's own questions are answered by the edit that made it: approved once, nobody asked again. */
function approvedByEdit(io: IOHandler): IOHandler {
  return { ask: (question, choices) => io.ask(question, choices), notify: (message) => io.notify(message), requestApproval: async () => ({ decision: "once" }) };
}

/** How often one call may ask again because its target kept changing while a person looked. */
const MAX_ASKS = 3;

/**
 * Asks the gate about what the call would do, then describes it once more:
 * when the target changed while a person was deciding (the file was edited),
 * what they approved is not what would run, so the gate is asked again with
 * the new description (a new approval) instead of running on the old answer.
 */
async function passGate(tool: ToolBase, args: Record<string, unknown>, ctx: ToolContext, masker: SecretMasker): Promise<Record<string, unknown> | null> {
  const describe = async () =>
    (await tool.describeAction(args, ctx)).map((request) => mapStrings(request, (text) => masker.mask(text)) as typeof request);
  let requests = await describe();
  for (let asked = 1; ; asked++) {
    const decision = await checkPermissions(requests, ctx);
    // A person's or a guardrail's no: never tried again.
    if (!decision.allowed) throw new CallRefused(decision.reason, "denied");
    // Approved with an edit: what the target is now does not matter, another call runs.
    if (decision.edited) return decision.edited;
    const now = await describe();
    if (canonicalJson(now) === canonicalJson(requests)) return null;
    if (asked >= MAX_ASKS) {
      throw new CallRefused(
        `\`${tool.name}\`: its target kept changing while it waited for approval (${asked} times), so nothing was done. Check what changes it and try again.`,
        "failed",
      );
    }
    requests = now;
  }
}

/**
 * The model's arguments with secret inputs and bound arguments removed (the
 * model cannot set those), then the builder's bound arguments on top.
 */
function mergeArguments(tool: ToolBase, rawArgs: unknown, boundArgs: Record<string, unknown>): Record<string, unknown> {
  const given = rawArgs ?? {};
  if (typeof given !== "object" || Array.isArray(given)) {
    throw new CallRefused(`Invalid arguments for \`${tool.name}\`: expected an object of named arguments, got ${describeType(given)}.`);
  }
  const hidden = new Set([...tool.secretInputs, ...Object.keys(boundArgs)]);
  const merged: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) if (!hidden.has(key)) merged[key] = value;
  return { ...merged, ...boundArgs };
}

function checkOperation(tool: ToolBase, args: Record<string, unknown>): void {
  if (!tool.operations) return;
  const known = Object.keys(tool.operations);
  const chosen = args.operation;
  if (chosen === undefined) {
    throw new CallRefused(`Invalid arguments for \`${tool.name}\`:\n- \`operation\`: required; expected one of ${known.join(", ")}.`);
  }
  if (typeof chosen !== "string" || !Object.hasOwn(tool.operations, chosen)) {
    throw new CallRefused(
      `Invalid arguments for \`${tool.name}\`:\n- \`operation\`: unknown operation ${JSON.stringify(chosen)}; expected one of ${known.join(", ")}.`,
    );
  }
}

function parseSettings(tool: ToolBase, settings: unknown): Record<string, unknown> {
  if (!tool.settingsModel) return {};
  const parsed = tool.settingsModel.safeParse(settings ?? {});
  if (!parsed.success) {
    throw new CallRefused(
      `The settings of \`${tool.name}\` are not valid (they are chosen by whoever built the workflow, not by the model):\n${describeIssues(parsed.error, "settings")}`,
    );
  }
  return parsed.data as Record<string, unknown>;
}

async function resolveSecretInputs(
  tool: ToolBase,
  args: Record<string, unknown>,
  ctx: ToolContext,
  masker: SecretMasker,
): Promise<void> {
  for (const input of tool.secretInputs) {
    const raw = args[input];
    if (raw === undefined) continue;
    if (typeof raw !== "string") throw new CallRefused(`\`${input}\`: expected a secret as text or a \${NAME} reference.`);
    const reference = parseSecretReference(raw);
    let value = raw;
    if (reference) {
      const found = await lookUpSecret(ctx.secrets, reference);
      if (found.value === undefined) {
        const help = found.problem === "is not set" ? ` Store it in Settings → Secrets under the name ${reference}.` : "";
        throw new CallRefused(`\`${input}\`: the secret \${${reference}} ${found.problem}.${help}`);
      }
      value = found.value;
    }
    masker.add(value);
    const problem = tool.checkSecret(input, value);
    if (problem) {
      const source = reference ? `the secret \${${reference}}` : "the value";
      throw new CallRefused(`\`${input}\`: ${source} ${problem}. ${tool.credentialHelp}`.trim());
    }
    args[input] = value;
  }
}

/**
 * Replaces each declared path input by its confined absolute path; refuses
 * escapes and denied paths. This is the one guardrail check of a declared
 * path: it runs before describeAction() reads the file, and what it found
 * (the path relative to the root) goes on the context for the gate.
 */
function confinePathInputs(tool: ToolBase, args: Record<string, unknown>, ctx: ToolContext): void {
  if (!tool.rootSetting) return;
  const root = resolveRoot(ctx.settings[tool.rootSetting], tool.rootSetting);
  const confinedPaths = new Map<string, string>();
  ctx.root = root;
  ctx.confinedPaths = confinedPaths;
  for (const input of tool.pathInputs) {
    const value = args[input];
    if (value === undefined) continue;
    const confined = confinePath(root, value, input);
    const relative = relativeToRoot(root, confined);
    const refusal = pathRefusal(ctx.permissions.guardrails, relative);
    if (refusal) throw new CallRefused(`\`${input}\`: refused by a guardrail: ${refusal}`, "confinement");
    args[input] = confined;
    confinedPaths.set(confined, relative);
  }
}

function cancelledBeforeStart(tool: ToolBase): ToolResult {
  return ToolResult.error(`\`${tool.name}\` was cancelled before it started.`, { kind: "cancelled" });
}

function maskingSink(sink: ToolEventSink, masker: SecretMasker): ToolEventSink {
  return { emit: (event) => sink.emit(mapStrings(event, (text) => masker.mask(text)) as typeof event) };
}

function describeType(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  return typeof value === "string" ? "text" : typeof value;
}
