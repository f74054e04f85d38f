#!/usr/bin/env bash
# Builds the fuzz targets (every one `cargo fuzz list` names) and runs each
# for its share of SECONDS: `bash scripts/test.sh --fuzz` runs it briefly, a
# nightly job as a campaign (the test command only `cargo check`s the targets
# and runs their bodies in tests/sim/fuzz_bodies.rs).
#
#   bash scripts/fuzz.sh --build   # build only
#   bash scripts/fuzz.sh [SECONDS] # build, then fuzz SECONDS in all (default
#                                  # 30: 7 s each for the four targets),
#                                  # shared equally, at least 5 s a target
#
# A campaign: `bash scripts/fuzz.sh 14400`, or `RUSTC_BOOTSTRAP=1 cargo fuzz
# run sim_run` in the repository root. own_balancer fuzzes a user's balancer
# (examples/shared/round_robin.rs) through lbcheck::fuzz::balancer: here its
# correct variant; LBCHECK_FUZZ_VARIANT=forgets-queue points it at the
# forgetful one, which it finds in seconds (do not export that variable
# here: the run would fail). cli_args runs whole commands: one
# taking over 10 s is a hang (-timeout). Crashes land in
# fuzz/artifacts/<target>/; replay one with
# `RUSTC_BOOTSTRAP=1 cargo fuzz run <target> fuzz/artifacts/<target>/<file>`.
set -euo pipefail
cd "$(dirname "$0")/.."
export RUSTC_BOOTSTRAP=1
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "installing cargo-fuzz (about 2 minutes)"
  cargo install cargo-fuzz --locked -q
fi
start=$SECONDS
if ! out=$(cargo fuzz build -O 2>&1); then
  echo "$out" | grep -E -A 6 "^error" | head -n 40
  echo "the fuzz targets do not build"
  exit 1
fi
echo "fuzz targets built in $((SECONDS - start))s"
[ "${1:-}" = --build ] && exit 0
case "${1:-30}" in
  '' | *[!0-9]*) echo "usage: $0 [--build | SECONDS]" >&2; exit 2 ;;
esac
mapfile -t targets < <(cargo fuzz list)
each=$(( ${1:-30} / ${#targets[@]} ))
(( each < 5 )) && each=5
for target in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$target"
  hang=(); [[ $target == cli_args ]] && hang=(-timeout=10)
  echo "fuzzing $target for ${each}s"
  log=$(mktemp)
  if ! cargo fuzz run -O "$target" "fuzz/corpus/$target" -- -max_total_time="$each" "${hang[@]}" -rss_limit_mb=4096 >"$log" 2>&1; then
    grep -E "panicked|ERROR|SUMMARY|replay" "$log" | head -n 20
    echo "fuzz target $target failed; the crashing input is in fuzz/artifacts/$target/ (full log: $log)"
    exit 1
  fi
  grep -E "^Done" "$log" || tail -n 2 "$log"
  rm -f "$log"
done
echo "fuzzing passed"
