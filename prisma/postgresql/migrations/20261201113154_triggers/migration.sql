-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "trigger" TEXT NOT NULL DEFAULT 'person',
ADD COLUMN     "triggerDetail" TEXT,
ADD COLUMN     "triggerNodeId" TEXT;

-- AlterTable
ALTER TABLE "Workflow" ADD COLUMN     "publishedAt" TIMESTAMP(3),
ADD COLUMN     "publishedVersion" INTEGER;

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "path" TEXT NOT NULL,
    "hookId" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "rejections" INTEGER NOT NULL DEFAULT 0,
    "lastRejectedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("path")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "hookId" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookEndpoint_workflowId_idx" ON "WebhookEndpoint"("workflowId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_createdAt_idx" ON "WebhookDelivery"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_hookId_idempotencyKey_key" ON "WebhookDelivery"("hookId", "idempotencyKey");

-- CreateIndex
CREATE INDEX "Run_trigger_createdAt_idx" ON "Run"("trigger", "createdAt");

-- AddForeignKey
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
