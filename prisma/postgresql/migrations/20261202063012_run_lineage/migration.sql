-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "sourceKind" TEXT;

-- AlterTable
ALTER TABLE "Step" ADD COLUMN     "carriedFromRunId" TEXT;

-- Until now only an error workflow's run named a source run.
UPDATE "Run" SET "sourceKind" = 'error-workflow' WHERE "sourceRunId" IS NOT NULL;
