#!/usr/bin/env bash
# What `npm test` runs, locally and in CI: services, types, lint, the
# production build, unit and integration tests (the API tests against the
# built server), then browser tests when there are any. Everything runs on
# Node 24 or newer: scripts/node-runtime.sh brings it from the npm registry
# when this machine's Node is older, and installs the dependencies (npm ci)
# when they are missing, for that Node.
#
# The run owns what it starts: every test server, worker, database and folder
# is named after STUDIO_TEST_RUN_ID (scripts/test-leftovers.mjs), removed on
# any exit (pass, fail, Ctrl+C), and the last step fails if the tests left any
# of it for that removal to find.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1

step() { printf '\n==> %s (%s)\n' "$*" "$(date +%T)"; }

step "Node and dependencies"
# shellcheck source=scripts/node-runtime.sh
source scripts/node-runtime.sh
node_runtime_ensure_dependencies
echo "node $(node --version), npm $(npm --version)"

# One id for the whole run: vitest and Playwright name what they start after it.
if [ -z "${STUDIO_TEST_RUN_ID:-}" ]; then
  STUDIO_TEST_RUN_ID="$(printf '%x' "$(date +%s)" | tail -c 5)$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n' | head -c 6)"
fi
export STUDIO_TEST_RUN_ID
echo "test run ${STUDIO_TEST_RUN_ID}"
# Whatever happens below, nothing the run started outlives it.
trap 'node scripts/test-leftovers.mjs reap "$STUDIO_TEST_RUN_ID" || true' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

step "services (PostgreSQL, Chromium)"
bash scripts/ensure-services.sh

# Side by side: each is mostly one core's work, and the machine has two.
step "type check and lint: tsc --noEmit, eslint ."
npx tsc --noEmit &
type_check=$!
lint_status=0
npx eslint . || lint_status=$?
type_status=0
wait "$type_check" || type_status=$?
if [ "$type_status" -ne 0 ] || [ "$lint_status" -ne 0 ]; then
  echo "type check exited $type_status, lint exited $lint_status" >&2
  exit 1
fi

# Before the tests: a broken build must fail CI, the API tests (tests/api)
# start the real server from this build, and so do the browser tests below.
# The types were checked just above: the build does not check them again.
step "production build: next build"
STUDIO_BUILD_SKIPS_TYPE_CHECK=1 npx next build

step "unit and integration tests: vitest run"
npx vitest run

# Browser tests hook: runs once e2e/ holds Playwright specs and a Playwright
# config exists (they drive Debian's Chromium headless shell, see playwright.config.ts).
shopt -s nullglob
e2e_specs=(e2e/*.spec.ts)
e2e_configs=(playwright.config.ts playwright.config.mts playwright.config.js playwright.config.mjs)
e2e_config=""
for candidate in "${e2e_configs[@]}"; do
  if [ -f "$candidate" ]; then
    e2e_config=$candidate
    break
  fi
done
if [ "${#e2e_specs[@]}" -gt 0 ] && [ -n "$e2e_config" ]; then
  step "browser tests: playwright test (${#e2e_specs[@]} spec files, $e2e_config)"
  # The local runner only: a bare `npx playwright` would fetch a package from the registry.
  if [ ! -x node_modules/.bin/playwright ]; then
    echo "e2e/ has specs but @playwright/test is not installed: npm i -D -E @playwright/test@1.65.1" >&2
    exit 1
  fi
  node_modules/.bin/playwright test --config "$e2e_config"
elif [ "${#e2e_specs[@]}" -gt 0 ]; then
  echo "e2e/ has ${#e2e_specs[@]} spec files but no playwright.config.*: add one so they run." >&2
  exit 1
else
  step "browser tests: none yet (no e2e/*.spec.ts)"
fi

step "nothing left behind: no test server, worker or database process, no test database or folder"
node scripts/test-leftovers.mjs check "$STUDIO_TEST_RUN_ID"

printf '\nAll checks passed (%s).\n' "$(date +%T)"
