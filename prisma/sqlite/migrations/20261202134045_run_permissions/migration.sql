-- AlterTable
ALTER TABLE "Run" ADD COLUMN "permissions" TEXT;
