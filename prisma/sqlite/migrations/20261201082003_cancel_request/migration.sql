-- AlterTable
ALTER TABLE "Run" ADD COLUMN "cancelRequestedAt" DATETIME;
ALTER TABLE "Run" ADD COLUMN "cancelRequestedBy" TEXT;
