#!/usr/bin/env bash
# Builds the fuzz targets and runs each for SECONDS (default 30): the brief
# run of the test command. A campaign: `bash scripts/fuzz.sh 3600`, or
# `RUSTC_BOOTSTRAP=1 cargo fuzz run sim_run` in the repository root.
# Crashes land in fuzz/artifacts/<target>/; replay one with
# `RUSTC_BOOTSTRAP=1 cargo fuzz run <target> fuzz/artifacts/<target>/<file>`.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
export RUSTC_BOOTSTRAP=1
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "installing cargo-fuzz (about 2 minutes)"
  cargo install cargo-fuzz --locked -q
fi
for target in sim_run trace_parser; do
  if ! out=$(cargo fuzz build -O "$target" 2>&1); then
    echo "$out" | grep -E -A 6 "^error" | head -n 40
    echo "fuzz target $target does not build"
    exit 1
  fi
  echo "$out" | tail -n 1
  mkdir -p "fuzz/corpus/$target"
  echo "fuzzing $target for ${seconds}s"
  log=$(mktemp)
  if ! cargo fuzz run -O "$target" "fuzz/corpus/$target" -- -max_total_time="$seconds" -rss_limit_mb=4096 >"$log" 2>&1; then
    grep -E "panicked|ERROR|SUMMARY|replay" "$log" | head -n 20
    echo "fuzz target $target failed; the crashing input is in fuzz/artifacts/$target/ (full log: $log)"
    exit 1
  fi
  grep -E "^Done" "$log" || tail -n 2 "$log"
  rm -f "$log"
done
echo "fuzzing passed"
