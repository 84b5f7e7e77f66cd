-- CreateTable
CREATE TABLE "ScheduleFiring" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflowId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "slot" DATETIME NOT NULL,
    "outcome" TEXT NOT NULL,
    "runId" TEXT,
    "missedSlots" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ScheduleFiring_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ScheduleFiring_workflowId_nodeId_outcome_idx" ON "ScheduleFiring"("workflowId", "nodeId", "outcome");

-- CreateIndex
CREATE UNIQUE INDEX "ScheduleFiring_workflowId_nodeId_slot_key" ON "ScheduleFiring"("workflowId", "nodeId", "slot");
