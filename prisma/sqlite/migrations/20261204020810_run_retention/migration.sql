-- CreateTable
CREATE TABLE "RetentionPolicy" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflowId" TEXT,
    "keepDays" INTEGER,
    "keepLast" INTEGER,
    "keepFailedDays" INTEGER,
    "updatedAt" DATETIME NOT NULL,
    "updatedBy" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "RetentionPolicy_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "RetentionPolicy_workflowId_key" ON "RetentionPolicy"("workflowId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_runId_idx" ON "WebhookDelivery"("runId");
