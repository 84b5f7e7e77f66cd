-- CreateTable
CREATE TABLE "RunModelUsage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "cachedInputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "calls" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "RunModelUsage_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ModelPrice" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "inputPerMillion" TEXT NOT NULL,
    "cachedInputPerMillion" TEXT,
    "outputPerMillion" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    "updatedBy" TEXT NOT NULL DEFAULT ''
);

-- CreateIndex
CREATE UNIQUE INDEX "RunModelUsage_runId_provider_model_key" ON "RunModelUsage"("runId", "provider", "model");

-- CreateIndex
CREATE UNIQUE INDEX "ModelPrice_provider_model_key" ON "ModelPrice"("provider", "model");

-- Backfill: runs from before this table get their usage from their stored node-model-usage events (one pass over them).
INSERT INTO "RunModelUsage" ("id", "runId", "provider", "model", "inputTokens", "cachedInputTokens", "outputTokens", "calls")
SELECT lower(hex(randomblob(16))), "runId", "provider", "model", sum("inputTokens"), sum("cachedInputTokens"), sum("outputTokens"), count(*)
FROM (
    SELECT "runId",
        json_extract("payload", '$.provider') AS "provider",
        json_extract("payload", '$.model') AS "model",
        coalesce(json_extract("payload", '$.inputTokens'), 0) AS "inputTokens",
        coalesce(json_extract("payload", '$.cachedInputTokens'), 0) AS "cachedInputTokens",
        coalesce(json_extract("payload", '$.outputTokens'), 0) AS "outputTokens"
    FROM "RunEvent" WHERE "type" = 'node-model-usage' AND json_valid("payload")
) AS "usage"
WHERE "provider" IS NOT NULL AND "model" IS NOT NULL
GROUP BY "runId", "provider", "model";
