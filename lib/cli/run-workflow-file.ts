import { readFile } from "node:fs/promises";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { EnvironmentError } from "@/lib/env";
import { defaultPool } from "@/lib/tools";
import {
  applyMigrations,
  createWorkflow,
  databaseFilePath,
  databaseProvider,
  databaseUrl,
  displayDatabaseUrl,
  getSecretBox,
  getWorkflow,
  openDatabase,
  secretResolver,
  type StudioDatabase,
} from "@/lib/persistence";
import { DatabaseFullOutputs } from "@/lib/persistence/kept-outputs";
import { createRun, getRunDetail } from "@/lib/persistence/run-queries";
import { PrismaRunStore } from "@/lib/persistence/run-store";
import type { InputField, WorkflowDefinition } from "@/lib/workflow/definition";
import { RunEventBus } from "@/lib/workflow/event-bus";
import { RunEngine } from "@/lib/workflow/run-engine";
import { inputFieldsOf, runInputsSchema } from "@/lib/workflow/run-inputs";
import type { ApprovalRecord, RunEvent } from "@/lib/workflow/run-types";
import { validateWorkflow, type WorkflowProblem } from "@/lib/workflow/validate";
import { autoApprover, denyingApprover, terminalApprover, type Approver } from "./approvers";
import { describeEvent, displayValue } from "./event-lines";
import { UsageError, type WorkflowCliCommand } from "./workflow-cli-arguments";

