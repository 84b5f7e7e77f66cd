-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Approval" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "tool" TEXT,
    "operation" TEXT,
    "arguments" TEXT NOT NULL DEFAULT '{}',
    "preview" TEXT NOT NULL DEFAULT '',
    "effect" TEXT,
    "digest" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "decision" TEXT,
    "feedback" TEXT,
    "decidedBy" TEXT,
    "decidedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Approval_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Approval" ("arguments", "createdAt", "decidedAt", "decidedBy", "decision", "feedback", "id", "key", "kind", "nodeId", "operation", "preview", "runId", "status", "tool") SELECT "arguments", "createdAt", "decidedAt", "decidedBy", "decision", "feedback", "id", "key", "kind", "nodeId", "operation", "preview", "runId", "status", "tool" FROM "Approval";
DROP TABLE "Approval";
ALTER TABLE "new_Approval" RENAME TO "Approval";
CREATE INDEX "Approval_status_createdAt_idx" ON "Approval"("status", "createdAt");
CREATE UNIQUE INDEX "Approval_runId_key_key" ON "Approval"("runId", "key");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
