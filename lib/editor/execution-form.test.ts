import { describe, expect, it } from "vitest";
import { describeSchema } from "@/lib/schema-form/field-descriptors";
import { nodeExecutionFormSchema, storedExecution, workflowExecutionFormSchema } from "./execution-form";

describe("the On failure forms", () => {
  it("are made of the contract's fields, with its words and limits", () => {
    const fields = describeSchema(nodeExecutionFormSchema(undefined, { onError: "stop" }));
    expect(fields.map((field) => [field.key, field.label, field.widget])).toEqual([
      ["retry", "Retries", "object"],
      ["timeoutMs", "Time limit (ms)", "number"],
      ["onError", "On error", "select"],
    ]);
    expect(fields[0]!.fields.map((field) => [field.key, field.label, field.required, field.minimum, field.maximum])).toEqual([
      ["maxAttempts", "Attempts in all", true, 1, 10],
      ["initialDelayMs", "First wait (ms)", false, 0, 86_400_000],
      ["factor", "Backoff factor", false, 1, 10],
      ["maxDelayMs", "Longest wait (ms)", false, 0, 86_400_000],
    ]);
    expect(fields[2]).toMatchObject({ options: ["stop", "continue", "error-edge"], optionLabels: { "error-edge": "Follow the error path" } });
  });

  it("show what a node inherits from its workflow as each field's default", () => {
    const workflow = { onError: "continue" as const, execution: { timeoutMs: 9000, retry: { maxAttempts: 3, initialDelayMs: 500, factor: 1 } } };
    const [retry, timeout, onError] = describeSchema(nodeExecutionFormSchema(undefined, workflow));
    expect(onError!.defaultValue).toBe("continue");
    expect(timeout!.defaultValue).toBe(9000);
    expect(retry!.fields.map((field) => field.defaultValue)).toEqual([3, 500, 1, undefined]);
    // Its own retries replace the workflow's: then the contract's defaults apply.
    const own = describeSchema(nodeExecutionFormSchema({ retry: { maxAttempts: 2, initialDelayMs: 1000, factor: 2 } }, workflow));
    expect(own[0]!.fields.map((field) => field.defaultValue)).toEqual([undefined, 1000, 2, undefined]);
  });

  it("offer the workflow retries and a time limit, but no error path for every node", () => {
    expect(describeSchema(workflowExecutionFormSchema()).map((field) => field.key)).toEqual(["retry", "timeoutMs"]);
  });

  it("store nothing for a node whose fields are all empty", () => {
    expect(storedExecution({})).toBeUndefined();
    expect(storedExecution({ onError: "continue" })).toEqual({ onError: "continue" });
  });
});
