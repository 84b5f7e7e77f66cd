-- DropIndex
DROP INDEX "Run_sourceRunId_sourceNodeId_sourceAttempt_key";

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "loop" TEXT,
ADD COLUMN     "sourceItem" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE UNIQUE INDEX "Run_sourceRunId_sourceNodeId_sourceAttempt_sourceItem_key" ON "Run"("sourceRunId", "sourceNodeId", "sourceAttempt", "sourceItem");
