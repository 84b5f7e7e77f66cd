-- AlterTable
ALTER TABLE "McpServer" ADD COLUMN "commandConfirmedAt" DATETIME;
ALTER TABLE "McpServer" ADD COLUMN "commandConfirmedBy" TEXT;
ALTER TABLE "McpServer" ADD COLUMN "commandDigest" TEXT;

-- CreateTable
CREATE TABLE "StudioSession" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "person" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "clientAddress" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "authenticatedAt" DATETIME NOT NULL,
    "lastSeenAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT,
    "detail" TEXT NOT NULL DEFAULT '{}',
    "clientAddress" TEXT NOT NULL DEFAULT ''
);

-- CreateIndex
CREATE INDEX "StudioSession_expiresAt_idx" ON "StudioSession"("expiresAt");

-- CreateIndex
CREATE INDEX "AuditEntry_at_idx" ON "AuditEntry"("at");
