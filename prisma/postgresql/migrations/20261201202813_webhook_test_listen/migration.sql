-- CreateTable
CREATE TABLE "WebhookTestListen" (
    "path" TEXT NOT NULL,
    "listenId" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "captured" TEXT,
    "capturedAt" TIMESTAMP(3),
    "runId" TEXT,
    "problem" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookTestListen_pkey" PRIMARY KEY ("path")
);

-- CreateIndex
CREATE UNIQUE INDEX "WebhookTestListen_listenId_key" ON "WebhookTestListen"("listenId");

-- CreateIndex
CREATE INDEX "WebhookTestListen_workflowId_idx" ON "WebhookTestListen"("workflowId");

-- CreateIndex
CREATE INDEX "WebhookTestListen_expiresAt_idx" ON "WebhookTestListen"("expiresAt");

-- AddForeignKey
ALTER TABLE "WebhookTestListen" ADD CONSTRAINT "WebhookTestListen_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;
