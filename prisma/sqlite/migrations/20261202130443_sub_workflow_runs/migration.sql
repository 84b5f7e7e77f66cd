-- AlterTable
ALTER TABLE "Run" ADD COLUMN "errorKind" TEXT;
ALTER TABLE "Run" ADD COLUMN "sourceAttempt" INTEGER;
ALTER TABLE "Run" ADD COLUMN "sourceNodeId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Run_sourceRunId_sourceNodeId_sourceAttempt_key" ON "Run"("sourceRunId", "sourceNodeId", "sourceAttempt");
