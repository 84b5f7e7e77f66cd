-- CreateTable
CREATE TABLE "RunDrive" (
    "runId" TEXT NOT NULL PRIMARY KEY,
    "requested" BOOLEAN NOT NULL DEFAULT true,
    "dueAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "takenBy" TEXT,
    "leaseUntil" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "RunDrive_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "RunDrive_dueAt_idx" ON "RunDrive"("dueAt");
