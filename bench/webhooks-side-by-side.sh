#!/usr/bin/env bash
# Webhooks, the studio beside n8n in one sitting on this machine, like for like: the two workflows of n8n's anchor
# (../shared/anchors: Webhook → Respond, and Webhook → 10 × Set → Respond, answering when the run has finished,
# every execution persisted to SQLite) against the studio's webhook triggers (Webhook → Output, and Webhook →
# 10 list_dir steps → Output, answering when the run has finished, every run and event persisted to its embedded
# SQLite; bench/webhook-studio.ts). Both are loaded by the same wrk (one thread, 10 connections, POST {"x":1}),
# interleaved, three runs of 20 s each; the median run of each is reported with its p50/p99, the ratio of
# requests/s, the CPU each server used, and a check that every answered request is a stored, finished run.
#
# n8n in two versions, both on the project's Node (24, from scripts/node-runtime.sh), each installed once into
# $WORKDIR/n8n-<version> (about 2 GB, a few minutes): the newest that installs from the npm registry (2.41.3, the
# newest, names @n8n/agents 0.26.2, which the registry does not have) and the anchor's 2.8.4, whose engines field
# accepts Node 24 too. The ratio is reported against each.
#
# Usage (after `npx next build`): bash bench/webhooks-side-by-side.sh
# Knobs: DURATION (20), RUNS (3), CONCURRENCY (10), WARMUP (10), N8N_VERSIONS ("2.41.1 2.8.4"), WORKDIR (/tmp/n8n-bench),
#        SKIP_INSTALL=1 (reuse the installed n8ns), ONLY=studio (measure the studio alone, e.g. while profiling with
#        BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/studio-prof").
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
ANCHORS="${ANCHORS:-$REPO/../shared/anchors}"
DURATION="${DURATION:-20}"
RUNS="${RUNS:-3}"
CONCURRENCY="${CONCURRENCY:-10}"
WARMUP="${WARMUP:-10}"
N8N_VERSIONS="${N8N_VERSIONS:-2.41.1 2.8.4}"
WORKDIR="${WORKDIR:-/tmp/n8n-bench}"
N8N_PORT="${N8N_PORT:-5678}"
ONLY="${ONLY:-}"

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
[ -f .next/BUILD_ID ] || { echo "build the studio first: npx next build" >&2; exit 1; }
# shellcheck source=scripts/node-runtime.sh
source scripts/node-runtime.sh
OUT=$(mktemp -d /tmp/webhooks-side-by-side.XXXXXX)
log "results in $OUT"

# ---------------------------------------------------------------- wrk (the Debian package, unpacked, not installed)
if command -v wrk >/dev/null 2>&1; then
  WRK=(wrk)
else
  if [ ! -x "$WORKDIR/wrk/root/usr/bin/wrk" ]; then
    log "wrk is not on PATH: fetching Debian's .deb with apt-get download (nothing is installed)"
    mkdir -p "$WORKDIR/wrk"
    ( cd "$WORKDIR/wrk" && { apt-get download wrk libluajit-5.1-2 libluajit-5.1-common \
        || { apt-get update >/dev/null && apt-get download wrk libluajit-5.1-2 libluajit-5.1-common; }; } \
      && for f in *.deb; do dpkg-deb -x "$f" root; done ) > "$OUT/wrk-fetch.log" 2>&1
  fi
  LUAJIT=$(dirname "$(find "$WORKDIR/wrk/root" -name 'libluajit-5.1.so.2*' | head -1)")
  WRK=(env "LD_LIBRARY_PATH=$LUAJIT" "$WORKDIR/wrk/root/usr/bin/wrk")
fi
cat > "$OUT/post.lua" <<'EOF'
wrk.method = "POST"
wrk.body   = '{"x":1}'
wrk.headers["Content-Type"] = "application/json"
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRKJSON {"requests":%d,"rps":%.2f,"p50_ms":%.3f,"p99_ms":%.3f,"errors":%d}\n',
    summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, e.connect + e.read + e.write + e.status + e.timeout))
end
EOF

