-- DropIndex
DROP INDEX "ApprovalNotification_approvalId_personId_round_key";

-- AlterTable
ALTER TABLE "ApprovalNotification" ADD COLUMN "webhookId" TEXT;

-- CreateTable
CREATE TABLE "NotificationWebhook" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflowId" TEXT,
    "personId" TEXT,
    "url" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "secretCiphertext" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "NotificationWebhook_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "NotificationWebhook_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Person" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "login" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "passwordHash" TEXT,
    "role" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "oidcSubject" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT,
    "lastSignInAt" DATETIME,
    "deactivatedAt" DATETIME,
    "notifyByEmail" BOOLEAN NOT NULL DEFAULT true,
    "notifyInBrowser" BOOLEAN NOT NULL DEFAULT true
);
INSERT INTO "new_Person" ("active", "createdAt", "createdBy", "deactivatedAt", "displayName", "id", "lastSignInAt", "login", "oidcSubject", "passwordHash", "role") SELECT "active", "createdAt", "createdBy", "deactivatedAt", "displayName", "id", "lastSignInAt", "login", "oidcSubject", "passwordHash", "role" FROM "Person";
DROP TABLE "Person";
ALTER TABLE "new_Person" RENAME TO "Person";
CREATE UNIQUE INDEX "Person_login_key" ON "Person"("login");
CREATE UNIQUE INDEX "Person_oidcSubject_key" ON "Person"("oidcSubject");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "NotificationWebhook_workflowId_key" ON "NotificationWebhook"("workflowId");

-- CreateIndex
CREATE UNIQUE INDEX "NotificationWebhook_personId_key" ON "NotificationWebhook"("personId");

-- CreateIndex
CREATE UNIQUE INDEX "ApprovalNotification_approvalId_personId_round_channel_key" ON "ApprovalNotification"("approvalId", "personId", "round", "channel");
