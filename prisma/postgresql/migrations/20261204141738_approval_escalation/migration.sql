-- AlterTable
ALTER TABLE "Approval" ADD COLUMN     "escalatedAt" TIMESTAMP(3);
