import { z } from "zod";

/**
 * How much an agent or workflow may do without asking.
 * - `plan`: nothing destructive runs until a plan is approved, then as `default`.
 * - `default`: destructive actions ask a person.
 * - `accept_edits`: file writes and edits are approved automatically; shell and network still ask.
 * - `bypass`: everything is allowed (trusted scripts). Denying guardrails still win.
 */
export const PermissionModeSchema = z
  .enum(["plan", "default", "accept_edits", "bypass"])
  .describe("How much may happen without asking a person.");
export type PermissionMode = z.infer<typeof PermissionModeSchema>;

/** `gated` asks a person, `open` allows, `denied` refuses; `readonly` (shell only) allows read-only commands. */
export const ShellPolicySchema = z.enum(["gated", "readonly", "denied", "open"]);
export const NetworkPolicySchema = z.enum(["gated", "open", "denied"]);
export const McpPolicySchema = z.enum(["gated", "open", "denied"]);
export const LocalNetworkPolicySchema = z.enum(["gated", "open", "denied"]);

/** Files that are never read or written, whatever the mode. */
export const DEFAULT_PATH_DENY = [
  "**/.env",
  "**/.env.*",
  "**/secrets/**",
  "**/*.pem",
  "**/*.key",
  "**/id_rsa*",
  "**/.git/**",
  "**/.git",
] as const;

/**
 * Limits that hold in every mode. Globs are matched against paths relative to
 * the step's root folder (`reports/**`). A denying guardrail always wins over
 * an approval.
 *
 * `writeScope` lists where writes are approved in advance. The original
 * defaults it to `["**"]`, which makes `default` mode never ask about writes;
 * the studio's promise is that destructive actions wait for a person, so here
 * it starts empty and grows through "Always allow".
 */
export const GuardrailsSchema = z.object({
  writeScope: z.array(z.string()).default([]).describe("Globs where writes are approved without asking."),
  shellPolicy: ShellPolicySchema.default("gated").describe("What happens when a step runs a shell command."),
  networkPolicy: NetworkPolicySchema.default("gated").describe("What happens on a network call that changes something."),
  mcpPolicy: McpPolicySchema.default("gated").describe("What happens when an MCP tool that is not read-only is called."),
  pathAllow: z.array(z.string()).default(["**"]).describe("Globs a step may read or write at all."),
  pathDeny: z.array(z.string()).default([...DEFAULT_PATH_DENY]).describe("Globs never read or written."),
  maxTurns: z.number().int().positive().default(200).describe("Most model turns an agent may take."),
  refuseBidiCommands: z
    .boolean()
    .default(true)
    .describe(
      "Refuse shell commands holding direction-changing Unicode characters (U+202A–202E, U+2066–2069, ...), which make a command read differently from how it runs.",
    ),
  localNetworkPolicy: LocalNetworkPolicySchema.default("gated").describe(
    "What happens when a step's request reaches this machine, its private network, a link-local address or a cloud metadata service, reading requests included.",
  ),
  localNetworkAllow: z
    .array(z.string().trim().min(1).max(300))
    .max(100)
    .default([])
    .describe("Hosts on this machine or its network that steps may reach without asking: a name or address, optionally with :port (127.0.0.1:11434, db.internal)."),
});
export type Guardrails = z.infer<typeof GuardrailsSchema>;

export function defaultGuardrails(): Guardrails {
  return GuardrailsSchema.parse({});
}