export interface CliStreams {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Exit statuses: the run succeeded; it failed or was cancelled. (Usage errors, 2, are thrown as UsageError.) */
export const EXIT_SUCCEEDED = 0;
export const EXIT_FAILED = 1;

/**
 * Runs a workflow file to the end in this process: validates it, checks the
 * inputs, stores it (reusing an identical stored workflow of the same name),
 * creates a run and drives it with a RunEngine, printing each event. Returns
 * the exit status; throws UsageError for a bad file or bad inputs.
 */
export async function runWorkflowFile(command: WorkflowCliCommand, streams: CliStreams): Promise<number> {
  const document = await readWorkflowFile(command.file);
  if (command.dataFolder !== null) {
    // The data folder holds the database and the secret key: point both at it.
    process.env.STUDIO_DATA_DIR = path.resolve(command.dataFolder);
    delete process.env.DATABASE_URL;
  }
  let url: string;
  try {
    url = databaseUrl();
  } catch (error) {
    if (EnvironmentError.isInstance(error)) throw new UsageError(error.message, [], false);
    throw error;
  }
  if (databaseProvider(url) === "postgresql") {
    // There, runs are driven by the studio's workers through the job queue; a run driven here as well would have two drivers.
    throw new UsageError(
      `npm run workflow drives a run in this process, on the studio's embedded SQLite database; DATABASE_URL names PostgreSQL (${displayDatabaseUrl(url)}), where the studio's workers drive runs. ` +
        "Start the run through the studio instead (POST /api/workflows/{id}/runs, or its MCP endpoint), or unset DATABASE_URL / pass --data to run on a SQLite data folder.",
      [],
      false,
    );
  }
  const info = command.json ? streams.stderr : streams.stdout;
  await applyMigrations(url);
  const database = openDatabase(url);
  try {
    await getSecretBox(database);
    const pool = defaultPool();
    const secrets = secretResolver(database);
    const validation = await validateWorkflow(document, { pool, secrets });
    const errors = validation.problems.filter((problem) => problem.severity === "error");
    if (!validation.valid || !validation.definition) {
      throw new UsageError(
        `${command.file} is not a valid workflow (${errors.length} problem${errors.length === 1 ? "" : "s"}); fix ${errors.length === 1 ? "it" : "them"} and run again:`,
        errors.map(describeProblem),
        false,
      );
    }
    for (const warning of validation.problems.filter((problem) => problem.severity === "warning")) {
      streams.stderr.write(`warning: ${describeProblem(warning)}\n`);
    }
    const definition = validation.definition;
    const inputs = checkInputs(definition, command.inputs);

    const workflow = await storeWorkflow(definition, database);
    const { runId } = await createRun(workflow.id, inputs, { trigger: { kind: "cli", nodeId: null } }, database);
    info.write(
      `Running "${definition.name}" (workflow ${workflow.id}, version ${workflow.version}${workflow.reused ? ", already stored" : ""}) ` +
        `as run ${runId}\nDatabase: ${databaseFilePath(url)}\n`,
    );
    return await driveRun({ runId, database, command, streams, pool: () => pool, secrets });
  } finally {
    await database.$disconnect();
  }
}

async function readWorkflowFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path.resolve(file), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "there is no such file" : code === "EISDIR" ? "it is a folder" : (error as Error).message;
    throw new UsageError(`Cannot read the workflow file ${file}: ${reason}.`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${file} is not JSON (${(error as Error).message}); export the workflow from the studio, or fix the file.`, [], false);
  }
}

/** "node write, field settings.root: ..." */
function describeProblem(problem: WorkflowProblem): string {
  const where = [problem.nodeId !== null ? `node "${problem.nodeId}"` : null, problem.field !== null ? `field ${problem.field}` : null].filter(Boolean);
  return `${where.length > 0 ? `${where.join(", ")}: ` : ""}${problem.message}`;
}

/** The --input values, converted and checked by the input node's schema; a UsageError naming each bad input. */
function checkInputs(definition: WorkflowDefinition, given: Record<string, string>): Record<string, unknown> {
  const fields = inputFieldsOf(definition);
  const result = runInputsSchema(fields).safeParse(given);
  if (result.success) return result.data;
  const expected = fields.length > 0 ? `its inputs are ${fields.map(describeField).join(", ")}` : "it takes no inputs";
  const lines = result.error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => `--input ${key}: the workflow has no input "${key}"; ${expected}.`);
    }
    const name = String(issue.path[0] ?? "");
    const field = fields.find((each) => each.name === name);
    if (given[name] === undefined) return [`--input ${name}: this input is required (a ${field?.type ?? "string"}); add --input ${name}=VALUE.`];
    return [`--input ${name}: ${inputMessage(issue, field)} (got "${given[name]}").`];
  });
  throw new UsageError(lines[0]!, lines.slice(1));
}

function inputMessage(issue: z.core.$ZodIssue, field: InputField | undefined): string {
  if (field?.type === "number") return "expected a number";
  if (field?.type === "boolean") return "expected true or false";
  return issue.message.replace(/^Invalid input: /, "");
}

function describeField(field: InputField): string {
  const optional = !field.required || field.default !== undefined ? ", optional" : "";
  return `${field.name} (${field.type}${optional})`;
}

/** The stored workflow to run: the newest same-named one whose latest definition is identical, else a new one. */
async function storeWorkflow(definition: WorkflowDefinition, database: StudioDatabase): Promise<{ id: string; version: number; reused: boolean }> {
  const sameName = await database.workflow.findMany({
    where: { name: definition.name },
    orderBy: { updatedAt: "desc" },
    select: { id: true },
  });
  for (const { id } of sameName) {
    const stored = await getWorkflow(id, database);
    if (isDeepStrictEqual(stored.definition, definition)) return { id, version: stored.latestVersion, reused: true };
  }
  const created = await createWorkflow(definition, database);
  return { id: created.id, version: created.latestVersion, reused: false };
}

async function driveRun(options: {
  runId: string;
  database: StudioDatabase;
  command: WorkflowCliCommand;
  streams: CliStreams;
  pool: ConstructorParameters<typeof RunEngine>[0]["pool"];
  secrets: ConstructorParameters<typeof RunEngine>[0]["secrets"];
}): Promise<number> {
  const { runId, database, command, streams } = options;
  const out = command.json ? streams.stderr : streams.stdout;
  const bus = new RunEventBus();
  const engine = new RunEngine({
    store: new PrismaRunStore(database),
    bus,
    pool: options.pool,
    secrets: options.secrets,
    workingDirectory: process.cwd(),
    // A person may decide in the studio's inbox instead of this terminal: the studio writes the decision, this process finds it.
    decisionsElsewhereEveryMs: 500,
    // Kept where the studio finds them: a run of this terminal shows on the studio's run page, its download included.
    fullOutputs: new DatabaseFullOutputs(database),
    log: (message, error) => streams.stderr.write(`${message}${error ? `: ${error instanceof Error ? error.message : String(error)}` : ""}\n`),
  });

  let interrupted = false;
  const interrupt = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    out.write("\nCancelling the run (press Ctrl-C again to quit at once)…\n");
    void engine.cancel(runId, "terminal (Ctrl-C)");
  };
  const terminal = !command.autoApprove && streams.stdin.isTTY ? terminalApprover(streams.stdin, out, interrupt, (tool) => options.pool().get(tool)?.title) : null;
  const approver: Approver = command.autoApprove ? autoApprover : (terminal?.approver ?? denyingApprover);

  const unsubscribe = bus.subscribe(runId, (event: RunEvent) => {
    if (command.json) streams.stdout.write(`${JSON.stringify(event)}\n`);
    else for (const line of describeEvent(event)) streams.stdout.write(`${line}\n`);
    if (event.type === "approval-requested") {
      const approval = event.payload.approval as ApprovalRecord;
      approver(approval)
        .then((decision) => engine.decide(approval.id, decision))
        .catch((error: unknown) => {
          if (!interrupted) streams.stderr.write(`Could not decide approval ${approval.id}: ${error instanceof Error ? error.message : String(error)}\n`);
        });
    }
  });
  process.on("SIGINT", interrupt);
  try {
    await engine.start(runId);
    await engine.settled(runId);
  } finally {
    process.off("SIGINT", interrupt);
    unsubscribe();
    terminal?.close();
  }

  const detail = await getRunDetail(runId, database);
  if (detail.status === "succeeded") {
    if (!command.json) {
      out.write(`\nOutput:\n${displayValue(detail.output)}\n`);
    }
    return EXIT_SUCCEEDED;
  }
  // A failed or cancelled run has said so in its last event.
  if (detail.status === "running" || detail.status === "awaiting_input") {
    streams.stderr.write(`The run stopped on an internal error (status ${detail.status}); the studio resumes it at its next start.\n`);
  }
  return EXIT_FAILED;
}
