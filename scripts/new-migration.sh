#!/usr/bin/env bash
# `npm run db:migration -- <name>`: after an edit of prisma/models.prisma, writes
# prisma/<provider>/schema.prisma for each database (scripts/prisma-schemas.mjs) and
# prisma/<provider>/migrations/<UTC timestamp>_<name>/migration.sql, the SQL that takes a
# database built from that provider's committed migrations to its schema; then
# regenerates the clients.
#
# How, and why this way: with the driver-adapter configuration (prisma.config.ts) Prisma's
# `migrate dev` and `migrate diff --from-migrations` need a shadow database the WebAssembly
# engine cannot make. So the "before" side is built, not assumed:
#   1. apply the committed migrations to an empty database with `prisma migrate deploy`
#      (a temporary SQLite file; a temporary database on $TEST_POSTGRES_URL's server);
#   2. `prisma db pull` it into a temporary .prisma (introspection works offline);
#   3. `prisma migrate diff --from-schema-datamodel <pulled> --to-schema-datamodel
#      prisma/<provider>/schema.prisma --script`.
# This starts from what the migrations really produce, so a schema edit committed
# without its migration still gets one. Finally it applies all migrations, the new one
# included, to another empty database and checks that nothing is left to diff.
set -euo pipefail
cd "$(dirname "$0")/.."

name=${1:-}
if [[ ! "$name" =~ ^[a-z0-9_]+$ ]]; then
  echo "usage: npm run db:migration -- <name>   (lower-case letters, digits and _, e.g. add_run_tags)" >&2
  exit 64
fi

work=$(mktemp -d)
admin_url=${TEST_POSTGRES_URL:-postgresql://postgres@127.0.0.1:5432/test}
databases=()
cleanup() {
  for database in "${databases[@]}"; do psql "$admin_url" -qc "DROP DATABASE IF EXISTS \"$database\" WITH (FORCE)" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT
export PRISMA_HIDE_UPDATE_MESSAGE=1 CHECKPOINT_DISABLE=1
prisma=node_modules/.bin/prisma
say() { printf '[db:migration] %s\n' "$*"; }

# An empty database of <provider>, by URL.
empty_database() { # <provider> <label>
  if [ "$1" = sqlite ]; then
    echo "file:$work/$2.db"
  else
    local database="studio_migration_$2_$$"
    psql "$admin_url" -qc "CREATE DATABASE \"$database\"" >/dev/null
    databases+=("$database")
    echo "${admin_url%/*}/$database"
  fi
}

# The schema a database really has, as a .prisma file.
pull() { # <provider> <url> <output file>
  printf 'datasource db {\n  provider = "%s"\n  url      = env("DATABASE_URL")\n}\n' "$1" > "$3"
  if ! DATABASE_URL="$2" "$prisma" db pull --schema "$3" >"$work/pull.log" 2>&1; then
    cat "$work/pull.log" >&2
    say "prisma db pull failed on the $1 database built from the migrations"
    exit 1
  fi
}

node scripts/prisma-schemas.mjs
timestamp=$(date -u +%Y%m%d%H%M%S)
wrote=()
for provider in sqlite postgresql; do
  schema="prisma/$provider/schema.prisma"
  say "$provider: building a database from the committed migrations"
  before=$(empty_database "$provider" before)
  # The databases above are made in a subshell: record the PostgreSQL ones again for cleanup.
  [ "$provider" = postgresql ] && databases+=("${before##*/}")
  DATABASE_URL="$before" "$prisma" migrate deploy >"$work/deploy.log" 2>&1 || { cat "$work/deploy.log" >&2; exit 1; }
  pull "$provider" "$before" "$work/before-$provider.prisma"

  set +e
  DATABASE_URL="$before" "$prisma" migrate diff --from-schema-datamodel "$work/before-$provider.prisma" \
    --to-schema-datamodel "$schema" --script --exit-code > "$work/migration-$provider.sql" 2> "$work/diff.log"
  status=$?
  set -e
  case $status in
    0) say "$provider: $schema matches its committed migrations: no migration needed"; continue ;;
    2) ;;
    *) cat "$work/diff.log" >&2; say "$provider: prisma migrate diff failed"; exit 1 ;;
  esac

  last=$(find "prisma/$provider/migrations" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | tail -n 1)
  if [[ -n "$last" && ! "${timestamp}_${name}" > "$last" ]]; then
    say "$provider: the new migration would sort before $last (is the clock right?); not writing it"
    exit 1
  fi
  folder="prisma/$provider/migrations/${timestamp}_${name}"
  mkdir -p "$folder"
  cp "$work/migration-$provider.sql" "$folder/migration.sql"
  wrote+=("$folder/migration.sql")

  say "$provider: checking all migrations, the new one included, against $schema"
  after=$(empty_database "$provider" after)
  [ "$provider" = postgresql ] && databases+=("${after##*/}")
  DATABASE_URL="$after" "$prisma" migrate deploy >"$work/deploy.log" 2>&1 || { cat "$work/deploy.log" >&2; exit 1; }
  pull "$provider" "$after" "$work/after-$provider.prisma"
  if ! DATABASE_URL="$after" "$prisma" migrate diff --from-schema-datamodel "$work/after-$provider.prisma" \
    --to-schema-datamodel "$schema" --exit-code >/dev/null 2>&1; then
    say "WARNING: after $folder the database still differs from $schema; review the SQL"
    exit 1
  fi
done

[ "${#wrote[@]}" -eq 0 ] && exit 0
node scripts/prisma-schemas.mjs --generate >/dev/null
for file in "${wrote[@]}"; do
  say "wrote $file:"
  cat "$file"
done
say "review them, commit them with prisma/models.prisma and the schemas; the studio applies them at its next start"