# ---------------------------------------------------------------- n8n, each version from the anchor's workflows
declare -A N8N_PIDS=() N8N_URLS=() N8N_HOMES=()
stop_pid() {
  local pid=$1
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid"
  for _ in $(seq 1 120); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  kill -KILL "$pid" 2>/dev/null || true
}
STUDIO_PID=""
stop_all() {
  [ -n "$STUDIO_PID" ] && kill -TERM "$STUDIO_PID" 2>/dev/null && wait "$STUDIO_PID" 2>/dev/null || true
  for pid in "${N8N_PIDS[@]}"; do stop_pid "$pid"; done
}
trap stop_all EXIT

# install_and_start VERSION PORT: n8n VERSION in $WORKDIR/n8n-VERSION, on 127.0.0.1:PORT (and PORT+1 for its task broker).
install_and_start() {
  local version=$1 port=$2 app home n8n pid
  app="$WORKDIR/n8n-$version"
  n8n="$app/node_modules/.bin/n8n"
  if [ "${SKIP_INSTALL:-0}" != 1 ] || [ ! -x "$n8n" ]; then
    mkdir -p "$app"
    # xlsx is declared by n8n-nodes-base as a tarball outside the npm registry: the registry's xlsx stands in.
    echo '{ "name": "n8n-bench", "private": true, "overrides": { "xlsx": "0.18.5" } }' > "$app/package.json"
    log "installing n8n $version on node $(node --version) into $app (once; a few minutes, about 2 GB)"
    # Without install scripts: some optional nodes' native addons (@confluentinc/kafka-javascript) cannot build here,
    # and the measured path needs only sqlite3's, rebuilt for this Node.
    ( cd "$app" && npm i "n8n@$version" --ignore-scripts --cache "$WORKDIR/npm-cache" --no-audit --no-fund \
        && npm rebuild sqlite3 --cache "$WORKDIR/npm-cache" ) > "$OUT/n8n-$version-install.log" 2>&1 \
      || { tail -30 "$OUT/n8n-$version-install.log"; exit 1; }
  fi
  [ "$("$n8n" --version)" = "$version" ] || { log "expected n8n $version in $app"; exit 1; }
  home="$WORKDIR/home-$version"
  rm -rf "$home"; mkdir -p "$home"
  (
    export N8N_USER_FOLDER="$home" N8N_PORT="$port" N8N_LISTEN_ADDRESS=127.0.0.1 N8N_HOST=127.0.0.1 N8N_PROTOCOL=http
    export WEBHOOK_URL="http://127.0.0.1:$port/" N8N_RUNNERS_BROKER_PORT=$((port + 1)) N8N_RUNNERS_BROKER_LISTEN_ADDRESS=127.0.0.1
    export DB_TYPE=sqlite EXECUTIONS_MODE=regular EXECUTIONS_DATA_SAVE_ON_SUCCESS=all EXECUTIONS_DATA_SAVE_ON_ERROR=all EXECUTIONS_DATA_PRUNE=false
    export N8N_DIAGNOSTICS_ENABLED=false N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_PERSONALIZATION_ENABLED=false N8N_TEMPLATES_ENABLED=false
    export N8N_DYNAMIC_BANNERS_ENABLED=false N8N_HIRING_BANNER_ENABLED=false N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=true
    for workflow in n8n-minimal n8n-10-set; do "$n8n" import:workflow --input="$ANCHORS/$workflow.json" > "$OUT/n8n-$version-import-$workflow.log" 2>&1; done
    for id in anchorMinimal001 anchorTenSet0001; do "$n8n" publish:workflow --id="$id" > "$OUT/n8n-$version-publish-$id.log" 2>&1; done
    exec "$n8n" start > "$OUT/n8n-$version.log" 2>&1 < /dev/null
  ) &
  pid=$!
  for _ in $(seq 1 240); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz/readiness" || true)" = 200 ] && break
    kill -0 "$pid" 2>/dev/null || { tail -40 "$OUT/n8n-$version.log"; exit 1; }
    sleep 0.5
  done
  for _ in $(seq 1 60); do grep -q 'Activated workflow "anchor-10-set"' "$OUT/n8n-$version.log" && break; sleep 0.5; done
  curl -s -f -o /dev/null -X POST -H 'content-type: application/json' -d '{"x":1}' "http://127.0.0.1:$port/webhook/anchor-10-set" \
    || { log "n8n $version's ten-step webhook does not answer"; exit 1; }
  N8N_PIDS[$version]=$pid
  N8N_HOMES[$version]=$home
  N8N_URLS["n8n-$version minimal"]="http://127.0.0.1:$port/webhook/anchor-minimal"
  N8N_URLS["n8n-$version ten_set"]="http://127.0.0.1:$port/webhook/anchor-10-set"
  log "n8n $version ready (pid $pid)"
}

