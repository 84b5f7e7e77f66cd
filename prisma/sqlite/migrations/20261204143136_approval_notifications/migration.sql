-- CreateTable
CREATE TABLE "ApprovalNotification" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "approvalId" TEXT NOT NULL,
    "personId" TEXT NOT NULL,
    "round" TEXT NOT NULL,
    "channel" TEXT NOT NULL DEFAULT 'email',
    "address" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastError" TEXT,
    "sentAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ApprovalNotification_approvalId_fkey" FOREIGN KEY ("approvalId") REFERENCES "Approval" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ApprovalNotification_status_nextAttemptAt_idx" ON "ApprovalNotification"("status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "ApprovalNotification_approvalId_personId_round_key" ON "ApprovalNotification"("approvalId", "personId", "round");
