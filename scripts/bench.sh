#!/usr/bin/env bash
# Runs every benchmark row of BENCHMARKS.md, pinned to core 1, and keeps each output.
#
#   scripts/bench.sh OUT_DIR [BEFORE_CHECKOUT]
#
# With a second checkout (another commit of this repository, e.g. a `git worktree`), each
# benchmark runs there and here alternately, so "before" and "after" share the machine's state;
# outputs are OUT_DIR/NAME.here.txt and OUT_DIR/NAME.before.txt. Builds first (release), then
# runs; nothing else should run on the machine meanwhile (check `uptime`). Not part of CI.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: scripts/bench.sh OUT_DIR [BEFORE_CHECKOUT]}
before=${2:-}
mkdir -p "$out"
out=$(cd "$out" && pwd)

examples=(town_bench triggers_bench talk_scale events_bench areas_bench stepback insight_bench open_bench big_pack)

build() {
  (cd "$1" && cargo build --release -p townsfolk-runtime --examples --benches)
}

run_in() {
  local dir=$1 label=$2 name=$3
  echo "== $name ($label, $(date -u +%T), load $(cut -d' ' -f1 /proc/loadavg))"
  if [ "$name" = bt ]; then
    (cd "$dir" && taskset -c 1 cargo bench -p townsfolk-runtime --bench bt -- \
      --warm-up-time 1 --measurement-time 3) > "$out/$name.$label.txt" 2>&1
  else
    (cd "$dir" && taskset -c 1 "target/release/examples/$name") > "$out/$name.$label.txt" 2>&1
  fi
}

build "$here"
[ -n "$before" ] && build "$before"
for name in bt "${examples[@]}"; do
  if [ -n "$before" ]; then
    run_in "$before" before "$name"
  fi
  run_in "$here" here "$name"
done
echo "outputs in $out"
