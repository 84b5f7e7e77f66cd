-- AlterTable
ALTER TABLE "Run" ADD COLUMN "sourceRunId" TEXT;

-- AlterTable
ALTER TABLE "Step" ADD COLUMN "errorKind" TEXT;
ALTER TABLE "Step" ADD COLUMN "retryAt" DATETIME;

-- CreateIndex
CREATE INDEX "Run_sourceRunId_idx" ON "Run"("sourceRunId");
