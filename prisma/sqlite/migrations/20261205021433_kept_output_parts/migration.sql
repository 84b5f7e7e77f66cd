-- CreateTable
CREATE TABLE "KeptOutputPart" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "part" INTEGER NOT NULL,
    "bytes" BLOB NOT NULL,
    CONSTRAINT "KeptOutputPart_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "KeptOutputPart_runId_nodeId_part_key" ON "KeptOutputPart"("runId", "nodeId", "part");
