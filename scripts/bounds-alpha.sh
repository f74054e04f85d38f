#!/usr/bin/env bash
# Issue 31's α check: every bounds suite's reference, on the quick profile
# reduced by --max-pes K, under seed bases B, must exit 0 (every claim holds)
# or 2 (claims refused, each naming what it needs; the others ran and
# held), never 1 (a false alarm on a correct balancer). Prints one row per
# suite × K with the counts of exit 0/1/2, the claims that failed (with how
# often) and the refused claims (or the message of a refusal before any
# run); exit 1 if any reference run exits 1.
#   bash scripts/bounds-alpha.sh                         # every suite, K 8 16 32 64, B 1..10
#   bash scripts/bounds-alpha.sh -s random-polling -b 1-3 -k "16 32"
#   nice -n 19 bash scripts/bounds-alpha.sh -k "8 16 32 64 all"   # all: the whole quick profile
#   bash scripts/bounds-alpha.sh -m -s scatter           # the mutants at their smallest K
# Options: -s SUITES (comma-separated; default: every suite of `lbcheck
# bounds --list --json`), -k "K ..." (default "8 16 32 64"; "all" runs
# without --max-pes), -b FROM-TO (seed bases, default 1-10), -x BIN (the
# lbcheck binary, default target/release/lbcheck), -t T (poll-and-shuffle's
# --topology; default its hypercube), -m (power instead: each
# mutant listed under a suite's claims, on seed base FROM, at the smallest
# --max-pes K the suite accepts, read from the refusal of --max-pes 1; if
# it passes there, at 2K, 4K … up to 256: one row each, exit 1 if any
# mutant is never caught).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/lbcheck suites="" ks="8 16 32 64" bases=1-10 power=0 topo=()
while getopts "s:k:b:x:t:mh" o; do
  case $o in
    s) suites=${OPTARG//,/ } ;;
    k) ks=$OPTARG ;;
    b) bases=$OPTARG ;;
    x) bin=$OPTARG ;;
    m) power=1 ;;
    t) topo=(--topology "$OPTARG") ;;
    *) sed -n '2,21p' "$0" >&2; exit 2 ;;
  esac
done
command -v jq >/dev/null || { echo "$0: needs jq (apt-get install jq)" >&2; exit 2; }
[ -x "$bin" ] || { echo "$0: no binary $bin (cargo build --release)" >&2; exit 2; }
[[ $bases =~ ^([0-9]+)-([0-9]+)$ ]] || { echo "$0: -b wants FROM-TO, e.g. 1-10" >&2; exit 2; }
from=${BASH_REMATCH[1]} to=${BASH_REMATCH[2]}
[ -n "$suites" ] || suites=$("$bin" bounds --list --json | jq -r '[.[] | select(.suite != null) | .suite] | unique | .[]')
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

# -m: "suite mutant K exit seconds" rows; K is the smallest the suite
# accepts (the refusal of --max-pes 1 names it), doubled while it passes.
power() {
  local s m k rc t0 caught missed=0
  printf '%-20s %-26s %5s %4s %7s\n' suite mutant K exit seconds
  for s in $suites; do
    for m in $("$bin" bounds --list --json | jq -r --arg s "$s" '[.[] | select(.suite == $s) | .mutants[]?] | unique | .[]'); do
      "$bin" bounds --balancer "$s" "${topo[@]}" --mutant "$m" --quick --max-pes 1 >/dev/null 2>"$log/err" || true
      k=$(sed -n 's/.*use --max-pes \([0-9]*\) or more.*/\1/p' "$log/err" | head -1)
      [ -n "$k" ] || k=1
      caught=0
      while [ "$k" -le 256 ]; do
        t0=$SECONDS rc=0
        "$bin" bounds --balancer "$s" "${topo[@]}" --mutant "$m" --quick --max-pes "$k" --seed-base "$from" >/dev/null 2>"$log/err" || rc=$?
        printf '%-20s %-26s %5s %4s %7d\n' "$s" "$m" "$k" "$rc" $((SECONDS - t0))
        [ "$rc" = 1 ] && { caught=1; break; }
        [ "$rc" = 0 ] || { head -c 300 "$log/err" >&2; echo >&2; break; }
        k=$((k * 2))
      done
      [ "$caught" = 1 ] || missed=1
    done
  done
  echo "seed base $from; wall time $((SECONDS - start)) s"
  exit "$missed"
}
start=$SECONDS any1=0
[ "$power" = 0 ] || power
printf '%-20s %-4s %3s %3s %3s  %6s  %s\n' suite K "0" "1" "2" seconds "failed claims (runs) / refusal"
for s in $suites; do
  for k in $ks; do
    n0=0 n1=0 n2=0 t0=$SECONDS refusal=""
    : >"$log/failed"
    for b in $(seq "$from" "$to"); do
      cap=(--max-pes "$k")
      [ "$k" = all ] && cap=()
      rc=0
      "$bin" bounds --balancer "$s" "${topo[@]}" --quick "${cap[@]}" --seed-base "$b" >"$log/out" 2>"$log/err" || rc=$?
      case $rc in
        0) n0=$((n0 + 1)) ;;
        1) n1=$((n1 + 1)) any1=1
           sed -n 's/^FAILED \([a-z0-9_]*\) (.*/\1/p' "$log/err" >>"$log/failed"
           echo "  $s K=$k B=$b: $(grep -c '^FAILED' "$log/err") claims failed: $(grep '^replay' "$log/err")" >>"$log/detail" ;;
        2) n2=$((n2 + 1))
           [ -n "$refusal" ] || refusal=$(sed -n 's/^REFUSED \([a-z0-9_]*\):.*at least \([0-9]*\).*/\1(K≥\2)/p' "$log/err" | tr '\n' ' ')
           [ -n "$refusal" ] || refusal="all: $(head -c 140 "$log/err" | tr '\n' ' ')" ;;
        *) echo "$0: $s K=$k B=$b exited $rc" >&2; cat "$log/err" >&2; exit 2 ;;
      esac
    done
    failed=$(sort "$log/failed" | uniq -c | awk '{printf "%s(%s) ", $2, $1}')
    printf '%-20s %-4s %3d %3d %3d  %6d  %s\n' "$s" "$k" "$n0" "$n1" "$n2" $((SECONDS - t0)) "${failed}${refusal}"
  done
done
[ -f "$log/detail" ] && { echo "runs that exited 1:"; cat "$log/detail"; }
echo "seed bases $from..$to; wall time $((SECONDS - start)) s"
exit "$any1"
