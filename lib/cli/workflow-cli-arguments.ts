import { parseArgs } from "node:util";
import { z } from "zod";
import { markedError } from "../marked-error";

/** How to call the runner; printed with --help and after every usage error. */
export const WORKFLOW_CLI_USAGE = `Usage: npm run workflow -- run FILE.json [options]
       npm run workflow -- run WORKFLOW --studio URL [options]
       npm run workflow -- status RUN_ID --studio URL

Runs a workflow file without the web app. The workflow and its run are stored in the
studio's database, so the run also shows in the studio.

With --studio (or STUDIO_URL in the environment) it talks to a running studio over its
HTTP API instead: \`run\` starts the stored workflow WORKFLOW (its id, or its exact name),
prints each step as it happens and the output; \`status\` prints a run's status and output.
The credential is a personal access token (Settings -> Account -> Access tokens) in the
environment variable STUDIO_TOKEN, never on the command line (it would show in ps).
Starting a run needs a token carrying workflow:run; following one needs run:read.

Options:
  -i, --input KEY=VALUE  A value for the workflow's input node (repeat for each input).
                         Numbers and true/false are read from the text.
      --auto-approve     Approve every write, command and plan, and answer questions
                         with nothing. Only for workflows you trust. (Files only.)
      --data DIR         The studio's data folder (default STUDIO_DATA_DIR, else ./.data).
                         (Files only.)
      --studio URL       The studio to talk to, such as http://127.0.0.1:3000
                         (default STUDIO_URL).
      --no-wait          With --studio: when the run waits for a decision, say where to
                         decide it and exit with status 3 instead of waiting.
      --json             Print one JSON event per line (the last one carries the output).
  -h, --help             Show this text.

Without --auto-approve, approvals are asked on the terminal, and may as well be
decided in the studio's inbox (it shares the data folder); when no one is at a
terminal (stdin is not a TTY), they are denied. With --studio, approvals are decided
in the studio's inbox (printed when the run starts waiting) by someone who may.

Exit status: 0 the run succeeded, 1 it failed or was cancelled (or the studio could
not be reached), 2 a usage error (bad option, invalid file, bad input, no such
workflow or run), 3 the run is not finished (--no-wait and it waits for a
decision, or status of a run still going), 4 the studio refused the token
(invalid, expired, revoked, or without the scope needed).`;

/** A mistake in how the runner was called: exit status 2, with the usage text. */
export class UsageError extends markedError("neurosurfer.cli-usage", "UsageError") {
  constructor(
    message: string,
    /** Extra lines (such as each problem of an invalid workflow). */
    readonly details: readonly string[] = [],
    /** Whether the usage text helps (it does not for a problem inside the file). */
    readonly showUsage = true,
  ) {
    super(message);
  }
}

const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A workflow file run in this process, on the studio's SQLite database. */
export const LocalRunCommandSchema = z.object({
  command: z.literal("run"),
  file: z.string().min(1),
  /** The --input values as text; the input node's schema converts them. */
  inputs: z.record(z.string(), z.string()),
  autoApprove: z.boolean(),
  dataFolder: z.string().min(1).nullable(),
  json: z.boolean(),
});
export type WorkflowCliCommand = z.infer<typeof LocalRunCommandSchema>;

/** The studio's address, such as http://127.0.0.1:3000, without a trailing slash. */
const StudioUrlSchema = z
  .url({ protocol: /^https?$/, error: "expected an http:// or https:// address, such as http://127.0.0.1:3000" })
  .transform((url) => url.replace(/\/+$/, ""));

/** A run of a stored workflow started on a running studio over its HTTP API, with a personal access token. */
export const RemoteRunCommandSchema = z.object({
  command: z.literal("run"),
  /** The workflow's id, or its exact name. */
  workflow: z.string().min(1),
  studio: StudioUrlSchema,
  token: z.string().min(1),
  inputs: z.record(z.string(), z.string()),
  wait: z.boolean(),
  json: z.boolean(),
});
export type RemoteRunCommand = z.infer<typeof RemoteRunCommandSchema>;

/** A run's status and output, read from a running studio. */
export const RemoteStatusCommandSchema = z.object({
  command: z.literal("status"),
  runId: z.string().min(1),
  studio: StudioUrlSchema,
  token: z.string().min(1),
  json: z.boolean(),
});
export type RemoteStatusCommand = z.infer<typeof RemoteStatusCommandSchema>;

export type ParsedWorkflowCli =
  | { help: true }
  | { help: false; mode: "local"; command: WorkflowCliCommand }
  | { help: false; mode: "studio"; command: RemoteRunCommand | RemoteStatusCommand };

/**
 * `{ help: true }` for --help; otherwise the command, or a UsageError naming the flag at fault. `environment` gives
 * STUDIO_URL (the default of --studio) and STUDIO_TOKEN (the token, never an argument).
 */
