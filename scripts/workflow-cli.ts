// Runs a workflow file without the web app: npm run workflow -- run FILE.json --input key=value
// or a stored workflow on a running studio: STUDIO_TOKEN=… npm run workflow -- run NAME --studio http://127.0.0.1:3000
// Each mode loads its own modules once the arguments are read: a usage error or --help answers without loading the
// engine and the database (1.4 s before), and a run on a studio loads only its client.
import { parseWorkflowCliArguments, UsageError, WORKFLOW_CLI_USAGE } from "@/lib/cli/workflow-cli-arguments";

const EXIT_USAGE = 2;

async function main(argv: readonly string[]): Promise<number> {
  try {
    const parsed = parseWorkflowCliArguments(argv);
    if (parsed.help) {
      process.stdout.write(`${WORKFLOW_CLI_USAGE}\n`);
      return 0;
    }
    const streams = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
    if (parsed.mode === "local") {
      const { runWorkflowFile } = await import("@/lib/cli/run-workflow-file");
      return await runWorkflowFile(parsed.command, streams);
    }
    const { runOnStudio, runStatusOnStudio } = await import("@/lib/cli/run-on-studio");
    return parsed.command.command === "status" ? await runStatusOnStudio(parsed.command, streams) : await runOnStudio(parsed.command, streams);
  } catch (error) {
    if (UsageError.isInstance(error)) {
      const details = error.details.map((line) => `  - ${line}\n`).join("");
      process.stderr.write(`workflow: ${error.message}\n${details}${error.showUsage ? "Run `npm run workflow -- --help` for usage.\n" : ""}`);
      return EXIT_USAGE;
    }
    process.stderr.write(`workflow: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
