-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflowId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "inputs" TEXT NOT NULL,
    "output" TEXT,
    "error" TEXT,
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    "cancelRequestedAt" DATETIME,
    "cancelRequestedBy" TEXT,
    "driver" TEXT,
    "trigger" TEXT NOT NULL DEFAULT 'person',
    "triggerNodeId" TEXT,
    "triggerDetail" TEXT,
    "sourceRunId" TEXT,
    "sourceKind" TEXT,
    "sourceNodeId" TEXT,
    "sourceAttempt" INTEGER,
    "sourceItem" INTEGER NOT NULL DEFAULT 0,
    "loop" TEXT,
    "errorKind" TEXT,
    "permissions" TEXT,
    CONSTRAINT "Run_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Run_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "WorkflowVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Run" ("cancelRequestedAt", "cancelRequestedBy", "createdAt", "driver", "error", "errorKind", "finishedAt", "id", "inputs", "lastSeq", "output", "permissions", "sourceAttempt", "sourceKind", "sourceNodeId", "sourceRunId", "startedAt", "status", "trigger", "triggerDetail", "triggerNodeId", "versionId", "workflowId") SELECT "cancelRequestedAt", "cancelRequestedBy", "createdAt", "driver", "error", "errorKind", "finishedAt", "id", "inputs", "lastSeq", "output", "permissions", "sourceAttempt", "sourceKind", "sourceNodeId", "sourceRunId", "startedAt", "status", "trigger", "triggerDetail", "triggerNodeId", "versionId", "workflowId" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE INDEX "Run_status_idx" ON "Run"("status");
CREATE INDEX "Run_workflowId_createdAt_idx" ON "Run"("workflowId", "createdAt");
CREATE INDEX "Run_createdAt_idx" ON "Run"("createdAt");
CREATE INDEX "Run_trigger_createdAt_idx" ON "Run"("trigger", "createdAt");
CREATE INDEX "Run_sourceRunId_idx" ON "Run"("sourceRunId");
CREATE UNIQUE INDEX "Run_sourceRunId_sourceNodeId_sourceAttempt_sourceItem_key" ON "Run"("sourceRunId", "sourceNodeId", "sourceAttempt", "sourceItem");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
