-- AlterTable
ALTER TABLE "Approval" ADD COLUMN "escalatedAt" DATETIME;
