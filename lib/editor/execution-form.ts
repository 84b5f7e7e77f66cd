import { z } from "zod";
import { NodeExecutionSchema, WorkflowExecutionDefaultsSchema, type ExecutionDefaultsSource, type NodeExecution } from "@/lib/contracts/execution-settings";
import type { JsonSchema } from "@/lib/schema-form/field-descriptors";

/**
 * The "On failure" forms, generated from the execution contract
 * (lib/contracts/execution-settings.ts) like any settings form: a node's, and
 * the workflow's defaults. A node's form shows what it would inherit as each
 * field's default, so an empty field says what happens.
 */

const NODE_SCHEMA = z.toJSONSchema(NodeExecutionSchema, { io: "input" }) as JsonSchema;
const WORKFLOW_SCHEMA = z.toJSONSchema(WorkflowExecutionDefaultsSchema, { io: "input" }) as JsonSchema;

type Properties = Record<string, JsonSchema>;

function withDefaults(schema: JsonSchema, defaults: Record<string, unknown>): JsonSchema {
  const properties = { ...(schema.properties as Properties) };
  for (const [key, value] of Object.entries(defaults)) {
    const property = properties[key];
    if (property && value !== undefined) properties[key] = { ...property, default: value };
  }
  return { ...schema, properties };
}

/**
 * A node's form: each field's default is what the node gets when it is left
 * empty: the workflow's on error and time limit, and the workflow's retries
 * while the node has none of its own.
 */
export function nodeExecutionFormSchema(node: NodeExecution | undefined, workflow: ExecutionDefaultsSource): JsonSchema {
  const properties = NODE_SCHEMA.properties as Properties;
  const inherited = node?.retry ? undefined : workflow.execution?.retry;
  const retry = withDefaults(properties.retry!, {
    maxAttempts: inherited?.maxAttempts ?? (node?.retry ? undefined : 1),
    initialDelayMs: inherited?.initialDelayMs,
    factor: inherited?.factor,
    maxDelayMs: inherited?.maxDelayMs,
  });
  return withDefaults({ ...NODE_SCHEMA, properties: { ...properties, retry } }, { onError: workflow.onError, timeoutMs: workflow.execution?.timeoutMs });
}

/** The workflow's defaults for its nodes' retries and time limit. */
export function workflowExecutionFormSchema(): JsonSchema {
  return WORKFLOW_SCHEMA;
}

/** What the form hands back, as the node stores it: nothing at all when every field is empty. */
export function storedExecution<Settings extends Record<string, unknown>>(value: Settings): Settings | undefined {
  return Object.keys(value).length === 0 ? undefined : value;
}
