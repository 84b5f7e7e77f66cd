-- CreateTable
CREATE TABLE "KeptOutputPart" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "part" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,

    CONSTRAINT "KeptOutputPart_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "KeptOutputPart_runId_nodeId_part_key" ON "KeptOutputPart"("runId", "nodeId", "part");

-- AddForeignKey
ALTER TABLE "KeptOutputPart" ADD CONSTRAINT "KeptOutputPart_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
