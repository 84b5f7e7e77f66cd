import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/persistence";
import { PrismaRunStore } from "@/lib/persistence/run-store";
import type { WorkflowDefinitionInput } from "@/lib/workflow/definition";

/**
 * The approval prompt of `npm run workflow` on a real pseudo-terminal (util-linux `script`):
 * what a model writes into a command cannot rewrite the screen the person decides on.
 */

const repoRoot = path.resolve(import.meta.dirname, "../..");
// tsx's CLI on this test's own Node (not the `node` a PATH lookup would find: the machine's may be older).
const TSX_CLI = path.join(repoRoot, "node_modules/tsx/dist/cli.mjs");

let folder: string;
let workRoot: string;

beforeAll(() => {
  folder = realpathSync(mkdtempSync(path.join(os.tmpdir(), "workflow-cli-pty-")));
  workRoot = path.join(folder, "work");
  mkdirSync(path.join(workRoot, "victim-cli"), { recursive: true });
  writeFileSync(path.join(workRoot, "victim-cli", "keep.txt"), "keep me");
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A terminal session: everything the CLI printed so far, and a way to wait for text and to type. */
function startOnTerminal(args: string[]) {
  const environment: NodeJS.ProcessEnv = { ...process.env, COLUMNS: "80", LINES: "40", TERM: "dumb" };
  for (const name of ["STUDIO_DATA_DIR", "DATABASE_URL", "STUDIO_SECRET_KEY", "STUDIO_PASSWORD"]) delete environment[name];
  const command = [process.execPath, TSX_CLI, "scripts/workflow-cli.ts", ...args].map(quote).join(" ");
  const child = spawn("script", ["--quiet", "--flush", "--return", "--command", `stty cols 80 rows 40; exec ${command}`, "/dev/null"], {
    cwd: repoRoot,
    env: environment,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let screen = "";
  const waiters: { text: string; resolve: () => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      if (screen.includes(waiter.text)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  child.stdout.on("data", (chunk: Buffer) => {
    screen += chunk.toString("utf8");
    check();
  });
  child.stderr.on("data", (chunk: Buffer) => (screen += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return {
    screen: () => screen,
    waitFor: (text: string) =>
      new Promise<void>((resolve) => {
        waiters.push({ text, resolve });
        check();
      }),
    type: (text: string) => child.stdin.write(text),
    exited,
  };
}

describe("npm run workflow on a terminal", () => {
  it("escapes the escape sequence and carriage return a command hides behind, and wraps it; denying keeps the target", async () => {
    const hostile = `echo hello; rm -rf victim-cli #\u001b[2K\recho hello`;
    const definition: WorkflowDefinitionInput = {
      name: "cli hidden command",
      mode: "default",
      nodes: [
        { id: "in", kind: "input", fields: [] },
        { id: "run", kind: "tool", tool: "run_command", operation: "run", settings: { root: workRoot }, arguments: { command: `${hostile} ${"x".repeat(90)}` } },
        { id: "out", kind: "output", value: "{{ nodes.run.output }}" },
      ],
      edges: [
        { id: "a", source: "in", target: "run" },
        { id: "b", source: "run", target: "out" },
      ],
    };
    const file = path.join(folder, "hidden-command.json");
    writeFileSync(file, JSON.stringify(definition));

    const session = startOnTerminal(["run", file, "--data", path.join(folder, "data")]);
    await session.waitFor("[y]es / [n]o? ");
    const screen = session.screen();
    // The prompt shows the whole command, with the escape and the carriage return as marks: nothing erased the rm.
    expect(screen).toContain("── Approve running this command by Run a Shell Command (run_command run)? ──");
    expect(screen).toContain("$ echo hello; rm -rf victim-cli #⟨U+001B⟩[2K⟨U+000D⟩echo hello");
    expect(screen).not.toContain("\u001b[2K");
    const prompt = screen.slice(screen.indexOf("── Approve running"), screen.indexOf("[y]es / [n]o? "));
    // Where it runs, in full: the folder itself, not "the step's folder" (the prompt wraps it, so compare without breaks).
    expect(prompt.replace(/\r?\n {2}↪ /g, "")).toContain(`(in ${workRoot})`);
    // Wrapped to the terminal's 80 columns, each continuation marked.
    const lines = prompt.split(/\r?\n/).filter((line) => line !== "");
    expect(lines.every((line) => [...line].length <= 80)).toBe(true);
    expect(lines.some((line) => line.startsWith("  ↪ "))).toBe(true);

    session.type("n\r");
    await session.waitFor("Reason, for the log (optional): ");
    session.type("\r");
    expect(await session.exited).toBe(1);
    expect(session.screen()).toMatch(/\[run\] FAILED: .*denied/);
    expect(existsSync(path.join(workRoot, "victim-cli", "keep.txt"))).toBe(true);
  }, 90_000);

  it("lets a person decide in the studio instead: the run waiting at the terminal wakes and finishes", async () => {
    const definition: WorkflowDefinitionInput = {
      name: "cli decided in the studio",
      mode: "default",
      nodes: [
        { id: "in", kind: "input", fields: [] },
        { id: "write", kind: "tool", tool: "write_file", settings: { root: workRoot }, arguments: { path: "from-the-studio.txt", content: "approved elsewhere" } },
        { id: "out", kind: "output", value: "done" },
      ],
      edges: [
        { id: "a", source: "in", target: "write" },
        { id: "b", source: "write", target: "out" },
      ],
    };
    const file = path.join(folder, "decided-elsewhere.json");
    writeFileSync(file, JSON.stringify(definition));
    const dataFolder = path.join(folder, "data-elsewhere");

    const session = startOnTerminal(["run", file, "--data", dataFolder]);
    await session.waitFor("[o]nce / [a]lways / [d]eny? ");
    expect(session.screen()).toContain("── Approve the write to from-the-studio.txt by Write a File (write_file)? ──");
    // Ctrl-D ends the terminal's input: it says the run now waits for the inbox instead of waiting silently.
    session.type("\u0004");
    await session.waitFor("The run waits for the decisions in the studio's inbox");
    // The studio's process writes the decision to the shared database, as its inbox does; nobody types at the terminal.
    const database = openDatabase(`file:${path.join(dataFolder, "studio.db")}`);
    try {
      const pending = await database.approval.findFirstOrThrow({ where: { status: "pending" } });
      const decided = await new PrismaRunStore(database).decideApproval(pending.id, { decision: "once", feedback: null, decidedBy: "studio user" });
      expect(decided?.changed).toBe(true);
    } finally {
      await database.$disconnect();
    }
    expect(await session.exited).toBe(0);
    expect(session.screen()).toContain("(by studio user)");
    expect(readFileSync(path.join(workRoot, "from-the-studio.txt"), "utf8")).toBe("approved elsewhere");
  }, 90_000);
});
