#!/usr/bin/env bash
# The nightly job (issue 30 item 4): `lbcheck check --full`, then every
# bounds suite's full profile as its own command (`check --full` runs the
# suites' quick profiles: their full ones take about 2,450 CPU s together,
# docs/architecture.md "Full profiles"), poll-and-shuffle on the hypercube,
# the 2-D mesh and the fat tree. Each stays under 15 minutes on 2 idle
# cores. Prints one row per command: its exit code and wall seconds; the
# reports go to OUT/check (HTML, JSON, JUnit) and OUT/bounds-*.json.
#   bash scripts/nightly.sh                 # seed 1, OUT = nightly-report
#   bash scripts/nightly.sh -s 7 -o /tmp/n  # fresh seeds, another OUT
# Options: -s SEED (check's --seed and the suites' --seed-base; default 1),
# -o OUT (default nightly-report), -x BIN (default target/release/lbcheck).
# Exit 0 if every command exits 0, 1 if any finds a failure, 2 on bad
# arguments or a command that refuses its input.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/lbcheck seed=1 out=nightly-report
while getopts "s:o:x:h" o; do
  case $o in
    s) seed=$OPTARG ;;
    o) out=$OPTARG ;;
    x) bin=$OPTARG ;;
    *) sed -n '2,14p' "$0" >&2; exit 2 ;;
  esac
done
[[ $seed =~ ^[0-9]+$ ]] || { echo "$0: -s wants a number (got '$seed')" >&2; exit 2; }
[ -x "$bin" ] || { echo "$0: no binary $bin (cargo build --release)" >&2; exit 2; }
command -v jq >/dev/null || { echo "$0: needs jq (apt-get install jq)" >&2; exit 2; }
mkdir -p "$out"
worst=0
# One command: its row, and the worst exit code so far (1 over 2 over 0).
run() {
  local name=$1 t0=$SECONDS rc=0
  shift
  "$@" >"$out/$name.json" 2>"$out/$name.err" || rc=$?
  printf '%-36s %4s %7d\n' "$name" "$rc" $((SECONDS - t0))
  case $rc in
    0) ;;
    1) worst=1 ;;
    *) [ "$worst" = 1 ] || worst=2; head -c 400 "$out/$name.err" >&2; echo >&2 ;;
  esac
}
printf '%-36s %4s %7s\n' command exit seconds
run check "$bin" check --full --seed "$seed" --out "$out/check" --json
for s in $("$bin" bounds --list --json | jq -r '[.[] | select(.suite != null) | .suite] | unique | .[]'); do
  run "bounds-$s" "$bin" bounds --balancer "$s" --full --seed-base "$seed" --json
done
for t in mesh:2 fat-tree; do
  run "bounds-poll-and-shuffle-${t%%:*}" "$bin" bounds --balancer poll-and-shuffle --topology "$t" --full --seed-base "$seed" --json
done
echo "seed $seed; wall time $SECONDS s; reports in $out/"
exit "$worst"
