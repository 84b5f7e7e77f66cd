-- AlterTable
ALTER TABLE "Step" ADD COLUMN "carriedAs" TEXT;

-- CreateTable
CREATE TABLE "WorkflowPin" (
    "workflowId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "output" TEXT NOT NULL,
    "fromRunId" TEXT,
    "pinnedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("workflowId", "nodeId"),
    CONSTRAINT "WorkflowPin_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
