import type { NodeKindServer } from "../node-kind-server";
import type { InputNode } from "./definition";

export const inputServer: NodeKindServer<InputNode> = {
  // Its fields are checked with the workflow's structure (one input node, unique names): see checkStructure.
  validate: () => undefined,
  // Hands the run's inputs on, as text and as data.
  execute: (_node, context) => ({ output: { content: JSON.stringify(context.inputs), data: context.inputs }, input: null }),
};
