-- AlterTable
ALTER TABLE "Run" ADD COLUMN "driver" TEXT;
