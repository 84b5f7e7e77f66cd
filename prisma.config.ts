import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";

// The CLI runs on Prisma's WebAssembly engine through the driver adapter, so no
// engine binary is downloaded (they cannot be, on these machines).
const url = process.env.DATABASE_URL ?? `file:${path.join(process.cwd(), ".data", "studio.db")}`;
// The schema's datasource reads DATABASE_URL; without it some commands fall back to
// the native engine and try to download it.
process.env.DATABASE_URL = url;

export default defineConfig({
  schema: "prisma/schema.prisma",
  engine: "js",
  experimental: { adapter: true },
  adapter: async () => new PrismaBetterSQLite3({ url }),
});
