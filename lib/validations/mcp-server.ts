import { z } from "zod";

/** `files`, `github-issues`: used in tool names (`<name>__<tool>`), so kept short and plain. */
export const McpServerNameSchema = z
  .string()
  .trim()
  .min(1, "enter a name")
  .max(40, "a server name has at most 40 characters")
  .regex(/^[a-z0-9_-]+$/, "a server name is lower-case letters, digits, - and _ (e.g. files)")
  .meta({ title: "Name", description: "Lower-case letters, digits, - and _. Tool names clash-resolve to <name>__<tool>." });

export const McpToolPrefixSchema = z
  .string()
  .trim()
  .max(40, "a prefix has at most 40 characters")
  .regex(/^[a-z0-9_-]*$/, "a prefix is lower-case letters, digits, - and _")
  .transform((value) => (value === "" ? null : value))
  .nullable()
  .meta({ title: "Tool prefix", description: "When a tool's name is taken, it becomes <prefix>__<tool>." });

const KeyValuesSchema = (what: string, keyPattern: RegExp, keyHint: string) =>
  z
    .record(z.string().regex(keyPattern, keyHint).max(200), z.string().max(10_000, `a ${what} value has at most 10000 characters`))
    .refine((record) => Object.keys(record).length <= 100, `at most 100 ${what} entries`);

export const McpEnvSchema = KeyValuesSchema(
  "environment",
  /^[A-Za-z_][A-Za-z0-9_]*$/,
  "an environment variable name is letters, digits and _, not starting with a digit",
).meta({ title: "Environment", description: "Values may refer to a stored secret as ${NAME}." });

export const McpHeadersSchema = KeyValuesSchema(
  "header",
  /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/,
  "a header name is letters, digits and - (e.g. Authorization)",
).meta({ title: "Headers", description: "Values may refer to a stored secret as ${NAME}, e.g. Bearer ${GITHUB_TOKEN}." });

/** How long one call may take in all while the tool keeps reporting progress; null = the studio's default (10 minutes). */
export const McpMaxCallSecondsSchema = z
  .number()
  .int("a whole number of seconds")
  .min(1, "at least 1 second")
  .max(86_400, "at most 86400 seconds (a day)")
  .nullable()
  .meta({
    title: "Longest call (seconds)",
    description: "A call that reports no progress is abandoned after 60 s; progress extends the wait, up to this many seconds in all. Empty: 600.",
  });

const CommonFields = {
  name: McpServerNameSchema,
  enabled: z.boolean().default(true).meta({ title: "Enabled" }),
  toolPrefix: McpToolPrefixSchema.default(null),
  maxCallSeconds: McpMaxCallSecondsSchema.default(null),
};

export const StdioServerConfigSchema = z.object({
  ...CommonFields,
  transport: z.literal("stdio"),
  command: z.string().trim().min(1, "a stdio server needs a command").max(1_000).meta({ title: "Command", description: "The program to start, e.g. npx or node." }),
  args: z.array(z.string().max(10_000)).max(100).default([]).meta({ title: "Arguments" }),
  env: McpEnvSchema.default({}),
  cwd: z
    .string()
    .trim()
    .max(4_096)
    .transform((value) => (value === "" ? null : value))
    .nullable()
    .default(null)
    .meta({ title: "Working directory", format: "directory" }),
});

export const HttpServerConfigSchema = z.object({
  ...CommonFields,
  transport: z.literal("http"),
  url: z
    .url({ protocol: /^https?$/, error: "an http server needs a URL starting with http:// or https://" })
    .max(2_000)
    .meta({ title: "URL", description: "The server's streamable HTTP endpoint, e.g. https://example.com/mcp." }),
  headers: McpHeadersSchema.default({}),
});

/** One MCP server's configuration, as the form sends it and the store keeps it. */
export const McpServerConfigSchema = z.discriminatedUnion("transport", [StdioServerConfigSchema, HttpServerConfigSchema]);
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;
export type McpServerConfigInput = z.input<typeof McpServerConfigSchema>;
export type StdioServerConfig = z.infer<typeof StdioServerConfigSchema>;
export type HttpServerConfig = z.infer<typeof HttpServerConfigSchema>;

/**
 * Who confirmed a stdio server's command, and whether that confirmation still
 * covers the command as stored (a changed command needs a new one).
 */
export interface CommandConfirmation {
  confirmed: boolean;
  confirmedBy: string | null;
  confirmedAt: Date | null;
}

/** A stored server: its configuration plus identity (and, for stdio, the command's confirmation). */
export type McpServerRecord = McpServerConfig & { id: string; createdAt: Date; updatedAt: Date; commandConfirmation: CommandConfirmation | null };

/**
 * Exactly what a stdio server will run, as one canonical text: the program,
 * each argument, the folder and the environment (an LD_PRELOAD there runs code
 * as surely as the command does). The person confirms this text; the studio
 * starts the server only while the stored configuration still produces it.
 */
