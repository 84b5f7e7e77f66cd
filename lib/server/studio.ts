import { McpConnectionManager } from "@/lib/mcp";
import { defaultPool, ToolPool } from "@/lib/tools";
import { readEnvironment } from "@/lib/env";
import { databaseProvider, databaseUrl, disconnectDatabase, getSecretBox, prepareDatabase, secretResolver, type StudioDatabase } from "@/lib/persistence";
import { DatabaseFullOutputs } from "@/lib/persistence/kept-outputs";
import { listMcpServers, listMcpToolNames, rememberMcpToolNames } from "@/lib/persistence/mcp-server-store";
import { readEvents } from "@/lib/persistence/run-queries";
import { metricsSources } from "@/lib/persistence/metrics-queries";
import { StudioMetrics } from "@/lib/observability/studio-metrics";
import { startRunTracing } from "@/lib/observability/run-tracing";
import { DatabaseWaitingRunStore } from "@/lib/persistence/database-waiting-run-store";
import { PrismaRunStore } from "@/lib/persistence/run-store";
import { KeyedListeners, RunEventBus } from "@/lib/workflow/event-bus";
import { RunEngine } from "@/lib/workflow/run-engine";
import { prepareAccess, studioBaseUrl } from "./access/announce";
import { isLoopbackAddress } from "./access/host-policy";
import { seedExampleWorkflows } from "./example-workflows";
import { errorWorkflowStarter } from "./error-workflows";
import { studioChildRuns } from "./sub-workflows";
import { mayStart } from "./mcp-servers";
import { sweepOldDeliveries } from "./hooks/delivery-sweep";
import { EventRelay } from "./queue/event-relay";
import { listenForRunNotifications, type RunNotifications } from "./queue/run-notifications";
import { newWorkerChannel, RunQueue } from "./queue/run-queue";
import { LocalRunDriver, QueuedRunDriver, type RunDriver } from "./run-driver";
import { startApprovalDeadlines, type DeadlineJob } from "./approval-deadlines";
import { startApprovalNotifications, type NotificationJob } from "./approval-notifications";
import { startRetention } from "./retention";
import { startEvaluations } from "./evaluations/start-evaluations";
import { Scheduler } from "./schedules/scheduler";
import type { Studio, StudioRole } from "./studio-types";

// Defined below the modules that receive the studio (hooks, MCP servers), which studio.ts itself imports.
export type { Studio, StudioRole };

const GLOBAL_KEY = Symbol.for("neurosurfer.studio");
const SHUTDOWN_KEY = Symbol.for("neurosurfer.studio-shutdown");
type GlobalWithStudio = typeof globalThis & { [GLOBAL_KEY]?: Promise<Studio> };

/**
 * Starts the studio once per process (instrumentation calls it at boot; every
 * route awaits it): migrates the database, checks the secret key against the
 * stored secrets (refusing to start on a mismatch rather than losing them),
 * and resumes the runs a previous process left unfinished.
 */
export function startStudio(role?: StudioRole): Promise<Studio> {
  const holder = globalThis as GlobalWithStudio;
  // Every route awaits this on every request: the environment is read (and parsed) only when the studio first boots.
  holder[GLOBAL_KEY] ??= boot(role ?? readEnvironment().STUDIO_ROLE).catch((error: unknown) => {
    delete holder[GLOBAL_KEY];
    throw error;
  });
  return holder[GLOBAL_KEY];
}

