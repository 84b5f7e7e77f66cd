// `npm run worker`: a process that only drives runs (STUDIO_ROLE=worker), for a
// studio on PostgreSQL (DATABASE_URL=postgresql://…). It takes run jobs from the
// queue, STUDIO_WORKER_CONCURRENCY at a time, beside any number of web processes
// and other workers on the same database. SIGTERM (or Ctrl-C) lets in-flight
// steps finish for up to STUDIO_WORKER_GRACE_SECONDS (default 30), then hands
// the rest back to the queue; runs waiting for a person hold no worker.
import { EnvironmentError, readEnvironment } from "@/lib/env";
import { startStudio } from "@/lib/server/studio";

async function main(): Promise<void> {
  const environment = readEnvironment();
  const studio = await startStudio("worker");
  console.log(`[worker] driving runs, up to ${environment.STUDIO_WORKER_CONCURRENCY} at a time (pid ${process.pid})`);
  const graceMs = Math.max(0, Number(process.env.STUDIO_WORKER_GRACE_SECONDS ?? 30)) * 1000;
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1);
      stopping = true;
      console.log(`[worker] ${signal}: finishing what is in flight (up to ${graceMs / 1000} s)`);
      void studio
        .shutdown(graceMs)
        .catch((error: unknown) => console.error("[worker] shutdown", error))
        .finally(() => process.exit(0));
    });
  }
}

main().catch((error: unknown) => {
  console.error(`[worker] cannot start: ${EnvironmentError.isInstance(error) || error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
