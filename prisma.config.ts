import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";
import { isPostgresUrl } from "./lib/persistence/database-provider";
import { postgresCliAdapter } from "./prisma/postgres-cli-adapter";

// The CLI runs on Prisma's WebAssembly engine through a driver adapter, so no
// engine binary is downloaded (they cannot be, on these machines). The URL's
// scheme picks the database: postgresql:// (or postgres://) uses
// prisma/postgresql, anything else the embedded SQLite under prisma/sqlite;
// each folder holds its schema (generated from prisma/models.prisma) and its
// own migrations. `prisma generate --schema prisma/<provider>/schema.prisma`
// generates either client whatever the URL.
const url = process.env.DATABASE_URL ?? `file:${path.join(process.cwd(), ".data", "studio.db")}`;
// The schema's datasource reads DATABASE_URL; without it some commands fall back to
// the native engine and try to download it.
process.env.DATABASE_URL = url;
const postgres = isPostgresUrl(url);

export default defineConfig({
  schema: postgres ? "prisma/postgresql/schema.prisma" : "prisma/sqlite/schema.prisma",
  engine: "js",
  experimental: { adapter: true },
  adapter: async () => (postgres ? postgresCliAdapter(url) : new PrismaBetterSQLite3({ url })),
});
