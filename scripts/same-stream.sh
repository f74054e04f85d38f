#!/usr/bin/env bash
# Records the event stream (`lbcheck simulate ... --trace FILE`) of a fixed
# set of runs and compares their SHA-256 with scripts/same-stream.sha256,
# computed on the code before the simulator's speed work (issue 30): every
# optimisation must keep the stream byte-identical for the same seed.
# Re-recorded for `rp-knap` alone on 2026-11-26: the reference's bound
# propagation was fixed (protocol/bound.rs, found by `bound_delay`), a
# change of the protocol, not of the simulator.
# Re-recorded on 2026-11-27: `rp-bimodal` (o = 1): under o > 0 what a
# LogP PE's handler sends leaves after the CPU time the PE owes (001 §1.1;
# `free_at` in sim/logp/machine.rs), a modelling fix; runs with o = 0 are
# unchanged. `sync` had changed earlier that day (a sync-random-polling
# commit; the code before the fix gives the new hash too).
#   bash scripts/same-stream.sh            # compare (exit 0 same, 1 differ)
#   bash scripts/same-stream.sh --record   # rewrite the stored list
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${LBCHECK:-target/release/lbcheck}
list=scripts/same-stream.sha256
[ -x "$bin" ] || { echo "$0: build first (cargo build --release)" >&2; exit 2; }
runs=(
  "rp-energy|--pes 1024 --seed 1 --workload synthetic:size=65536,split=uniform"
  "rp-energy-tree|--pes 64 --seed 2 --termination energy-tree --latency 1..30 --workload synthetic:size=20000,split=uniform"
  "rp-four|--pes 128 --seed 3 --termination four-counter --topology hypercube --workload synthetic:size=20000,split=uniform"
  "rp-safra|--pes 32 --seed 4 --termination safra --initial-split random:3 --workload synthetic:size=20000,split=uniform"
  "rp-uts|--pes 256 --seed 5 --workload uts:T1 --latency 2..9 --latency-shape heavy"
  "rp-knap|--pes 64 --seed 6 --workload knapsack:items=30 --initial-split"
  "rp-slots|--pes 64 --seed 7 --slots 2 --serve all --fifo-links --slow 4:3 --workload synthetic:size=20000,split=uniform"
  "rp-bimodal|--pes 512 --seed 12 --latency 1..40 --latency-shape bimodal:0.2 --schedule slow-control --o 1 --g 2 --t-poll 1 --workload synthetic:size=20000,split=uniform"
  "neighbour|--balancer neighbour-polling --pes 256 --seed 8 --topology mesh:2 --termination energy-tree --workload synthetic:size=20000,split=uniform"
  "pacheco|--balancer pacheco --pes 128 --seed 9 --victim global-rr --termination four-counter --workload synthetic:size=20000,split=uniform"
  "sync|--balancer sync-random-polling --pes 128 --seed 10 --termination safra --workload synthetic:size=20000,split=uniform"
  "randdest|--balancer random-destination --machine atomic --pes 64 --seed 11 --workload synthetic:size=4096"
  "randdest-random|--balancer random-destination --machine atomic --arbiter random --pes 256 --seed 14 --workload synthetic:size=20000,split=alpha:0.1"
  "bnb-anti|--balancer priority-bnb --machine atomic --arbiter anti-critical --pes 8 --seed 15 --workload kz:depth=12"
  "bnb-fifo|--balancer priority-bnb --machine atomic --pes 16 --seed 17 --workload kz:depth=13"
  "bnb-pruned|--balancer priority-bnb --machine atomic --pes 8 --seed 18 --workload kz:depth=18,pruned=1"
  "complete|--balancer random-destination --machine complete --pes 128 --seed 16 --workload synthetic:size=8192"
  "phased|--balancer poll-and-shuffle --pes 256 --seed 13 --machine phased --topology hypercube --workload synthetic:size=20000,split=uniform"
  "phased-local|--balancer poll-and-shuffle --pes 128 --seed 14 --machine phased --sync local --topology mesh:2 --workload synthetic:size=30000,split=uniform"
  "phased-adaptive|--balancer poll-and-shuffle --pes 256 --seed 15 --machine phased --trigger adaptive --permutation pseudo --workload synthetic:size=40000,split=uniform"
  "phased-simd|--balancer simd-phase --pes 128 --seed 16 --machine phased --workload synthetic:size=20000,split=uniform"
  "phased-fat|--balancer poll-and-shuffle --pes 512 --seed 17 --machine phased --topology fat-tree --workload synthetic:size=50000,atomic=3,split=balanced"
)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in "${runs[@]}"; do
  name=${r%%|*}
  # shellcheck disable=SC2086
  "$bin" simulate ${r#*|} --trace "$tmp/$name.jsonl" >/dev/null
  (cd "$tmp" && sha256sum "$name.jsonl")
done >"$tmp/now"
if [ "${1:-}" = --record ]; then
  cp "$tmp/now" "$list" && echo "recorded $(wc -l <"$list") streams in $list"
elif diff "$list" "$tmp/now"; then
  echo "same streams: $(wc -l <"$list") runs"
else
  echo "the event streams differ (< stored, > now)" >&2
  exit 1
fi
