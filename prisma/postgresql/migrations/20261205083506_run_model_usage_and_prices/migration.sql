-- CreateTable
CREATE TABLE "RunModelUsage" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "cachedInputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "calls" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RunModelUsage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ModelPrice" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "inputPerMillion" TEXT NOT NULL,
    "cachedInputPerMillion" TEXT,
    "outputPerMillion" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "ModelPrice_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RunModelUsage_runId_provider_model_key" ON "RunModelUsage"("runId", "provider", "model");

-- CreateIndex
CREATE UNIQUE INDEX "ModelPrice_provider_model_key" ON "ModelPrice"("provider", "model");

-- AddForeignKey
ALTER TABLE "RunModelUsage" ADD CONSTRAINT "RunModelUsage_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: runs from before this table get their usage from their stored node-model-usage events (one pass over them).
INSERT INTO "RunModelUsage" ("id", "runId", "provider", "model", "inputTokens", "cachedInputTokens", "outputTokens", "calls")
SELECT md5("runId" || chr(10) || "provider" || chr(10) || "model"), "runId", "provider", "model",
    sum("inputTokens"), sum("cachedInputTokens"), sum("outputTokens"), count(*)
FROM (
    SELECT "runId",
        "payload"::jsonb ->> 'provider' AS "provider",
        "payload"::jsonb ->> 'model' AS "model",
        coalesce(("payload"::jsonb ->> 'inputTokens')::integer, 0) AS "inputTokens",
        coalesce(("payload"::jsonb ->> 'cachedInputTokens')::integer, 0) AS "cachedInputTokens",
        coalesce(("payload"::jsonb ->> 'outputTokens')::integer, 0) AS "outputTokens"
    FROM "RunEvent" WHERE "type" = 'node-model-usage'
) AS "usage"
WHERE "provider" IS NOT NULL AND "model" IS NOT NULL
GROUP BY "runId", "provider", "model";