PRODUCTS=()
if [ "$ONLY" != studio ]; then
  port=$N8N_PORT
  for version in $N8N_VERSIONS; do
    install_and_start "$version" "$port"
    PRODUCTS+=("n8n-$version")
    port=$((port + 2))
  done
fi

# ---------------------------------------------------------------- the studio
mkfifo "$OUT/studio.stdin"
# One process (tsx as a loader), so SIGTERM reaches the script and it can count what was stored.
node --import tsx bench/webhook-studio.ts < "$OUT/studio.stdin" > "$OUT/studio.out" 2> "$OUT/studio.log" &
STUDIO_PID=$!
exec 9> "$OUT/studio.stdin"
for _ in $(seq 1 240); do grep -q '^PID ' "$OUT/studio.out" && break; kill -0 "$STUDIO_PID" 2>/dev/null || { cat "$OUT/studio.log"; exit 1; }; sleep 0.5; done
STUDIO_minimal=$(sed -n 's/^URL minimal //p' "$OUT/studio.out")
STUDIO_ten_set=$(sed -n 's/^URL ten_set //p' "$OUT/studio.out")
STUDIO_SERVER_PID=$(sed -n 's/^PID //p' "$OUT/studio.out")
curl -s -f -o /dev/null -X POST -H 'content-type: application/json' -d '{"x":1}' "$STUDIO_ten_set" || { log "the studio's ten-step webhook does not answer"; exit 1; }
log "studio ready (server pid $STUDIO_SERVER_PID)"

