-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN "publishedAt" DATETIME;
ALTER TABLE "Workflow" ADD COLUMN "publishedVersion" INTEGER;

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "path" TEXT NOT NULL PRIMARY KEY,
    "hookId" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "rejections" INTEGER NOT NULL DEFAULT 0,
    "lastRejectedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WebhookEndpoint_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflowId" TEXT NOT NULL,
    "hookId" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WebhookDelivery_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WebhookDelivery_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

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
    CONSTRAINT "Run_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Run_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "WorkflowVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Run" ("cancelRequestedAt", "cancelRequestedBy", "createdAt", "driver", "error", "finishedAt", "id", "inputs", "lastSeq", "output", "startedAt", "status", "versionId", "workflowId") SELECT "cancelRequestedAt", "cancelRequestedBy", "createdAt", "driver", "error", "finishedAt", "id", "inputs", "lastSeq", "output", "startedAt", "status", "versionId", "workflowId" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE INDEX "Run_status_idx" ON "Run"("status");
CREATE INDEX "Run_workflowId_createdAt_idx" ON "Run"("workflowId", "createdAt");
CREATE INDEX "Run_createdAt_idx" ON "Run"("createdAt");
CREATE INDEX "Run_trigger_createdAt_idx" ON "Run"("trigger", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "WebhookEndpoint_workflowId_idx" ON "WebhookEndpoint"("workflowId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_createdAt_idx" ON "WebhookDelivery"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_hookId_idempotencyKey_key" ON "WebhookDelivery"("hookId", "idempotencyKey");
