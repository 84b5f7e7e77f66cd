import { parseSecretReference } from "@/lib/tools/contracts";
import { lookUpSecret } from "@/lib/tools/secrets";
import { inputFieldsOf } from "@/lib/workflow/run-inputs";
import type { NodeKindServer } from "../node-kind-server";
import { HOOK_PATH, hookPath, type WebhookNode } from "./definition";
import { parseRequestSource } from "./request-mapping";


export const webhookServer: NodeKindServer<WebhookNode> = {
  validate: async (node, { definition, secrets, problems, requirements }) => {
    const error = (field: string | null, message: string) => problems.push({ nodeId: node.id, field, message, severity: "error" });

    if (node.authentication === "unset") {
      error(
        "authentication",
        "Choose how senders prove who they are: a token in a header, an HMAC signature, or none (then anyone who learns the URL can start this workflow).",
      );
    }
    if (node.authentication === "header-token" || node.authentication === "hmac-sha256") {
      const name = parseSecretReference(node.secret);
      if (!name) {
        error("secret", node.authentication === "header-token" ? "Pick the stored secret senders must present as the token." : "Pick the stored secret that signs the deliveries (the sender's signing secret).");
      } else {
        const found = await lookUpSecret(secrets, name);
        const problem = found.value === undefined ? found.problem : found.value.trim() === "" ? "is empty" : "";
        requirements.push({ nodeId: node.id, kind: "secret", name, field: "secret", satisfied: problem === "", problem });
        if (problem) error("secret", `The secret ${name} ${problem}. Store it in Settings → Secrets under that name.`);
      }
    }

    // Two webhooks of one workflow cannot share a URL.
    const path = hookPath(node);
    const clash = definition.nodes.find((other) => other.kind === "webhook" && other.id !== node.id && hookPath(other) === path);
    if (clash) error(node.path ? "path" : null, `Another webhook of this workflow (${clash.label ?? clash.id}) has the address /hooks/${path}; give one of them another path.`);
    if (node.path && !HOOK_PATH.test(node.path)) error("path", "A path is lower-case words of letters, digits, - and _ joined by /, e.g. github/push.");

    const fields = inputFieldsOf(definition);
    const names = new Map(fields.map((field) => [field.name, field]));
    const mapped = new Set<string>();
    node.mapping.forEach((entry, index) => {
      if (!names.has(entry.input)) error(`mapping[${index}].input`, `The run has no input "${entry.input}"; add it to the run inputs node, or map another.`);
      if (mapped.has(entry.input)) error(`mapping[${index}].input`, `"${entry.input}" is mapped twice; keep one.`);
      mapped.add(entry.input);
      const source = parseRequestSource(entry.from);
      if (!("part" in source)) error(`mapping[${index}].from`, `"${entry.from}": ${source.problem}.`);
    });
    for (const field of fields) {
      if (field.required && field.default === undefined && !mapped.has(field.name)) {
        error("mapping", `The run input "${field.name}" is required and nothing maps it: every delivery would be refused. Map it from the request, or give it a default.`);
      }
    }
  },
  // The delivery arrived before the run was created: the step hands it on (stored as the step's input when the run was).
  execute: (_node, context) => {
    const request = context.triggerPayload ?? null;
    return { output: { content: JSON.stringify(request), data: request }, input: request };
  },
};
