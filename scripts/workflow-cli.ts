// Runs a workflow file without the web app: npm run workflow -- run FILE.json --input key=value
import { runWorkflowFile } from "@/lib/cli/run-workflow-file";
import { parseWorkflowCliArguments, UsageError, WORKFLOW_CLI_USAGE } from "@/lib/cli/workflow-cli-arguments";

const EXIT_USAGE = 2;

async function main(argv: readonly string[]): Promise<number> {
  try {
    const parsed = parseWorkflowCliArguments(argv);
    if (parsed.help) {
      process.stdout.write(`${WORKFLOW_CLI_USAGE}\n`);
      return 0;
    }
    return await runWorkflowFile(parsed.command, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
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
