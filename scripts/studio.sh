#!/usr/bin/env bash
# `npm run studio`: install if needed, build if needed, then serve the studio
# on 127.0.0.1 (port $PORT, default 3000).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

say() { printf '[studio] %s\n' "$*"; }

# Installed dependencies are stale when package-lock.json changed after the
# last install (npm writes node_modules/.package-lock.json on every install).
if [ ! -d node_modules ] || [ ! -f node_modules/.package-lock.json ] \
  || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing dependencies (npm ci)"
  npm ci
fi

# Rebuild when there is no build, or any source or config is newer than it.
needs_build() {
  [ -f .next/BUILD_ID ] || return 0
  local newer
  newer=$(find app components lib public prisma \
    next.config.ts postcss.config.mjs tsconfig.json package.json package-lock.json proxy.ts instrumentation.ts \
    -newer .next/BUILD_ID -type f -print -quit 2>/dev/null || true)
  [ -n "$newer" ]
}

if needs_build; then
  say "building (next build)"
  node_modules/.bin/next build
fi

# HOST (default 127.0.0.1) and PORT (default 3000) are honoured by the launcher,
# which refuses an address other machines can reach unless STUDIO_PASSWORD is set.
say "starting on ${HOST:-127.0.0.1}:${PORT:-3000}"
exec node scripts/serve.mjs
