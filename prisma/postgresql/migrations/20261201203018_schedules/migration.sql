-- CreateTable
CREATE TABLE "ScheduleFiring" (
    "id" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "slot" TIMESTAMP(3) NOT NULL,
    "outcome" TEXT NOT NULL,
    "runId" TEXT,
    "missedSlots" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ScheduleFiring_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ScheduleFiring_workflowId_nodeId_outcome_idx" ON "ScheduleFiring"("workflowId", "nodeId", "outcome");

-- CreateIndex
CREATE UNIQUE INDEX "ScheduleFiring_workflowId_nodeId_slot_key" ON "ScheduleFiring"("workflowId", "nodeId", "slot");

-- AddForeignKey
ALTER TABLE "ScheduleFiring" ADD CONSTRAINT "ScheduleFiring_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;
