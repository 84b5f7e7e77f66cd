import { z } from "zod";
import { NO_SECRETS, Tool, ToolResult, type PermissionRequest, type ToolPool } from "@/lib/tools";
import type { StudioDatabase } from "@/lib/persistence";
import { PrismaRunStore } from "@/lib/persistence/run-store";
import type { RunEventBus } from "@/lib/workflow/event-bus";
import type { RunCommit } from "@/lib/workflow/run-types";
import { RunEngine, type RunEngineOptions } from "@/lib/workflow/run-engine";
import { LocalRunDriver } from "../run-driver";
import { studioChildRuns } from "../sub-workflows";

// For engine tests of steps that start runs of their own (Sub-workflow, For each), on a real database.

/** Sends after asking (a POST): what it sent is its result. */
export class SendTool extends Tool<{ label: string }> {
  name = "send";
  title = "Send";
  description = "Sends the label.";
  capabilities = ["web.request"] as const;
  inputModel = z.object({ label: z.string() });
  readonly sent: string[] = [];
  override isReadOnly(): boolean {
    return false;
  }
  override async describeAction(args: { label: string }): Promise<PermissionRequest[]> {
    const url = `https://example.com/${encodeURIComponent(args.label)}`;
    return [{ kind: "network", method: "POST", url, reason: `Send ${args.label}.`, preview: { kind: "request", method: "POST", url, headers: [], body: args.label } }];
  }
  override async call(args: { label: string }): Promise<ToolResult> {
    this.sent.push(args.label);
    return ToolResult.ok(`sent ${args.label}`, { sent: args.label });
  }
}

/** An engine over `database` with the studio's child runs, as a (re)started studio makes it; `store` to make it mortal. */
export function childRunEngine(options: { database: StudioDatabase; bus: RunEventBus; pool: ToolPool; workRoot: string; store?: PrismaRunStore; engine?: Partial<RunEngineOptions> }): RunEngine {
  const { database, bus, pool, workRoot } = options;
  let driver: LocalRunDriver | null = null;
  const childRuns = studioChildRuns({ database, runs: () => driver!, pool: () => pool, secrets: NO_SECRETS });
  const engine = new RunEngine({ store: options.store ?? new PrismaRunStore(database), bus, pool: () => pool, secrets: NO_SECRETS, workingDirectory: workRoot, childRuns, ...options.engine });
  driver = new LocalRunDriver(engine, database);
  return engine;
}

/**
 * A store that dies when `kill()` is called, as a process does on SIGKILL: from then on it writes nothing, and never
 * answers. A commit already handed to the database when the process died either landed before it died or never will:
 * `kill()` resolves once those in flight have landed (the database writes on a thread of its own), so whatever
 * drives the run next reads them, as a restarted process would. `died` resolves when it dies, by `kill()` or by `diesAt`.
 */
export function mortalStore(
  database: StudioDatabase,
  options: { diesAt?: (commit: RunCommit) => boolean } = {},
): { store: PrismaRunStore; kill: () => Promise<void>; died: Promise<void> } {
  const store = new PrismaRunStore(database);
  let dead = false;
  let died!: () => void;
  const diedPromise = new Promise<void>((resolve) => (died = resolve));
  const inFlight = new Set<Promise<unknown>>();
  const mortal = Object.assign(Object.create(store) as PrismaRunStore, {
    commit: (runId: string, commit: RunCommit) => {
      // `diesAt`: the process dies just before this commit reaches the database (a kill at that exact moment).
      if (!dead && options.diesAt?.(commit)) {
        dead = true;
        died();
      }
      if (dead) return new Promise<never>(() => {});
      const landing = store.commit(runId, commit);
      const settled = landing.catch(() => undefined).finally(() => inFlight.delete(settled));
      inFlight.add(settled);
      return landing;
    },
  });
  return {
    store: mortal,
    kill: async () => {
      dead = true;
      died();
      await Promise.all(inFlight);
    },
    died: diedPromise,
  };
}
