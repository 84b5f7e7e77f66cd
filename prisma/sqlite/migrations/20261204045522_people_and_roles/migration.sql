-- AlterTable
ALTER TABLE "AuditEntry" ADD COLUMN "actorId" TEXT;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN "startedById" TEXT;
ALTER TABLE "Run" ADD COLUMN "startedByLabel" TEXT;

-- CreateTable
CREATE TABLE "Person" (
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
    "deactivatedAt" DATETIME
);

-- CreateTable
CREATE TABLE "Invitation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "secretHash" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "invitedBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "acceptedAt" DATETIME,
    "acceptedBy" TEXT,
    "revokedAt" DATETIME
);

-- CreateTable
CREATE TABLE "PersonalAccessToken" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "personId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    CONSTRAINT "PersonalAccessToken_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "WorkflowShare" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workflowId" TEXT NOT NULL,
    "personId" TEXT,
    "subjectRole" TEXT,
    "role" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,
    CONSTRAINT "WorkflowShare_workflowId_fkey" FOREIGN KEY ("workflowId") REFERENCES "Workflow" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WorkflowShare_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_StudioSession" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "person" TEXT NOT NULL,
    "personId" TEXT,
    "method" TEXT NOT NULL,
    "clientAddress" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "authenticatedAt" DATETIME NOT NULL,
    "lastSeenAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    CONSTRAINT "StudioSession_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_StudioSession" ("authenticatedAt", "clientAddress", "createdAt", "expiresAt", "id", "lastSeenAt", "method", "person") SELECT "authenticatedAt", "clientAddress", "createdAt", "expiresAt", "id", "lastSeenAt", "method", "person" FROM "StudioSession";
DROP TABLE "StudioSession";
ALTER TABLE "new_StudioSession" RENAME TO "StudioSession";
CREATE INDEX "StudioSession_expiresAt_idx" ON "StudioSession"("expiresAt");
CREATE INDEX "StudioSession_personId_idx" ON "StudioSession"("personId");
CREATE TABLE "new_Workflow" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "latestVersion" INTEGER NOT NULL DEFAULT 0,
    "publishedVersion" INTEGER,
    "publishedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "ownerId" TEXT,
    CONSTRAINT "Workflow_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "Person" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Workflow" ("createdAt", "description", "id", "latestVersion", "name", "publishedAt", "publishedVersion", "updatedAt") SELECT "createdAt", "description", "id", "latestVersion", "name", "publishedAt", "publishedVersion", "updatedAt" FROM "Workflow";
DROP TABLE "Workflow";
ALTER TABLE "new_Workflow" RENAME TO "Workflow";
CREATE INDEX "Workflow_ownerId_idx" ON "Workflow"("ownerId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "Person_login_key" ON "Person"("login");

-- CreateIndex
CREATE UNIQUE INDEX "Person_oidcSubject_key" ON "Person"("oidcSubject");

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_secretHash_key" ON "Invitation"("secretHash");

-- CreateIndex
CREATE INDEX "Invitation_createdAt_idx" ON "Invitation"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "PersonalAccessToken_tokenHash_key" ON "PersonalAccessToken"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "PersonalAccessToken_personId_name_key" ON "PersonalAccessToken"("personId", "name");

-- CreateIndex
CREATE INDEX "WorkflowShare_personId_idx" ON "WorkflowShare"("personId");

-- CreateIndex
CREATE INDEX "WorkflowShare_subjectRole_idx" ON "WorkflowShare"("subjectRole");

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowShare_workflowId_personId_key" ON "WorkflowShare"("workflowId", "personId");

-- CreateIndex
CREATE UNIQUE INDEX "WorkflowShare_workflowId_subjectRole_key" ON "WorkflowShare"("workflowId", "subjectRole");

-- CreateIndex
CREATE INDEX "AuditEntry_actorId_at_idx" ON "AuditEntry"("actorId", "at");

-- CreateIndex
CREATE INDEX "AuditEntry_action_at_idx" ON "AuditEntry"("action", "at");