async function boot(role: StudioRole): Promise<Studio> {
  const url = databaseUrl();
  const shared = databaseProvider(url) === "postgresql";
  if (!shared && role !== "all") {
    throw new Error(`STUDIO_ROLE=${role} needs a database that several processes share: set DATABASE_URL to a postgresql:// URL (see README, Scaling out).`);
  }
  const database = await prepareDatabase(url);
  await getSecretBox(database);
  // A worker serves nothing: no access token to prepare, no sign-in link to print.
  if (role !== "worker") await prepareAccess(database);
  const bus = new RunEventBus();
  // Every run's events reach every process's bus (here, or relayed from the database when scaled out): the processes that
  // serve count them, so one web process's /metrics speaks for the whole studio.
  // Scaled out, the run queue's counts too: it opens below, before anyone can scrape (every route awaits the boot).
  let runQueue: RunQueue | null = null;
  const metrics = new StudioMetrics(metricsSources(database, shared ? async () => (runQueue ? runQueue.jobCounts() : { waiting: 0, active: 0 }) : undefined));
  if (role !== "worker") bus.subscribeAll((event) => metrics.record(event));
  const testListens = new KeyedListeners<void>();
  const secrets = secretResolver(database);
  // Built-in tools are stateless apart from the job table: one set for the process.
  const builtIns = defaultPool();
  const mcp = new McpConnectionManager({
    secrets,
    reservedNames: () => builtIns.names(),
    rememberNames: (serverId, names) =>
      void rememberMcpToolNames(serverId, names, database).catch((error: unknown) => console.error("[studio] could not store MCP tool names", error)),
  });
  // A stdio server whose command nobody confirmed is never started (lib/server/mcp-servers.ts); its tools keep their names meanwhile.
  const reloadMcp = async () => {
    const [servers, names] = await Promise.all([listMcpServers(database), listMcpToolNames(database)]);
    const entries = servers.filter(mayStart).map((server) => ({ ...server, toolNames: names.get(server.id) ?? {} }));
    const held = servers.filter((server) => !mayStart(server)).flatMap((server) => Object.values(names.get(server.id) ?? {}));
    await mcp.configure(entries, held);
  };
  // MCP tools come and go with their servers; a new pool only when they changed.
  let cached: { tools: readonly unknown[]; pool: ToolPool } = { tools: [], pool: builtIns };
  const pool = () => {
    const remote = mcp.tools();
    if (remote !== cached.tools) cached = { tools: remote, pool: remote.length === 0 ? builtIns : new ToolPool([...builtIns.all(), ...remote]) };
    return cached.pool;
  };
  // Before resuming runs, so their MCP tools resolve; each server is bounded by its connect timeout.
  await reloadMcp().catch((error: unknown) => console.error("[studio] could not load the MCP servers", error));
  const log = (message: string, error?: unknown) => console.error(`[studio] ${message}`, error ?? "");
  // Spans are made where runs are driven, by the engine that stored their events (never from the bus, which in a
  // web process also carries other processes' runs): each once. No OTLP endpoint: null, and nothing is loaded.
  const tracing = await startRunTracing(log);
  const observer = tracing ? { observer: tracing } : {};
  if (role !== "worker") await seedExampleWorkflows(database).catch((error: unknown) => console.error("[studio] could not create the example workflows", error));
  if (role !== "worker") sweepOldDeliveries(database, log);
  // An error workflow's run is started like any other, by this process's way of starting runs (made below, once the engine is).
  let startRuns: RunDriver | null = null;
  const startErrorWorkflow = errorWorkflowStarter(database, () => startRuns!);
  if (!shared) {
    // One engine drives every run here: a child's end wakes its parent's step in the same engine.
    const childRuns = studioChildRuns({ database, runs: () => startRuns!, pool, secrets });
    const engine = new RunEngine({
      store: new PrismaRunStore(database),
      bus,
      pool,
      secrets,
      log,
      startErrorWorkflow,
      childRuns,
      fullOutputs: new DatabaseFullOutputs(database),
      ...observer,
    });
    const runs = new LocalRunDriver(engine, database);
    startRuns = runs;
    const resumed = await engine.resumeAll();
    if (resumed.length > 0) console.log(`[studio] resumed ${resumed.length} unfinished run(s)`);
    const schedules = await startScheduler({ database, runs, bus, pool, secrets, log });
    const retention = startRetention({ database, url, log });
    const deadlines = startDeadlines(database, engine, runs, log);
    const notifying = startNotifications(database, runs, log);
    const evaluations = startEvaluations({ database, runs, bus, pool, secrets, log });
    const shutdown = async () => {
      // Not waited for: a pass may be waiting on a judge's model, and nothing here closes the database under it.
      void evaluations.stop();
      schedules.stop();
      retention.stop();
      deadlines.stop();
      notifying?.stop();
      await tracing?.flush();
    };
    // scripts/serve.mjs calls it on SIGTERM: no slot starts a run once the process is going.
    (globalThis as { [SHUTDOWN_KEY]?: (graceMs: number) => Promise<void> })[SHUTDOWN_KEY] = shutdown;
    return { database, bus, testListens, engine, pool, secrets, mcp, reloadMcp, runs, role, schedules, retention, deadlines, evaluations, metrics, shutdown };
  }

  // PostgreSQL: runs are driven by whichever process takes their job; events, decisions and cancels reach every process
  // through the database. The engine publishes nowhere: every event reaches this process's bus through the relay, once.
  const queue = RunQueue.of(database, { log });
  runQueue = queue;
  const engine = new RunEngine({
    // A database server restarts under running workers: the engine's calls wait for it rather than fail the steps in flight.
    store: new DatabaseWaitingRunStore(
      new PrismaRunStore(database, { shared: { afterDecision: (transaction, approval) => queue.sendWithin(transaction, approval.runId) } }),
    ),
    bus: new RunEventBus(),
    pool,
    secrets,
    log,
    parkWhenWaiting: true,
    startErrorWorkflow,
    fullOutputs: new DatabaseFullOutputs(database),
    // A parent parked while its child ran is driven on by a job its child's end sends (again by any later drive of the finished child).
    childRuns: studioChildRuns({
      database,
      runs: () => startRuns!,
      pool,
      secrets,
      driveRun: (runId) => database.$transaction((transaction) => queue.sendWithin(transaction, runId)),
    }),
    ...observer,
  });
  // A process that works on runs hears the jobs sent to it on a channel of its own; one that only serves has no slots.
  const jobsChannel = role === "web" ? undefined : newWorkerChannel();
  const relay = new EventRelay(bus, (runId, afterSeq, limit) => readEvents(runId, afterSeq, limit, database), log);
  const notifications: RunNotifications = await listenForRunNotifications(url, {
    eventsStored: (runId, first, last, ending, inline) => relay.eventsStored(runId, first, last, ending, inline),
    decided: (approvalId) => void engine.noticeDecision(approvalId).catch((error: unknown) => log("could not wake a step for its decision", error)),
    cancelRequested: (runId) => {
      if (!engine.isActive(runId)) return;
      void database.run
        .findUnique({ where: { id: runId }, select: { cancelRequestedBy: true } })
        .then((row) => engine.cancel(runId, row?.cancelRequestedBy ?? null))
        .catch((error: unknown) => log(`could not cancel run ${runId}`, error));
    },
    testListenChanged: (listenId) => testListens.publish(listenId, undefined),
    jobSent: (runId, toThisProcess) => queue.jobSent(runId, toThisProcess),
    reconnected: () => {
      queue.wakeAll();
      relay.caughtUp(async (runId) => (await database.run.findUnique({ where: { id: runId }, select: { lastSeq: true } }))?.lastSeq ?? null);
      // A test listen may have changed while the connection was down: each stream reads its row again.
      for (const listenId of testListens.keys()) testListens.publish(listenId, undefined);
    },
    log,
  }, jobsChannel);
  const runs = new QueuedRunDriver(queue, database, bus);
  startRuns = runs;
  if (role !== "web") {
    queue.work(readEnvironment().STUDIO_WORKER_CONCURRENCY, async (runId, signal, driver) => {
      const outcome = await engine.drive(runId, { signal, claimed: driver });
      // Failing the job hands it to the next worker (after the queue's retry delay), which drives the run on.
      if (outcome === "handed-back") throw new Error(`Run ${runId} was handed back at shutdown; another worker drives it on.`);
    }, { channel: jobsChannel });
  }
  // Schedules fire where runs are driven: a web process serves only.
  const schedules = role === "web" ? null : await startScheduler({ database, runs, bus, pool, secrets, log });
  // Pruned where runs are driven, like schedules; the advisory lock keeps it to one process at a time.
  const retention = role === "web" ? null : startRetention({ database, url, log });
  // Checked where runs are driven; of several processes' passes each change happens once (conditional updates).
  const deadlines = role === "web" ? null : startDeadlines(database, engine, runs, log);
  // Sent where runs are driven too; each notification is taken by one process before it is sent.
  const notifying = role === "web" ? null : startNotifications(database, runs, log);
  // Driven where runs are driven; of several processes' passes each row starts and is scored once (the store's conditional updates).
  const evaluations = role === "web" ? null : startEvaluations({ database, runs, bus, pool, secrets, log });
  const shutdown = async (graceMs: number) => {
    schedules?.stop();
    retention?.stop();
    deadlines?.stop();
    notifying?.stop();
    // In-flight steps finish (up to graceMs), then each run goes back to the queue; the queue stops meanwhile, and the
    // evaluations' passes end (up to graceMs) before the database is closed below.
    await Promise.all([engine.handBackAll(graceMs), queue.stop(graceMs + 5_000), evaluations?.stop(graceMs)]);
    await notifications.close();
    await tracing?.flush();
    // Prisma's connections and the run hot path's pool: nothing of this process stays on the server.
    await disconnectDatabase(database);
  };
  // scripts/serve.mjs calls it on SIGTERM: in-flight steps finish (bounded) before the process ends.
  (globalThis as { [SHUTDOWN_KEY]?: (graceMs: number) => Promise<void> })[SHUTDOWN_KEY] = shutdown;
  return { database, bus, testListens, engine, pool, secrets, mcp, reloadMcp, runs, role, schedules, retention, deadlines, evaluations, metrics, shutdown };
}

