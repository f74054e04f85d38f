#!/usr/bin/env bash
# Mutation testing with cargo-mutants over src/protocol/ or src/check/
# (issue 31 item 5; docs/mutants.md "cargo-mutants"). A long job, not part
# of the test command; resumable, for a nightly job.
#
#   bash scripts/mutants.sh [protocol|check] [--fresh] [--background]
#                           [--shard K/N] [cargo-mutants args]
#
# The committed HEAD is synced (git fetch + reset) into ONE fixed scratch
# copy, $LBCHECK_MUTANTS_DIR/tree (default ~/.cache/lbcheck-mutants), and
# mutated there in place (--in-place); its CARGO_TARGET_DIR, DIR/target, is
# kept between runs, so after the first (cold) build a mutant costs one
# incremental rebuild of the crate plus the quick test profile
# (.cargo/mutants.toml). Without --shard, results accumulate in
# DIR/out-AREA/mutants.out with --iterate: a run stopped (Ctrl-C, or the
# `kill -INT -- -PGID` that --background prints) resumes where it left off,
# and mutants caught or unviable earlier are not run again. --fresh forgets the earlier results (a nightly
# job's first step after the code changed). --shard K/N (round-robin,
# unshuffled: the same list on every machine) is a systematic sample, run
# once into DIR/out-AREA-shard-K-N. --background runs the same command
# under nohup (nice: the run itself is), prints its PID and log, returns.
# The baseline (unmutated) tests run once per scratch dir; later runs skip
# them and use 3 x its test time (at least 60 s) as the timeout.
# Each cargo call's CPU seconds go to OUT/cargo-times.log
# (scripts/mutants-cargo.sh); the score: scripts/mutants-score.sh.
# Needs cargo-mutants 27.x (cargo install --locked cargo-mutants) and git;
# uses mold (apt-get install mold) as the linker when it is installed.
# Exit 2 on bad arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
usage="usage: bash scripts/mutants.sh [protocol|check] [--fresh] [--background] [--shard K/N] [cargo-mutants args]"
area=${1:-protocol}
case "$area" in
  protocol|check) shift || true ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
fresh=0 background=0 shard="" args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --fresh) fresh=1 ;;
    --background) background=1 ;;
    --shard) shard=${2:?$usage}; shift ;;
    --shard=*) shard=${1#--shard=} ;;
    *) args+=("$1") ;;
  esac
  shift
done
if [ -n "$shard" ] && ! [[ "$shard" =~ ^[0-9]+/[1-9][0-9]*$ ]]; then
  echo "--shard needs K/N with 0 <= K < N (got '$shard')" >&2; exit 2
fi
if ! command -v cargo-mutants >/dev/null 2>&1; then
  echo "cargo-mutants is not installed: cargo install --locked cargo-mutants" >&2; exit 2
fi
dir=${LBCHECK_MUTANTS_DIR:-$HOME/.cache/lbcheck-mutants}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
out=$dir/out-$area${shard:+-shard-${shard/\//-}}
if [ "$background" = 1 ]; then
  log=$out.log
  again=(bash "$repo/scripts/mutants.sh" "$area")
  [ "$fresh" = 1 ] && again+=(--fresh)
  [ -n "$shard" ] && again+=(--shard "$shard")
  # Its own process group, so that one signal reaches cargo-mutants (which
  # then puts the mutated file back) and its cargo.
  setsid nohup "${again[@]}" "${args[@]}" >"$log" 2>&1 </dev/null &
  echo "started: PID $! (stop it with: kill -INT -- -$!), log $log"
  exit 0
fi
source "$repo/scripts/mutants-lib.sh"
sync_tree "$repo" "$dir/tree"
[ "$fresh" = 1 ] && rm -rf "$out"
mkdir -p "$out"
mode=(--iterate)
[ -n "$shard" ] && mode=(--shard "$shard" --sharding round-robin)
timeouts=($(baseline_args "$dir"))
export CARGO_TARGET_DIR=$dir/target CARGO=$repo/scripts/mutants-cargo.sh
export LBCHECK_MUTANTS_TIMES=$out/cargo-times.log
# A snapshot test that fails on a mutant fails without writing a
# `.snap.new` beside the snapshot (insta's default outside CI).
export INSTA_UPDATE=no
linker=()
command -v mold >/dev/null 2>&1 && linker=(mold -run)
echo "mutants: $area, tree $(git -C "$dir/tree" log -1 --format=%h), out $out"
echo "resume in the background: bash scripts/mutants.sh $area${shard:+ --shard $shard} --background"
rc=0
nice "${linker[@]}" cargo-mutants mutants --in-place -d "$dir/tree" \
  -f "src/$area/**" --no-shuffle "${mode[@]}" "${timeouts[@]}" \
  --output "$out" "${args[@]}" || rc=$?
record_baseline "$dir" "$out/mutants.out"
bash "$repo/scripts/mutants-score.sh" "$out/mutants.out"
cpu_per_mutant "$out"
# cargo-mutants exits 2 when mutants were missed, 3 on timeouts: a result.
[ "$rc" -le 3 ] || exit "$rc"
