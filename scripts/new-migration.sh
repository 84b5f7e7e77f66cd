#!/usr/bin/env bash
# `npm run db:migration -- <name>`: writes prisma/migrations/<UTC timestamp>_<name>/migration.sql,
# the SQL that takes a database built from the committed migrations to prisma/schema.prisma.
#
# How, and why this way: with the driver-adapter configuration (prisma.config.ts) Prisma's
# `migrate dev` and `migrate diff --from-migrations` need a shadow database the WebAssembly
# engine cannot make, and `migrate diff --from-url` / `--from-schema-datasource` are refused.
# So the "before" side is built, not assumed:
#   1. apply the committed migrations to a temporary SQLite file with the studio's own
#      migrator (lib/persistence/migrate.ts, the code that runs at studio start);
#   2. `prisma db pull` that file into a temporary .prisma (introspection works offline);
#   3. `prisma migrate diff --from-schema-datamodel <pulled> --to-schema-datamodel
#      prisma/schema.prisma --script`.
# This starts from what the migrations really produce, so a schema.prisma edit that was
# committed without its migration still gets one. Should `db pull` fail, the script falls
# back to diffing from the schema.prisma at git HEAD (which trusts that HEAD's schema and
# migrations agreed), and says so. Finally it applies all migrations, the new one included,
# to a fresh file and checks that nothing is left to diff.
set -euo pipefail
cd "$(dirname "$0")/.."

name=${1:-}
if [[ ! "$name" =~ ^[a-z0-9_]+$ ]]; then
  echo "usage: npm run db:migration -- <name>   (lower-case letters, digits and _, e.g. add_run_tags)" >&2
  exit 64
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prisma=node_modules/.bin/prisma
say() { printf '[db:migration] %s\n' "$*"; }

apply_migrations() { # <sqlite file> [migrations folder]
  node_modules/.bin/tsx -e '
    import { migrate } from "./lib/persistence/migrate";
    migrate(process.argv[1], { migrationsFolder: process.argv[2] || undefined });
  ' "$1" "${2:-}"
}

say "building a database from the committed migrations"
apply_migrations "$work/before.db"

cat > "$work/before.prisma" <<'PRISMA'
datasource db {
  provider = "sqlite"
  url      = env("DATABASE_URL")
}
PRISMA
if DATABASE_URL="file:$work/before.db" "$prisma" db pull --schema "$work/before.prisma" >"$work/pull.log" 2>&1; then
  from="$work/before.prisma"
else
  say "prisma db pull failed (log below); diffing from prisma/schema.prisma at git HEAD instead"
  cat "$work/pull.log" >&2
  git show HEAD:prisma/schema.prisma > "$work/head.prisma"
  from="$work/head.prisma"
fi

set +e
DATABASE_URL="file:$work/unused.db" "$prisma" migrate diff --from-schema-datamodel "$from" \
  --to-schema-datamodel prisma/schema.prisma --script --exit-code > "$work/migration.sql" 2> "$work/diff.log"
status=$?
set -e
case $status in
  0) say "prisma/schema.prisma matches the committed migrations: no migration needed"; exit 0 ;;
  2) ;;
  *) cat "$work/diff.log" >&2; say "prisma migrate diff failed"; exit 1 ;;
esac

timestamp=$(date -u +%Y%m%d%H%M%S)
last=$(find prisma/migrations -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | tail -n 1)
if [[ -n "$last" && ! "${timestamp}_${name}" > "$last" ]]; then
  say "the new migration would sort before $last (is the clock right?); not writing it"
  exit 1
fi
folder="prisma/migrations/${timestamp}_${name}"
mkdir -p "$folder"
cp "$work/migration.sql" "$folder/migration.sql"

say "checking: all migrations, the new one included, against prisma/schema.prisma"
apply_migrations "$work/after.db"
cat > "$work/after.prisma" <<'PRISMA'
datasource db {
  provider = "sqlite"
  url      = env("DATABASE_URL")
}
PRISMA
if ! DATABASE_URL="file:$work/after.db" "$prisma" db pull --schema "$work/after.prisma" >"$work/pull.log" 2>&1; then
  cat "$work/pull.log" >&2
  say "WARNING: could not introspect the result to check it; review $folder/migration.sql by hand"
  exit 1
fi
if ! DATABASE_URL="file:$work/unused.db" "$prisma" migrate diff --from-schema-datamodel "$work/after.prisma" \
  --to-schema-datamodel prisma/schema.prisma --exit-code >/dev/null 2>&1; then
  say "WARNING: after $folder the database still differs from prisma/schema.prisma; review the SQL"
  exit 1
fi

say "wrote $folder/migration.sql:"
cat "$folder/migration.sql"
say "review it, commit it with the schema change; the studio applies it at its next start"
