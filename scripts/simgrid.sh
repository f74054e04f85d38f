#!/usr/bin/env bash
# lbcheck's simulator side by side with SimGrid on one model: asynchronous
# random polling (001 Fig. 1), P PEs, T = 1000·P unit-cost work units split
# uniformly (synthetic:split=uniform), Δt = 10 units between polls, a
# 5-unit message latency, no split cost — the SimGrid anchor of
# ../shared/anchors/simgrid-random-polling (its README gives the model).
# Issue 30 asks for lbcheck checked ≥ 300× faster at P = 4,096.
#
#   bash scripts/simgrid.sh              # P = 1024 4096
#   bash scripts/simgrid.sh 256 1024     # other P
#
# Needs g++ and libsimgrid-dev (installed when missing) and the anchor's
# sources (LBCHECK_SIMGRID_ANCHOR, default ../shared/anchors/simgrid-random-polling
# beside the repository). Both runs of a row come from this one invocation,
# one after the other on the same machine; wall time and peak memory by
# /usr/bin/time. lbcheck runs its online checker (every property), SimGrid
# only counts the work done. Prints one table; exit 1 if a run fails.
set -euo pipefail
cd "$(dirname "$0")/.."
anchor=${LBCHECK_SIMGRID_ANCHOR:-../shared/anchors/simgrid-random-polling}
[ -f "$anchor/rp.cpp" ] || { echo "no SimGrid anchor at $anchor (set LBCHECK_SIMGRID_ANCHOR)" >&2; exit 2; }
ps=("$@")
[ ${#ps[@]} -gt 0 ] || ps=(1024 4096)
for p in "${ps[@]}"; do
  case "$p" in '' | *[!0-9]*) echo "usage: $0 [P ...]" >&2; exit 2 ;; esac
done
if [ ! -f /usr/include/simgrid/s4u.hpp ]; then
  echo "installing libsimgrid-dev via apt-get ..."
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsimgrid-dev g++ >/dev/null
fi
out=target/simgrid
mkdir -p "$out"
[ "$out/rp" -nt "$anchor/rp.cpp" ] || g++ -std=c++17 -O2 "$anchor/rp.cpp" -lsimgrid -o "$out/rp"
cargo build --release -q
timed() { # LOG COMMAND...: runs COMMAND, its output in LOG; prints "seconds kilobytes"
  /usr/bin/time -f "%e %M" -o "$1.time" "${@:2}" >"$1" 2>&1 || { cat "$1" >&2; echo "failed: ${*:2}" >&2; exit 1; }
  cat "$1.time"
}
printf '%6s  %10s %10s %9s  %10s %10s %9s  %8s\n' P simgrid_s sg_MB sg_T_par lbcheck_s lb_MB lb_T_par speedup
for p in "${ps[@]}"; do
  sh "$anchor/mkplat.sh" "$p" >"$out/plat-$p.xml"
  read -r sg_s sg_kb < <(timed "$out/sg-$p.log" "$out/rp" "$out/plat-$p.xml" "$p" $((1000 * p)) 10 1 --cfg=network/model:CM02)
  sg_t=$(grep -o 'makespan_units=[0-9.]*' "$out/sg-$p.log" | cut -d= -f2)
  read -r lb_s lb_kb < <(timed "$out/lb-$p.json" target/release/lbcheck simulate --json --pes "$p" --seed 1 \
    --workload "synthetic:size=$((1000 * p)),split=uniform" --dt 10 --t-rout 5 --t-split 0)
  lb_t=$(grep -o '"t_par": *[0-9]*' "$out/lb-$p.json" | head -n 1 | grep -o "[0-9]*$")
  printf '%6s  %10s %10d %9s  %10s %10d %9s  %7.0fx\n' "$p" "$sg_s" $((sg_kb / 1024)) "$sg_t" "$lb_s" $((lb_kb / 1024)) "$lb_t" \
    "$(awk "BEGIN { print $sg_s / $lb_s }")"
done
