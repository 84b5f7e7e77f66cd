import { checkJavaScriptSyntax, sharedSandboxPool, type JsonValue, type SandboxError, type SandboxOutcome } from "@/lib/sandbox";
import { describeSandboxError, retryableSandboxError, toolErrorKindOfSandbox } from "@/lib/tools/builtin/code/sandbox-errors";
import { RunCancelled, StepFailure } from "@/lib/workflow/step-errors";
import { asText, type TemplateScope } from "@/lib/workflow/templates";
import { checkListTemplate, resolveList } from "../list-template";
import type { NodeExecutionContext, NodeKindServer, NodeValidationContext, StepResult } from "../node-kind-server";
import type { CodeNode } from "./definition";

export const codeServer: NodeKindServer<CodeNode> = {
  validate: checkCodeNode,
  execute: runCodeNode,
};

/**
 * The most data a Code step is handed, as JSON: the scope is copied into the sandbox, so an upstream result of
 * gigabytes would cost the studio that much again before any code ran.
 */
export const MAX_SCOPE_BYTES = 32 * 1024 * 1024;

/** A syntax error is found before any run, with the line and column the editor marks. */
async function checkCodeNode(node: CodeNode, context: NodeValidationContext): Promise<void> {
  if (node.code.trim() === "") {
    context.problems.push({ nodeId: node.id, field: "code", message: "Write the code: the body of a function that returns a JSON value, e.g. return inputs;", severity: "error" });
  } else {
    const syntax = await checkJavaScriptSyntax(node.code, ["inputs", "nodes", "item", "index"]);
    if (syntax) {
      context.problems.push({
        nodeId: node.id,
        field: "code",
        message: `Line ${syntax.line}, column ${syntax.column}: ${syntax.message}`,
        severity: "error",
        at: { line: syntax.line, column: syntax.column },
      });
    }
  }
  if (node.mode === "each") checkListTemplate(node.id, node.list, "list", context, { itemAllowed: true });
}

async function runCodeNode(node: CodeNode, context: NodeExecutionContext): Promise<StepResult> {
  const scope = context.scope();
  const base = sandboxScope(scope, context.readsFrom);
  const limits = { timeMs: node.timeLimitMs };
  if (node.mode === "once") {
    const input = { mode: "once" };
    const outcome = await sharedSandboxPool().run({ code: node.code, scope: base, limits }, { signal: context.signal });
    const value = valueOf(outcome, input, context);
    return { output: { content: asText(value), data: value }, input };
  }
  const items = toJson(resolveList(node.list, scope), "the list") as JsonValue[];
  const input = { mode: "each", list: node.list.trim(), count: items.length };
  if (items.length === 0) return { output: { content: "[]", data: [] }, input };
  const outcome = await sharedSandboxPool().runEach({ code: node.code, scope: base, items, limits }, { signal: context.signal });
  if (!outcome.ok) throw failureOf(outcome.error, input, context);
  const values = outcome.results.map((result, index) => {
    if (result.ok) return result.value;
    if (node.onItemFailure === "stop") {
      const failure = failureOf(result.error, input, context);
      if (failure instanceof RunCancelled) throw failure;
      throw new StepFailure(`Item ${index + 1} of ${items.length} failed: ${failure.message}`, input, { kind: failure.kind, retryable: false });
    }
    return { error: { message: describeSandboxError(result.error), kind: toolErrorKindOfSandbox(result.error), item: index } };
  });
  return { output: { content: JSON.stringify(values), data: values }, input };
}

/**
 * What the code sees: the inputs, the finished steps upstream of it (as templates may name them), and inside a loop's
 * body its item and index. Only upstream: a step on a parallel branch may or may not have finished, and the code's
 * result must not depend on which.
 */
function sandboxScope(scope: TemplateScope, readsFrom: (nodeId: string) => boolean): Record<string, JsonValue> {
  const nodes = Object.fromEntries(
    Object.entries(scope.nodes)
      .filter(([id]) => readsFrom(id))
      .map(([id, entry]) => [id, { output: entry.output, ...(entry.data === undefined ? {} : { data: entry.data }) }]),
  );
  const whole = { inputs: scope.inputs, nodes, ...(scope.loop ? { item: scope.loop.item, index: scope.loop.index } : {}) };
  return toJson(whole, "the data handed to the code") as Record<string, JsonValue>;
}

/** `value` as plain JSON (a copy), or a step failure when it is larger than the sandbox is handed. */
function toJson(value: unknown, what: string): unknown {
  const text = JSON.stringify(value) ?? "null";
  if (text.length > MAX_SCOPE_BYTES) {
    throw new StepFailure(`${capitalised(what)} is ${megabytes(text.length)} as JSON; a Code step is handed at most ${megabytes(MAX_SCOPE_BYTES)}. Select less upstream (a query's LIMIT, fewer fields).`, undefined, { kind: "invalid-input", retryable: false });
  }
  return JSON.parse(text);
}

function valueOf(outcome: SandboxOutcome, input: unknown, context: NodeExecutionContext): JsonValue {
  if (outcome.ok) return outcome.value;
  throw failureOf(outcome.error, input, context);
}

function failureOf(error: SandboxError, input: unknown, context: NodeExecutionContext): RunCancelled | StepFailure {
  if (error.kind === "cancelled" && context.cancelled()) return new RunCancelled();
  return new StepFailure(describeSandboxError(error), input, { kind: toolErrorKindOfSandbox(error), retryable: retryableSandboxError(error) });
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
