#!/usr/bin/env node
// Writes prisma/<provider>/schema.prisma for each database the studio runs on,
// from prisma/models.prisma (the one source of the models): the same models
// under that provider's datasource and a generator whose client lands in
// lib/persistence/generated/<provider>. Projects that ship several databases
// with Prisma do the same (umami, typebot): Prisma allows one provider per
// schema, and each provider keeps its own migrations beside its schema.
//
//   node scripts/prisma-schemas.mjs          write them
//   node scripts/prisma-schemas.mjs --check  exit 1, naming the stale files, if they differ from models.prisma
//   node scripts/prisma-schemas.mjs --generate  check, then `prisma generate` each provider's client (npm's postinstall)
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const PROVIDERS = ["sqlite", "postgresql"];

/** The schema text for `provider`, from the models' text. */
export function schemaFor(provider, models) {
  return `// GENERATED from prisma/models.prisma by scripts/prisma-schemas.mjs: edit that file, not this one.

generator client {
  provider   = "prisma-client"
  output     = "../../lib/persistence/generated/${provider}"
  engineType = "client"
}

datasource db {
  provider = "${provider}"
  url      = env("DATABASE_URL")
}

${models.replace(/^(\/\/[^\n]*\n)+\n/, "")}`;
}

/**
 * `prisma generate` per provider. prisma.config.ts picks its driver adapter from
 * DATABASE_URL, and a mismatched adapter makes the CLI reach for a native
 * engine it cannot download here, so each run gets a URL of its provider's
 * scheme (nothing connects to it).
 */
function generate() {
  const placeholders = { sqlite: `file:${path.join(root, ".data", "unused-by-generate.db")}`, postgresql: "postgresql://localhost:5432/unused-by-generate" };
  for (const provider of PROVIDERS) {
    execFileSync(process.execPath, [path.join(root, "node_modules", "prisma", "build", "index.js"), "generate", "--schema", `prisma/${provider}/schema.prisma`], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, DATABASE_URL: placeholders[provider], PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" },
    });
  }
}

function main() {
  const check = process.argv.includes("--check") || process.argv.includes("--generate");
  const models = readFileSync(path.join(root, "prisma", "models.prisma"), "utf8");
  const stale = [];
  for (const provider of PROVIDERS) {
    const file = path.join(root, "prisma", provider, "schema.prisma");
    const wanted = schemaFor(provider, models);
    let current = null;
    try {
      current = readFileSync(file, "utf8");
    } catch {}
    if (current === wanted) continue;
    if (check) stale.push(path.relative(root, file));
    else writeFileSync(file, wanted);
  }
  if (stale.length > 0) {
    console.error(`${stale.join(", ")} differ from prisma/models.prisma: run node scripts/prisma-schemas.mjs (or npm run db:migration -- <name>).`);
    process.exit(1);
  }
  if (process.argv.includes("--generate")) generate();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
