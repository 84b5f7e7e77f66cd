-- AlterTable
ALTER TABLE "Approval" ADD COLUMN     "decidedById" TEXT;
