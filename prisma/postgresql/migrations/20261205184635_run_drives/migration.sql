-- CreateTable
CREATE TABLE "RunDrive" (
    "runId" TEXT NOT NULL,
    "requested" BOOLEAN NOT NULL DEFAULT true,
    "dueAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "takenBy" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RunDrive_pkey" PRIMARY KEY ("runId")
);

-- CreateIndex
CREATE INDEX "RunDrive_dueAt_idx" ON "RunDrive"("dueAt");

-- AddForeignKey
ALTER TABLE "RunDrive" ADD CONSTRAINT "RunDrive_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The runs the job queue of earlier versions (pg-boss, schema "pgboss") was to drive are asked for again, so a worker
-- of this version drives them: every unfinished run. One waiting only for people is driven once, finds its approvals
-- still open and waits again. One whose decision came in just before the upgrade (its job not yet taken) goes on.
-- (No apostrophes or semicolons in these comments: the migration runner splits statements without reading comments.)
INSERT INTO "RunDrive" ("runId", "requested", "dueAt")
SELECT "id", true, now() AT TIME ZONE 'UTC' FROM "Run" WHERE "status" IN ('running', 'awaiting_input');

-- That queue and its schema are no longer used by anything.
DROP SCHEMA IF EXISTS pgboss CASCADE;
