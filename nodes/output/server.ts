import { asText, resolveTemplates } from "@/lib/workflow/templates";
import type { NodeKindServer } from "../node-kind-server";
import type { OutputNode } from "./definition";

export const outputServer: NodeKindServer<OutputNode> = {
  validate: (node, { checkTemplates }) => {
    checkTemplates(node.value, "value");
  },
  // A value that is one reference keeps its type as data; the content is always text.
  execute: (node, context) => {
    const value = resolveTemplates(node.value, context.scope());
    return { output: { content: asText(value), ...(typeof value === "string" ? {} : { data: value }) }, input: null };
  },
};
