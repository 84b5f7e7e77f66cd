import { inputFieldsOf } from "@/lib/workflow/run-inputs";
import type { NodeKindServer } from "../node-kind-server";
import type { ScheduleFiringPayload, ScheduleNode } from "./definition";
import { compileSchedule, isProblem } from "./slots";

export const scheduleServer: NodeKindServer<ScheduleNode> = {
  validate: (node, { definition, problems }) => {
    const error = (field: string | null, message: string) => problems.push({ nodeId: node.id, field, message, severity: "error" });
    const compiled = compileSchedule(node);
    if (isProblem(compiled)) error(compiled.field, compiled.message);
    // A schedule starts runs with the inputs' defaults: nothing else could fill a required input.
    for (const field of inputFieldsOf(definition)) {
      if (field.required && field.default === undefined) {
        error(null, `The run input "${field.name}" is required and has no default, so a scheduled run would have nothing to fill it with. Give it a default, or make it optional.`);
      }
    }
  },
  // The firing stored what it stands for as this step's input when the run was created; the step hands it on.
  execute: (_node, context) => {
    const payload = (context.triggerPayload ?? null) as ScheduleFiringPayload | null;
    const data = payload ? { slot: payload.slot, missedSlots: payload.missedSlots, timezone: payload.timezone } : null;
    return { output: { content: JSON.stringify(data), data }, input: data };
  },
};
