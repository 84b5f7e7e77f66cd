-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "sourceRunId" TEXT;

-- AlterTable
ALTER TABLE "Step" ADD COLUMN     "errorKind" TEXT,
ADD COLUMN     "retryAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Run_sourceRunId_idx" ON "Run"("sourceRunId");
