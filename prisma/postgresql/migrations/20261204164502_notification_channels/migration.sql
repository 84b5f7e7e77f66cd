-- DropIndex
DROP INDEX "ApprovalNotification_approvalId_personId_round_key";

-- AlterTable
ALTER TABLE "ApprovalNotification" ADD COLUMN     "webhookId" TEXT;

-- AlterTable
ALTER TABLE "Person" ADD COLUMN     "notifyByEmail" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "notifyInBrowser" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "NotificationWebhook" (
    "id" TEXT NOT NULL,
    "workflowId" TEXT,
    "personId" TEXT,
    "url" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "secretCiphertext" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "NotificationWebhook_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "NotificationWebhook_workflowId_key" ON "NotificationWebhook"("workflowId");

-- CreateIndex
CREATE UNIQUE INDEX "NotificationWebhook_personId_key" ON "NotificationWebhook"("personId");

-- CreateIndex
CREATE UNIQUE INDEX "ApprovalNotification_approvalId_personId_round_channel_key" ON "ApprovalNotification"("approvalId", "personId", "round", "channel");

-- AddForeignKey
ALTER TABLE "NotificationWebhook" ADD CONSTRAINT "NotificationWebhook_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NotificationWebhook" ADD CONSTRAINT "NotificationWebhook_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;
