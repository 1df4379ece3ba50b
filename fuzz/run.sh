#!/usr/bin/env bash
# Runs fuzz targets one after the other (never two at once: the machine is shared), each
# for SECONDS (default 600), niced, and keeps each run's libFuzzer log in fuzz/logs/.
# Usage: fuzz/run.sh TARGET... (seed the corpora first with fuzz/seed.sh).
set -uo pipefail
cd "$(dirname "$0")"
mkdir -p logs
for t in "$@"; do
  stamp="$(date -u +%H%M)"
  echo "== $t from $(date -u +%T)"
  nice -n 15 cargo +nightly fuzz run "$t" -- -max_total_time="${SECONDS_PER_TARGET:-600}" \
    -rss_limit_mb=2048 -timeout=10 -jobs=1 > "logs/$t-$stamp.cargo.log" 2>&1
  echo "exit $? at $(date -u +%T)"
  mv -f fuzz-0.log "logs/$t-$stamp.log" 2>/dev/null
  grep -E "^#[0-9]+.*(pulse|DONE|NEW)" "logs/$t-$stamp.log" | tail -n 1
  ls "artifacts/$t" 2>/dev/null
done
