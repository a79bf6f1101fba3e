#!/usr/bin/env bash
# Before and after, in the same run: `bash bench/compare.sh <git ref> <engine|orders|ws> [rounds]` runs
# bench/<name>.ts of <ref> (the before) and of this checkout (the after) in turn, B A B A ..., on
# the same Node (this checkout's node_modules/.bin/node) and with the same environment
# (BENCH_DATABASE_URL, BENCH_TARGETS, ...), and prints each run's summary lines, so a machine whose
# speed drifts during the run affects both alike. The before is checked out in a worktree under
# $TMPDIR with its own `npm ci` (kept for the next call). Each run's whole output is kept in the
# directory it prints.
set -euo pipefail
cd "$(dirname "$0")/.."
ref=${1:?usage: bash bench/compare.sh <git ref> <engine|orders|ws> [rounds]}
name=${2:?usage: bash bench/compare.sh <git ref> <engine|orders|ws> [rounds]}
rounds=${3:-2}
here=$(pwd)
node="$here/node_modules/.bin/node"
commit=$(git rev-parse --short "$ref")
before="${TMPDIR:-/tmp}/tp-bench-before-$commit"
if [ ! -d "$before/node_modules" ]; then
  git worktree add --detach "$before" "$commit" >/dev/null 2>&1 || true
  (cd "$before" && npm ci --no-audit --no-fund --ignore-scripts >/dev/null)
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/tp-bench-compare-XXXX")
echo "before: $commit ($before); after: $(git rev-parse --short HEAD) with local changes ($here); bench/$name.ts; $rounds rounds; logs in $out"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); node $("$node" -v)"
summary() {
  case "$name" in
  engine) grep -E 'p99|ticks/s|closes/s|ledger audit|MISSED|^  ok' "$1" | grep -vE 'of which|event loop' || true ;;
  ws) grep -E '^== |^clients|delay tick|server CPU|of which system|send-to-client|dropped clients' "$1" || true ;;
  *) grep -E 'orders/s|tx/s|product|limit|ledger|audit|refused|errors' "$1" || true ;;
  esac
}
for i in $(seq 1 "$rounds"); do
  for side in before after; do
    dir=$([ "$side" = before ] && echo "$before" || echo "$here")
    log="$out/$side-$i.log"
    (cd "$dir" && "$node" --import tsx "bench/$name.ts" >"$log" 2>&1) || echo "  ($side run $i exited non-zero: a target missed or a failure; see $log)"
    echo "== $side, round $i (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    summary "$log"
  done
done
