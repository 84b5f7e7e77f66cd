-- CreateTable
CREATE TABLE "EvaluationDataset" (
    "id" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "rowCount" INTEGER NOT NULL,
    "expectedCount" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,

    CONSTRAINT "EvaluationDataset_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EvaluationDatasetRow" (
    "id" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "inputs" TEXT NOT NULL,
    "expected" TEXT,
    "sourceRunId" TEXT,

    CONSTRAINT "EvaluationDatasetRow_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "EvaluationDataset_workflowId_name_key" ON "EvaluationDataset"("workflowId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "EvaluationDatasetRow_datasetId_position_key" ON "EvaluationDatasetRow"("datasetId", "position");

-- AddForeignKey
ALTER TABLE "EvaluationDataset" ADD CONSTRAINT "EvaluationDataset_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvaluationDatasetRow" ADD CONSTRAINT "EvaluationDatasetRow_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "EvaluationDataset"("id") ON DELETE CASCADE ON UPDATE CASCADE;
