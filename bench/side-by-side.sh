#!/usr/bin/env bash
# The studio and n8n in one sitting, on this machine, like for like: n8n's webhook that answers when the run
# has finished (../shared/anchors/n8n-bench.sh: minimal and ten Set nodes) against the studio's
# POST /api/workflows/{id}/runs followed by its event stream to the end (bench/http.bench.ts: minimal and ten
# list_dir steps), 10 clients, three runs of 20 s each, the median of each. Prints the ratio, which is what
# to report: never compare with a figure from another sitting.
#
# Usage (after `npx next build`): bash bench/side-by-side.sh
# Knobs: N8N_BENCH (path of n8n-bench.sh), SKIP_INSTALL=1 (reuse an n8n installed by an earlier sitting),
#        DURATION (20), RUNS (3).
set -euo pipefail
cd "$(dirname "$0")/.."

N8N_BENCH="${N8N_BENCH:-../shared/anchors/n8n-bench.sh}"
DURATION="${DURATION:-20}"
RUNS="${RUNS:-3}"
[ -f "$N8N_BENCH" ] || { echo "n8n's bench script is not at $N8N_BENCH; set N8N_BENCH" >&2; exit 1; }
[ -f .next/BUILD_ID ] || { echo "build the studio first: npx next build" >&2; exit 1; }

echo "==> n8n (${RUNS} × ${DURATION} s, 10 clients)"
n8n_line=$(CONCS=10 RUNS="$RUNS" DURATION="$DURATION" bash "$N8N_BENCH" 2>/dev/null | grep '^n8n: ')
echo "$n8n_line"
n8n_minimal=$(sed -E 's/.*minimal=([0-9.]+).*/\1/' <<<"$n8n_line")
n8n_ten=$(sed -E 's/.*ten_set=([0-9.]+).*/\1/' <<<"$n8n_line")
# Its latencies: the run whose requests/s is the median, from the wrk output the anchor script keeps.
n8n_out="${WORKDIR:-${TMPDIR:-/tmp}/n8n-anchor}/out"
for workflow in minimal ten_set; do
  grep -h '^WRKJSON' "$n8n_out"/wrk-"$workflow"-c10-r*.txt 2>/dev/null | sed 's/^WRKJSON //' \
    | awk -v name="$workflow" -F'[:,]' '{ for (i = 1; i < NF; i++) { if ($i ~ /"rps"/) r = $(i + 1); if ($i ~ /"p50_ms"/) a = $(i + 1); if ($i ~ /"p99_ms"/) b = $(i + 1) } print r, a, b }' \
    | sort -n | awk -v name="$workflow" '{ rows[NR] = $0 } END { if (NR) { split(rows[int((NR + 1) / 2)], f, " "); printf "  n8n %-8s median run: %.1f req/s, p50 %.1f ms, p99 %.1f ms\n", name, f[1], f[2], f[3] } }'
done

echo "==> the studio (${RUNS} × ${DURATION} s, 10 clients)"
# The studio runs on the project's Node (24; brought from the npm registry when this machine's is older), n8n above on
# the machine's own, as its anchor was installed and measured.
# shellcheck source=scripts/node-runtime.sh
source scripts/node-runtime.sh
minimal=()
ten=()
for _ in $(seq "$RUNS"); do
  out=$(BENCH_ONLY="minimal ten steps stream" npx tsx bench/http.bench.ts "$DURATION" 10)
  echo "$out" | tail -2
  minimal+=("$(grep '^  minimal' <<<"$out" | sed -E 's/.*: ([0-9.]+) req\/s.*/\1/')")
  ten+=("$(grep '^  ten steps' <<<"$out" | sed -E 's/.*: ([0-9.]+) req\/s.*/\1/')")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ values[NR] = $1 } END { print values[int((NR + 1) / 2)] }'; }
studio_minimal=$(median "${minimal[@]}")
studio_ten=$(median "${ten[@]}")

echo "==> same sitting, medians (req/s: runs started and followed to their end)"
awk -v sm="$studio_minimal" -v nm="$n8n_minimal" -v st="$studio_ten" -v nt="$n8n_ten" 'BEGIN {
  printf "  minimal:    studio %6.1f   n8n %6.1f   ratio %.2fx\n", sm, nm, sm / nm
  printf "  ten steps:  studio %6.1f   n8n %6.1f   ratio %.2fx\n", st, nt, st / nt
}'