export function stdioCommandText(config: Pick<StdioServerConfig, "command" | "args" | "env" | "cwd">): string {
  const environment = Object.fromEntries(Object.entries(config.env).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)));
  return JSON.stringify({ command: config.command, args: config.args, cwd: config.cwd, env: environment });
}

/**
 * What the servers page sends: a configuration plus, for stdio, the command
 * text the person was shown and confirmed (see {@link stdioCommandText}).
 * Without it a new or changed command is stored but never started.
 */
export const McpServerBodySchema = z.discriminatedUnion("transport", [
  StdioServerConfigSchema.extend({
    confirmCommand: z.string().max(2_000_000).optional().meta({ description: "The exact command text the person confirmed." }),
  }),
  HttpServerConfigSchema,
]);
export type McpServerBody = z.infer<typeof McpServerBodySchema>;

/** The body without the confirmation, i.e. the configuration to store. */
export function configOfBody(body: McpServerBody): McpServerConfig {
  if (body.transport !== "stdio") return body;
  const { confirmCommand: _confirmCommand, ...config } = body;
  return config;
}

/** The exact command text of a stdio configuration as typed (defaults applied); null for an HTTP one. */
export function commandTextOf(input: McpServerConfigInput): string | null {
  return input.transport === "stdio" ? stdioCommandText(StdioServerConfigSchema.parse(input)) : null;
}

/** `input` as sent after the person read its command and confirmed it (see McpServerBodySchema). */
export function withCommandConfirmed(input: McpServerConfigInput): McpServerConfigInput & { confirmCommand?: string } {
  const text = commandTextOf(input);
  return text === null ? input : { ...input, confirmCommand: text };
}

export const ConfirmCommandBodySchema = z.object({
  command: z.string().min(1).max(2_000_000).meta({ description: "The exact command text the person was shown (stdioCommandText)." }),
});

/** `KEY=value` per line (environment) or `Name: value` per line (headers) -> a record; blank lines skipped. */
export function parseKeyValueLines(text: string, separator: "=" | ":"): Record<string, string> {
  const record: Record<string, string> = {};
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const at = line.indexOf(separator);
    const key = (at === -1 ? line : line.slice(0, at)).trim();
    record[key] = at === -1 ? "" : line.slice(at + 1).trim();
  }
  return record;
}

/** The inverse of {@link parseKeyValueLines}, for filling in the form. */
export function formatKeyValueLines(record: Readonly<Record<string, string>>, separator: "=" | ":"): string {
  return Object.entries(record)
    .map(([key, value]) => (separator === "=" ? `${key}=${value}` : `${key}: ${value}`))
    .join("\n");
}

/**
 * The servers page's form: lists as text (one argument per line, `KEY=value`,
 * `Name: value`), turned into a configuration and checked by
 * McpServerConfigSchema, the same schema the API parses with.
 */
export const McpServerFormSchema = z
  .object({
    name: z.string(),
    transport: z.enum(["stdio", "http"]),
    enabled: z.boolean(),
    toolPrefix: z.string(),
    maxCallSeconds: z.string(),
    command: z.string(),
    args: z.string(),
    env: z.string(),
    cwd: z.string(),
    url: z.string(),
    headers: z.string(),
  })
  .transform((form): McpServerConfigInput => {
    // Empty means the studio's default; anything else is checked as a number by McpMaxCallSecondsSchema.
    const maxCallSeconds = form.maxCallSeconds.trim() === "" ? null : Number(form.maxCallSeconds.trim());
    return form.transport === "stdio"
      ? {
          name: form.name,
          transport: "stdio",
          enabled: form.enabled,
          toolPrefix: form.toolPrefix,
          maxCallSeconds,
          command: form.command,
          args: form.args.split("\n").filter((line) => line.trim() !== ""),
          env: parseKeyValueLines(form.env, "="),
          cwd: form.cwd,
        }
      : {
          name: form.name,
          transport: "http",
          enabled: form.enabled,
          toolPrefix: form.toolPrefix,
          maxCallSeconds,
          url: form.url.trim(),
          headers: parseKeyValueLines(form.headers, ":"),
        };
  })
  .pipe(McpServerConfigSchema);
export type McpServerFormValues = z.input<typeof McpServerFormSchema>;

/** The form's values for a stored server (or blank ones for a new server). */
export function toFormValues(config: McpServerConfig | null): McpServerFormValues {
  const blank: McpServerFormValues = { name: "", transport: "stdio", enabled: true, toolPrefix: "", maxCallSeconds: "", command: "", args: "", env: "", cwd: "", url: "", headers: "" };
  if (!config) return blank;
  const common = {
    ...blank,
    name: config.name,
    transport: config.transport,
    enabled: config.enabled,
    toolPrefix: config.toolPrefix ?? "",
    maxCallSeconds: config.maxCallSeconds === null ? "" : String(config.maxCallSeconds),
  };
  return config.transport === "stdio"
    ? { ...common, command: config.command, args: config.args.join("\n"), env: formatKeyValueLines(config.env, "="), cwd: config.cwd ?? "" }
    : { ...common, url: config.url, headers: formatKeyValueLines(config.headers, ":") };
}
