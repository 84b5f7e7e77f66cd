-- AlterTable
ALTER TABLE "McpServer" ADD COLUMN "maxCallSeconds" INTEGER;
