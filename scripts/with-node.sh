#!/usr/bin/env bash
# `bash scripts/with-node.sh COMMAND [ARGS...]`: runs COMMAND (node, tsx, next,
# vitest, ...) with a Node 24 or newer first on PATH, bringing it from the npm
# registry when this machine's Node is older (scripts/node-runtime.sh), and
# with dependencies installed and built for that Node. The package scripts
# that run the project's code (npm start, npm run workflow, ...) go through it.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/node-runtime.sh
source "$repo/scripts/node-runtime.sh"
(cd "$repo" && node_runtime_ensure_dependencies)
exec "$@"
