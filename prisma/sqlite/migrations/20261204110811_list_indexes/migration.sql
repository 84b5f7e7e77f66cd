-- DropIndex
DROP INDEX "Run_trigger_createdAt_idx";

-- DropIndex
DROP INDEX "Run_createdAt_idx";

-- DropIndex
DROP INDEX "Run_workflowId_createdAt_idx";

-- DropIndex
DROP INDEX "Run_status_idx";

-- CreateIndex
CREATE INDEX "Run_status_createdAt_id_idx" ON "Run"("status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Run_workflowId_createdAt_id_idx" ON "Run"("workflowId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Run_createdAt_id_idx" ON "Run"("createdAt", "id");

-- CreateIndex
CREATE INDEX "Run_trigger_createdAt_id_idx" ON "Run"("trigger", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Workflow_updatedAt_id_idx" ON "Workflow"("updatedAt", "id");

-- CreateIndex
CREATE INDEX "Workflow_name_id_idx" ON "Workflow"("name", "id");

-- CreateIndex
CREATE INDEX "Workflow_createdAt_id_idx" ON "Workflow"("createdAt", "id");