export function parseWorkflowCliArguments(argv: readonly string[], environment: Readonly<Record<string, string | undefined>> = process.env): ParsedWorkflowCli {
  let parsed: ReturnType<typeof parseWithNode>;
  try {
    parsed = parseWithNode(argv);
  } catch (error) {
    // Node's messages already name the option ("Unknown option '--foo'", "Option '--data <value>' argument missing").
    throw new UsageError(error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, ".") : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };

  const [command, file, ...extra] = positionals;
  if (command === undefined) throw new UsageError(`Missing the command: expected \`run FILE.json\`.\n\n${WORKFLOW_CLI_USAGE}`, [], false);
  if (command !== "run" && command !== "status") throw new UsageError(`Unknown command "${command}": the commands are \`run FILE.json\`, \`run WORKFLOW --studio URL\` and \`status RUN_ID --studio URL\`.`);
  const studio = values.studio ?? nonEmpty(environment.STUDIO_URL);
  if (command === "status") return { help: false, mode: "studio", command: statusCommand(file, extra, studio, values, environment) };
  if (file === undefined) throw new UsageError(studio === undefined ? "Missing the workflow file: expected `run FILE.json`." : "Missing the workflow: expected `run WORKFLOW` (its id or its name).");
  if (extra.length > 0) {
    throw new UsageError(`Unexpected argument "${extra[0]}": give one workflow ${studio === undefined ? "file" : "(its id or name, in quotes if it has spaces)"}, and each input as --input KEY=VALUE.`);
  }

  const inputs: Record<string, string> = {};
  for (const pair of values.input ?? []) {
    const equals = pair.indexOf("=");
    if (equals <= 0) throw new UsageError(`--input "${pair}": expected KEY=VALUE, such as --input name=Ada.`);
    const key = pair.slice(0, equals);
    if (!INPUT_NAME.test(key)) throw new UsageError(`--input ${key}: an input name is a letter or _ followed by letters, digits or _.`);
    if (Object.hasOwn(inputs, key)) throw new UsageError(`--input ${key} is given twice; give each input once.`);
    inputs[key] = pair.slice(equals + 1);
  }
  if (studio !== undefined) return { help: false, mode: "studio", command: remoteRunCommand(file, inputs, studio, values, environment) };
  if (values["no-wait"]) throw new UsageError("--no-wait is for runs on a studio: add --studio URL (a file run here always waits for its end).");
  if (values.data !== undefined && values.data.trim() === "") throw new UsageError("--data: expected a folder, got an empty value.");

  return {
    help: false,
    mode: "local",
    command: LocalRunCommandSchema.parse({
      command,
      file,
      inputs,
      autoApprove: values["auto-approve"] ?? false,
      dataFolder: values.data ?? null,
      json: values.json ?? false,
    }),
  };
}

type ParsedOptions = ReturnType<typeof parseWithNode>["values"];

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** The studio's address and the token from the environment, checked; a UsageError saying what is missing. */
function studioAccess(studio: string, environment: Readonly<Record<string, string | undefined>>): { studio: string; token: string } {
  const url = StudioUrlSchema.safeParse(studio);
  if (!url.success) throw new UsageError(`--studio ${studio}: ${url.error.issues[0]?.message ?? "expected an http:// or https:// address"}.`);
  const token = nonEmpty(environment.STUDIO_TOKEN);
  if (token === undefined) {
    throw new UsageError(
      "Set STUDIO_TOKEN to a personal access token (make one on the studio's Settings -> Account page); it is read from the environment only, never from the command line, where ps would show it.",
      [],
      false,
    );
  }
  return { studio: url.data, token };
}

function remoteRunCommand(workflow: string, inputs: Record<string, string>, studio: string, values: ParsedOptions, environment: Readonly<Record<string, string | undefined>>): RemoteRunCommand {
  if (values["auto-approve"]) throw new UsageError("--auto-approve is for workflow files run here; on a studio, approvals are decided in its inbox by people who may decide them.");
  if (values.data !== undefined) throw new UsageError("--data is for workflow files run here; with --studio the studio keeps its own data.");
  if (/\.json$/i.test(workflow)) {
    throw new UsageError(`"${workflow}" looks like a workflow file: with --studio (or STUDIO_URL) the command starts a workflow stored in the studio, by its id or name. Import the file in the studio, or leave out --studio (unset STUDIO_URL) to run it here.`);
  }
  return RemoteRunCommandSchema.parse({ command: "run", workflow, inputs, ...studioAccess(studio, environment), wait: !values["no-wait"], json: values.json ?? false });
}

function statusCommand(runId: string | undefined, extra: readonly string[], studio: string | undefined, values: ParsedOptions, environment: Readonly<Record<string, string | undefined>>): RemoteStatusCommand {
  if (runId === undefined) throw new UsageError("Missing the run: expected `status RUN_ID`.");
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}": give one run id.`);
  if (studio === undefined) throw new UsageError("`status` reads a run from a running studio: add --studio URL, or set STUDIO_URL.");
  const misplaced = (["input", "auto-approve", "data", "no-wait"] as const).find((name) => values[name] !== undefined);
  if (misplaced) throw new UsageError(`--${misplaced} is for \`run\`, not \`status\`.`);
  return RemoteStatusCommandSchema.parse({ command: "status", runId, ...studioAccess(studio, environment), json: values.json ?? false });
}

function parseWithNode(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      input: { type: "string", short: "i", multiple: true },
      "auto-approve": { type: "boolean" },
      data: { type: "string" },
      studio: { type: "string" },
      "no-wait": { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
