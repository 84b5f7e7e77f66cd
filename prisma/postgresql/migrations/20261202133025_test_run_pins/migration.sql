-- AlterTable
ALTER TABLE "Step" ADD COLUMN     "carriedAs" TEXT;

-- CreateTable
CREATE TABLE "WorkflowPin" (
    "id" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "output" TEXT NOT NULL,
    "fromRunId" TEXT,
    "pinnedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkflowPin_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowPin_workflowId_nodeId_key" ON "WorkflowPin"("workflowId", "nodeId");

-- AddForeignKey
ALTER TABLE "WorkflowPin" ADD CONSTRAINT "WorkflowPin_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;
