-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_McpServer" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "toolPrefix" TEXT,
    "command" TEXT,
    "args" TEXT NOT NULL DEFAULT '[]',
    "env" TEXT NOT NULL DEFAULT '{}',
    "cwd" TEXT,
    "url" TEXT,
    "headers" TEXT NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "commandConfirmedAt" DATETIME,
    "commandConfirmedBy" TEXT,
    "commandDigest" TEXT,
    "maxCallSeconds" INTEGER,
    "toolNames" TEXT NOT NULL DEFAULT '{}'
);
INSERT INTO "new_McpServer" ("args", "command", "commandConfirmedAt", "commandConfirmedBy", "commandDigest", "createdAt", "cwd", "enabled", "env", "headers", "id", "maxCallSeconds", "name", "toolPrefix", "transport", "updatedAt", "url") SELECT "args", "command", "commandConfirmedAt", "commandConfirmedBy", "commandDigest", "createdAt", "cwd", "enabled", "env", "headers", "id", "maxCallSeconds", "name", "toolPrefix", "transport", "updatedAt", "url" FROM "McpServer";
DROP TABLE "McpServer";
ALTER TABLE "new_McpServer" RENAME TO "McpServer";
CREATE UNIQUE INDEX "McpServer_name_key" ON "McpServer"("name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