function startDeadlines(database: StudioDatabase, engine: RunEngine, runs: RunDriver, log: (message: string, error?: unknown) => void): DeadlineJob {
  return startApprovalDeadlines({
    database,
    decide: (approvalId, decision) => engine.decide(approvalId, decision),
    escalated: (approvalId, runId) => runs.approvalChanged(approvalId, runId),
    everyMs: readEnvironment().STUDIO_DEADLINE_CHECK_MS,
    log,
  });
}

/**
 * Tells the people who may decide a waiting approval: by e-mail when a mail server is set (STUDIO_SMTP_URL), and through
 * the workflows' and people's webhooks. A pass with neither reads one count and stops.
 */
function startNotifications(database: StudioDatabase, runs: RunDriver, log: (message: string, error?: unknown) => void): NotificationJob {
  const environment = readEnvironment();
  // The same address the sign-in link names. Bound to every interface with no public URL, that is this machine's
  // loopback: a link others can open needs STUDIO_PUBLIC_URL (the host names the studio answers to are configured).
  const publicUrl = studioBaseUrl();
  if (!environment.STUDIO_PUBLIC_URL && !isLoopbackAddress(environment.HOST) && environment.STUDIO_SMTP_URL) {
    log(`notifications link to ${publicUrl}, which only this machine opens: set STUDIO_PUBLIC_URL to the address people reach the studio at`);
  }
  return startApprovalNotifications({
    database,
    smtpUrl: environment.STUDIO_SMTP_URL,
    from: environment.STUDIO_SMTP_FROM,
    publicUrl,
    everyMs: environment.STUDIO_NOTIFY_CHECK_MS,
    webhooks: { allowLocal: environment.STUDIO_NOTIFY_ALLOW_LOCAL },
    told: (approvalId, runId) => runs.approvalChanged(approvalId, runId),
    log,
  });
}

/** Starts firing schedules; a first pass that fails (the database briefly away) is logged, and the next pass tries again. */
async function startScheduler(options: ConstructorParameters<typeof Scheduler>[0]): Promise<Scheduler> {
  const scheduler = new Scheduler(options);
  await scheduler.start();
  return scheduler;
}
