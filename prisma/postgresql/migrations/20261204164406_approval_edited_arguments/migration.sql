-- AlterTable
ALTER TABLE "Approval" ADD COLUMN     "editedArguments" TEXT;
