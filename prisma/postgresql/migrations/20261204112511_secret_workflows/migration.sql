-- AlterTable
ALTER TABLE "Secret" ADD COLUMN     "workflowIds" TEXT;
