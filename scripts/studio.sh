#!/usr/bin/env bash
# `npm run studio`: install if needed, build if needed, then serve the studio
# on 127.0.0.1 (port $PORT, default 3000).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

say() { printf '[studio] %s\n' "$*"; }
started=$SECONDS

# Node 24 or newer (brought from the npm registry when this machine's is
# older), and the dependencies installed for it when missing or stale.
# shellcheck source=scripts/node-runtime.sh
source scripts/node-runtime.sh
node_runtime_ensure_dependencies

# Rebuild when there is no build, or any source or config is newer than it.
needs_build() {
  [ -f .next/BUILD_ID ] || return 0
  local newer
  newer=$(find app components lib nodes public prisma \
    next.config.ts postcss.config.mjs tsconfig.json package.json package-lock.json proxy.ts instrumentation.ts \
    -newer .next/BUILD_ID -type f -print -quit 2>/dev/null || true)
  [ -n "$newer" ]
}

if needs_build; then
  # The longest phase of a first start: say what it is and how long it takes, then how long it took.
  say "building the studio (next build, about 2-5 min on 2 cores; only after a change)..."
  build_started=$SECONDS
  node_modules/.bin/next build
  say "built in $((SECONDS - build_started)) s"
fi

# HOST (default 127.0.0.1) and PORT (default 3000) are honoured by the launcher,
# which refuses an address other machines can reach unless STUDIO_PASSWORD is set.
say "starting on ${HOST:-127.0.0.1}:${PORT:-3000} ($((SECONDS - started)) s since npm run studio)"
exec node scripts/serve.mjs
