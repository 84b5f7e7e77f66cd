import { z } from "zod";

/** `DB_URL`, `OPENAI_API_KEY`: what `${NAME}` references in a workflow use. */
export const SecretNameSchema = z
  .string()
  .trim()
  .max(128, "a secret name has at most 128 characters")
  .regex(/^[A-Z_][A-Z0-9_]*$/, "a secret name is upper-case letters, digits and _, not starting with a digit (e.g. DB_URL)")
  .meta({ title: "Name", description: "Referenced in a workflow as ${NAME}." });

export const SecretValueSchema = z
  .string()
  .min(1, "enter the secret's value")
  .max(10_000, "a secret value has at most 10000 characters")
  .meta({ title: "Value", description: "Stored encrypted; it is never shown again.", format: "password" });

export const SecretDescriptionSchema = z
  .string()
  .max(500, "a description has at most 500 characters")
  .meta({ title: "Description", description: "What this secret is for." });

export const SecretToolSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .nullable()
  .meta({ title: "Tool", description: "The tool whose credential picker offers this secret, if any." });

/** The workflows whose steps may use the secret (their ids); null: every workflow. */
export const SecretWorkflowsSchema = z
  .array(z.string().trim().min(1).max(200))
  .min(1, "choose at least one workflow, or let every workflow use it")
  .max(500, "a secret can be limited to at most 500 workflows")
  .nullable()
  .meta({ title: "Usable by", description: "The workflows whose steps may use it; every workflow when not limited." });

export const CreateSecretBodySchema = z.object({
  name: SecretNameSchema,
  value: SecretValueSchema,
  description: SecretDescriptionSchema.default(""),
  tool: SecretToolSchema.default(null),
  workflows: SecretWorkflowsSchema.default(null),
});
export type CreateSecretBody = z.infer<typeof CreateSecretBodySchema>;
export type CreateSecretInput = z.input<typeof CreateSecretBodySchema>;

/** Replace: each field given is replaced; an omitted one is kept. `tool: null` clears the tool. */
export const UpdateSecretBodySchema = z.object({
  value: SecretValueSchema.optional(),
  description: SecretDescriptionSchema.optional(),
  tool: SecretToolSchema.optional(),
  workflows: SecretWorkflowsSchema.optional(),
});
export type UpdateSecretBody = z.infer<typeof UpdateSecretBodySchema>;
export type UpdateSecretInput = z.input<typeof UpdateSecretBodySchema>;
