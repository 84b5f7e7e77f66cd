-- CreateTable
CREATE TABLE "EvaluationRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflowId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "draft" BOOLEAN NOT NULL DEFAULT false,
    "datasetId" TEXT NOT NULL,
    "datasetName" TEXT NOT NULL,
    "scorers" TEXT NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "rowCount" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    "startedById" TEXT,
    "startedByLabel" TEXT,
    "passes" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "EvaluationRun_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "EvaluationResult" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "evaluationId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "inputs" TEXT NOT NULL,
    "expected" TEXT,
    "status" TEXT NOT NULL,
    "runId" TEXT,
    "runStatus" TEXT,
    "output" TEXT,
    "error" TEXT,
    "verdicts" TEXT,
    "durationMs" INTEGER,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "costMicros" INTEGER,
    "failedSteps" INTEGER,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    CONSTRAINT "EvaluationResult_evaluationId_fkey" FOREIGN KEY ("evaluationId") REFERENCES "EvaluationRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "EvaluationRun_workflowId_createdAt_idx" ON "EvaluationRun"("workflowId", "createdAt");

-- CreateIndex
CREATE INDEX "EvaluationRun_status_idx" ON "EvaluationRun"("status");

-- CreateIndex
CREATE UNIQUE INDEX "EvaluationResult_runId_key" ON "EvaluationResult"("runId");

-- CreateIndex
CREATE INDEX "EvaluationResult_evaluationId_status_idx" ON "EvaluationResult"("evaluationId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "EvaluationResult_evaluationId_position_key" ON "EvaluationResult"("evaluationId", "position");