# ---------------------------------------------------------------- measure
CLOCK_TICKS=$(getconf CLK_TCK)
tree_ticks() { # CPU ticks of a process and its children
  local total=0 pid
  for pid in "$1" $(ps -o pid= --ppid "$1" 2>/dev/null); do
    [ -r "/proc/$pid/stat" ] && total=$((total + $(awk '{print $14+$15}' "/proc/$pid/stat")))
  done
  echo "$total"
}
run_wrk() { # product workflow seconds tag -> a JSON line in $OUT/runs.jsonl
  local product=$1 workflow=$2 seconds=$3 tag=$4 url pid before after started ended result
  if [ "$product" = studio ]; then
    url="STUDIO_$workflow"; url=${!url}; pid=$STUDIO_SERVER_PID
  else
    url=${N8N_URLS["$product $workflow"]}; pid=${N8N_PIDS[${product#n8n-}]}
  fi
  before=$(tree_ticks "$pid"); started=$(date +%s.%N)
  "${WRK[@]}" -t1 -c"$CONCURRENCY" -d"${seconds}s" --timeout 10s --latency -s "$OUT/post.lua" "$url" > "$OUT/wrk-$tag.txt" 2>&1
  ended=$(date +%s.%N); after=$(tree_ticks "$pid")
  result=$(sed -n 's/^WRKJSON //p' "$OUT/wrk-$tag.txt")
  [ -n "$result" ] || { cat "$OUT/wrk-$tag.txt"; exit 1; }
  node -e 'const [r, product, workflow, tag, ticks, clock, wall] = process.argv.slice(1); const row = JSON.parse(r);
    Object.assign(row, { product, workflow, tag, cpu_pct: +(ticks / clock / wall * 100).toFixed(0) }); console.log(JSON.stringify(row));' \
    "$result" "$product" "$workflow" "$tag" "$((after - before))" "$CLOCK_TICKS" "$(awk -v a="$started" -v b="$ended" 'BEGIN { print b - a }')" >> "$OUT/runs.jsonl"
  log "$(tail -1 "$OUT/runs.jsonl")"
}
PRODUCTS+=(studio)
: > "$OUT/runs.jsonl"
for product in "${PRODUCTS[@]}"; do for workflow in minimal ten_set; do run_wrk "$product" "$workflow" "$WARMUP" "warmup-$product-$workflow"; done; done
for rep in $(seq 1 "$RUNS"); do
  for workflow in minimal ten_set; do
    for product in "${PRODUCTS[@]}"; do   # interleaved: whatever the machine does meanwhile touches both alike
      sleep 2
      run_wrk "$product" "$workflow" "$DURATION" "$product-$workflow-$rep"
    done
  done
done

# ---------------------------------------------------------------- stop, check what was stored
exec 9>&-
wait "$STUDIO_PID" 2>/dev/null || true
STUDIO_PID=""
grep '^PERSISTED' "$OUT/studio.out" > "$OUT/persisted.txt" || true
for version in "${!N8N_PIDS[@]}"; do
  stop_pid "${N8N_PIDS[$version]}"
  ( cd "$WORKDIR/n8n-$version" && node -e '
    const [file, version] = process.argv.slice(1);
    const sqlite3 = require("sqlite3");
    new sqlite3.Database(file, sqlite3.OPEN_READONLY).all("select workflowId, status, count(*) n from execution_entity group by 1, 2", (error, rows) => {
      if (error) throw error;
      for (const row of rows) console.log(`PERSISTED n8n-${version} ${row.workflowId} ${row.status}=${row.n}`);
    });' "${N8N_HOMES[$version]}/.n8n/database.sqlite" "$version" ) >> "$OUT/persisted.txt" 2>&1 || true
done
N8N_PIDS=()

node -e '
  const fs = require("fs"); const [out] = process.argv.slice(1);
  const all = fs.readFileSync(out + "/runs.jsonl", "utf8").trim().split("\n").map(JSON.parse);
  const runs = all.filter((r) => !r.tag.startsWith("warmup"));
  const products = [...new Set(all.map((r) => r.product))];
  const median = (product, workflow) => { const rs = runs.filter((r) => r.product === product && r.workflow === workflow).sort((a, b) => a.rps - b.rps); return rs[Math.floor(rs.length / 2)]; };
  const answered = (product, workflow) => all.filter((r) => r.product === product && r.workflow === workflow).reduce((sum, r) => sum + r.requests, 0) + 1;
  const line = (r) => `${r.rps.toFixed(1).padStart(7)} req/s  p50 ${r.p50_ms.toFixed(1).padStart(6)}  p99 ${r.p99_ms.toFixed(1).padStart(6)}  cpu ${String(r.cpu_pct).padStart(3)}%  errors ${r.errors}  (runs: ${runs.filter((x) => x.product === r.product && x.workflow === r.workflow).map((x) => x.rps.toFixed(0)).join(" / ")})`;
  console.log("\nwebhooks answered when the run has finished, every run persisted; the median run of each (req/s, p50/p99 ms, server CPU % of one core)");
  for (const workflow of ["minimal", "ten_set"]) {
    console.log(`  ${workflow}`);
    for (const product of products) { const r = median(product, workflow); if (r) console.log(`    ${product.padEnd(11)} ${line(r)}  answered ${answered(product, workflow)}`); }
    const studio = median("studio", workflow);
    for (const product of products.filter((p) => p !== "studio")) {
      const other = median(product, workflow);
      if (studio && other) console.log(`    studio / ${product}: ${(studio.rps / other.rps).toFixed(2)}x requests/s, p99 ${(studio.p99_ms / other.p99_ms).toFixed(2)}x (${studio.p99_ms < other.p99_ms ? "below" : "ABOVE"})`);
    }
  }
  console.log("\nstored (answered counts include warm-ups and the smoke test; up to 10 more may have been in flight when a run ended):\n" + fs.readFileSync(out + "/persisted.txt", "utf8"));' "$OUT" | tee "$OUT/results.txt"
