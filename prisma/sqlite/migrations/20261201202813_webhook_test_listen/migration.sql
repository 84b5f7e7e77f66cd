-- CreateTable
CREATE TABLE "WebhookTestListen" (
    "path" TEXT NOT NULL PRIMARY KEY,
    "listenId" TEXT NOT NULL,
    "workflowId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "captured" TEXT,
    "capturedAt" DATETIME,
    "runId" TEXT,
    "problem" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "WebhookTestListen_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "WebhookTestListen_listenId_key" ON "WebhookTestListen"("listenId");

-- CreateIndex
CREATE INDEX "WebhookTestListen_workflowId_idx" ON "WebhookTestListen"("workflowId");

-- CreateIndex
CREATE INDEX "WebhookTestListen_expiresAt_idx" ON "WebhookTestListen"("expiresAt");
