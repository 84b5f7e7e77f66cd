-- AlterTable
ALTER TABLE "Grant" ADD COLUMN     "createdById" TEXT,
ADD COLUMN     "expiresAt" TIMESTAMP(3),
ADD COLUMN     "runId" TEXT;
