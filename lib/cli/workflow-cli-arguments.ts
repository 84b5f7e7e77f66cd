import { parseArgs } from "node:util";
import { z } from "zod";

/** How to call the runner; printed with --help and after every usage error. */
export const WORKFLOW_CLI_USAGE = `Usage: npm run workflow -- run FILE.json [options]

Runs a workflow file without the web app. The workflow and its run are stored in the
studio's database, so the run also shows in the studio.

Options:
  -i, --input KEY=VALUE  A value for the workflow's input node (repeat for each input).
                         Numbers and true/false are read from the text.
      --auto-approve     Approve every write, command and plan, and answer questions
                         with nothing. Only for workflows you trust.
      --data DIR         The studio's data folder (default STUDIO_DATA_DIR, else ./.data).
      --json             Print one JSON event per line (the last one carries the output).
  -h, --help             Show this text.

Without --auto-approve, approvals are asked on the terminal, and may as well be
decided in the studio's inbox (it shares the data folder); when no one is at a
terminal (stdin is not a TTY), they are denied.

Exit status: 0 the run succeeded, 1 it failed or was cancelled, 2 a usage error
(bad option, invalid file, bad input).`;

/** A mistake in how the runner was called: exit status 2, with the usage text. */
export class UsageError extends Error {
  readonly marker = "neurosurfer.cli-usage";
  constructor(
    message: string,
    /** Extra lines (such as each problem of an invalid workflow). */
    readonly details: readonly string[] = [],
    /** Whether the usage text helps (it does not for a problem inside the file). */
    readonly showUsage = true,
  ) {
    super(message);
    this.name = "UsageError";
  }
  static isInstance(error: unknown): error is UsageError {
    return error instanceof Error && (error as { marker?: unknown }).marker === "neurosurfer.cli-usage";
  }
}

const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const WorkflowCliCommandSchema = z.object({
  command: z.literal("run"),
  file: z.string().min(1),
  /** The --input values as text; the input node's schema converts them. */
  inputs: z.record(z.string(), z.string()),
  autoApprove: z.boolean(),
  dataFolder: z.string().min(1).nullable(),
  json: z.boolean(),
});
export type WorkflowCliCommand = z.infer<typeof WorkflowCliCommandSchema>;

/** `{ help: true }` for --help; otherwise the command, or a UsageError naming the flag at fault. */
export function parseWorkflowCliArguments(argv: readonly string[]): { help: true } | { help: false; command: WorkflowCliCommand } {
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
  if (command !== "run") throw new UsageError(`Unknown command "${command}": the only command is \`run FILE.json\`.`);
  if (file === undefined) throw new UsageError("Missing the workflow file: expected `run FILE.json`.");
  if (extra.length > 0) {
    throw new UsageError(`Unexpected argument "${extra[0]}": give one workflow file, and each input as --input KEY=VALUE.`);
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
  if (values.data !== undefined && values.data.trim() === "") throw new UsageError("--data: expected a folder, got an empty value.");

  return {
    help: false,
    command: WorkflowCliCommandSchema.parse({
      command,
      file,
      inputs,
      autoApprove: values["auto-approve"] ?? false,
      dataFolder: values.data ?? null,
      json: values.json ?? false,
    }),
  };
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
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
