/**
 * The run queue's statements on PostgreSQL (table "RunDrive", one row per run
 * that needs driving or is being driven; see run-queue.ts for the design).
 *
 * Times are the database's own clock, so the processes' clocks never matter,
 * stored as Prisma stores a DateTime: UTC in a `timestamp without time zone`.
 * Every statement is one round trip; those with parameters run as prepared
 * statements on the hot path's pool.
 */

const NOW = `(now() AT TIME ZONE 'UTC')`;

/**
 * Asks for a drive of run ?, written in the caller's statement or transaction
 * (with ANNOUNCE_DRIVE: both take effect on its commit, or neither). A run
 * already asked for stays asked for once (at the earlier of the two times); a
 * run being driven now is driven again when that drive ends.
 */
export const REQUEST_DRIVE = `INSERT INTO "RunDrive" ("runId", "requested", "dueAt", "attempts") VALUES (?, true, ${NOW}, 0)
  ON CONFLICT ("runId") DO UPDATE SET "requested" = true, "dueAt" = LEAST("RunDrive"."dueAt", EXCLUDED."dueAt")`;

/** Tells the working process listening on channel ? that run ? was asked for (delivered on commit). */
export const ANNOUNCE_DRIVE = `SELECT pg_notify(?, ?)`;

/**
 * Takes up to $1 runs to drive, oldest due first, for a lease of $2 seconds:
 * those asked for and due, and those whose holder's lease ran out (its
 * process died). Each gets a new drive id, which is also written as its run's
 * `driver`: the claim that fences the writes of any drive before it, in the
 * same statement. Rows another transaction holds (a commit of the run in
 * flight, another process taking it) are skipped, never waited for: nothing
 * here can deadlock, and what was skipped is taken at the next fetch.
 */
export const TAKE_DRIVES = `WITH next AS (
  SELECT drive."runId" FROM "RunDrive" AS drive JOIN "Run" AS run ON run."id" = drive."runId"
  WHERE (drive."takenBy" IS NULL AND drive."requested" AND drive."dueAt" <= ${NOW})
     OR (drive."takenBy" IS NOT NULL AND drive."leaseUntil" < ${NOW})
  ORDER BY drive."dueAt"
  LIMIT $1
  FOR NO KEY UPDATE OF drive, run SKIP LOCKED
), taken AS (
  UPDATE "RunDrive" AS drive
  SET "takenBy" = gen_random_uuid()::text, "requested" = false, "leaseUntil" = ${NOW} + make_interval(secs => $2), "attempts" = drive."attempts" + 1
  FROM next WHERE drive."runId" = next."runId"
  RETURNING drive."runId", drive."takenBy"
), claimed AS (
  UPDATE "Run" AS run SET "driver" = taken."takenBy" FROM taken WHERE run."id" = taken."runId"
)
SELECT "runId", "takenBy" AS "driver" FROM taken`;

/** Renews the leases of the drives ($1 run ids, $2 drive ids) this process still holds, for $3 seconds; returns those renewed. */
export const RENEW_LEASES = `UPDATE "RunDrive" AS drive SET "leaseUntil" = ${NOW} + make_interval(secs => $3)
FROM unnest($1::text[], $2::text[]) AS held("runId", "driver")
WHERE drive."runId" = held."runId" AND drive."takenBy" = held."driver"
RETURNING drive."takenBy" AS "driver"`;

/**
 * Drives ended ($1 run ids, $2 drive ids, the ends that came together): each
 * row goes, unless another drive was asked for meanwhile, which is then free
 * for any worker to take (due already).
 */
export const END_DRIVES = `WITH ended AS (
  SELECT * FROM unnest($1::text[], $2::text[]) AS ended("runId", "driver")
), removed AS (
  DELETE FROM "RunDrive" AS drive USING ended WHERE drive."runId" = ended."runId" AND drive."takenBy" = ended."driver" AND NOT drive."requested"
)
UPDATE "RunDrive" AS drive SET "takenBy" = NULL, "leaseUntil" = NULL, "attempts" = 0
FROM ended WHERE drive."runId" = ended."runId" AND drive."takenBy" = ended."driver" AND drive."requested"`;

/**
 * Drive $2 of run $1 failed (an infrastructure error, or its process is
 * shutting down): the run is asked for again, due after a backoff of 1, 2, 4 ...
 * up to $3 seconds by the failures in a row, or at once when someone asked for
 * it meanwhile.
 */
export const FAIL_DRIVE = `UPDATE "RunDrive" SET "takenBy" = NULL, "leaseUntil" = NULL, "requested" = true,
  "dueAt" = CASE WHEN "requested" THEN "dueAt" ELSE ${NOW} + make_interval(secs => least($3::float8, power(2, greatest("attempts", 1) - 1))) END
WHERE "runId" = $1 AND "takenBy" = $2`;

/** Runs waiting for a worker (asked for, or their holder's lease ran out) and runs a worker drives now. */
export const COUNT_DRIVES = `SELECT
  count(*) FILTER (WHERE "takenBy" IS NULL OR "leaseUntil" < ${NOW})::int AS "waiting",
  count(*) FILTER (WHERE "takenBy" IS NOT NULL AND "leaseUntil" >= ${NOW})::int AS "active"
FROM "RunDrive"`;

/** Announces run $2 on channel $1 (wrapped: pg_notify returns void, which Prisma cannot read). */
export const NOTIFY = `SELECT 1 AS "sent" FROM (SELECT pg_notify($1, $2)) AS "notified"`;

/** The channels of this database's working processes (application_name of their listening connections). */
export const LIST_WORKER_CHANNELS = `SELECT DISTINCT "application_name" AS "channel" FROM pg_stat_activity
WHERE "datname" = current_database() AND left("application_name", $1) = $2`;

export interface TakenDrive {
  runId: string;
  driver: string;
}
