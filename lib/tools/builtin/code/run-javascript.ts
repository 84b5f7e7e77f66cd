import { z } from "zod";
import { sharedSandboxPool, type JsonValue } from "../../../sandbox";
import { CoreTool } from "../shared/core-tool";
import type { ToolContext } from "../../tool-context";
import { ToolResult } from "../../tool-result";
import { describeSandboxError, retryableSandboxError, toolErrorKindOfSandbox } from "./sandbox-errors";

/** The longest program a model may send: a computation, not an application. */
const MAX_CODE_LENGTH = 20_000;
/** The most of a result's JSON the model reads back as text; the structured result holds all of it. */
const TEXT_SHOWN = 20_000;

const RunJavaScriptSettings = z.object({
  timeLimitMs: z.number().int().min(10).max(30_000).default(1_000).describe("How long one call may run, in milliseconds (10 to 30,000)."),
});
type RunJavaScriptSettings = z.infer<typeof RunJavaScriptSettings>;

const RunJavaScriptArgs = z.object({
  code: z
    .string()
    .trim()
    .min(1, "write the body of a function that returns a JSON value, e.g. return input.a + input.b;")
    .max(MAX_CODE_LENGTH)
    .describe("The body of a JavaScript (ES2023) function that returns a JSON value; it receives `input`. Example: return input.rows.filter(r => r.total > 10).length;"),
  input: z.unknown().optional().describe("JSON data the code receives as `input` (numbers, text, lists, objects)."),
});
type RunJavaScriptArgs = z.infer<typeof RunJavaScriptArgs>;

/**
 * Lets an agent compute exactly (sums, dates, sorting, reshaping JSON) instead of guessing, with the Code node's
 * sandbox and limits: QuickJS in a separate process with no files, network, environment or secrets. It changes
 * nothing outside its sandbox, so it is read-only and safe to run beside anything. It declares no capability:
 * the vocabulary is the original's closed one, and none of its tags means "compute".
 */
export class RunJavaScriptTool extends CoreTool<RunJavaScriptArgs, RunJavaScriptSettings> {
  constructor() {
    super({
      name: "run_javascript",
      title: "Run JavaScript",
      icon: "braces",
      domain: "code",
      description:
        "Run a short JavaScript program in a sandbox to compute something exactly: arithmetic, dates, counting, sorting, filtering or reshaping JSON. The code is a function body that receives `input` and must `return` a JSON value. There is no file system, network, require or process.",
      inputModel: RunJavaScriptArgs,
      runtime: "local_subprocess",
      settingsModel: RunJavaScriptSettings,
      readOnly: true,
      concurrencySafe: true,
    });
  }

  override progressMessage(): string {
    return "Running JavaScript…";
  }

  override async call(args: RunJavaScriptArgs, ctx: ToolContext<RunJavaScriptSettings>): Promise<ToolResult> {
    const input = jsonCopy(args.input);
    if (input === undefined) return ToolResult.error("`input`: expected JSON data (numbers, text, lists, objects), or leave it out.", { kind: "invalid-input" });
    const outcome = await sharedSandboxPool().run({ code: args.code, scope: { input }, limits: { timeMs: ctx.settings.timeLimitMs } }, { signal: ctx.signal });
    if (!outcome.ok) {
      return ToolResult.error(`\`code\`: ${describeSandboxError(outcome.error)}`, { kind: toolErrorKindOfSandbox(outcome.error), retryable: retryableSandboxError(outcome.error) });
    }
    const text = JSON.stringify(outcome.value, null, 2);
    const shown = text.length > TEXT_SHOWN ? `${text.slice(0, TEXT_SHOWN)}\n[${(text.length - TEXT_SHOWN).toLocaleString("en")} more characters of JSON not shown]` : text;
    return ToolResult.ok(shown, outcome.value);
  }
}

/** `value` as plain JSON (absent → null); undefined when it cannot be JSON. */
function jsonCopy(value: unknown): JsonValue | undefined {
  if (value === undefined) return null;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
  } catch {
    return undefined;
  }
}
