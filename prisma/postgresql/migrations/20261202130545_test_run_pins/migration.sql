-- AlterTable
ALTER TABLE "Step" ADD COLUMN     "carriedAs" TEXT;

-- CreateTable
CREATE TABLE "WorkflowPin" (
    "workflowId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "output" TEXT NOT NULL,
    "fromRunId" TEXT,
    "pinnedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WorkflowPin_pkey" PRIMARY KEY ("workflowId","nodeId")
);

-- AddForeignKey
ALTER TABLE "WorkflowPin" ADD CONSTRAINT "WorkflowPin_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;
