#!/usr/bin/env bash
# Builds the fuzz targets and runs them for SECONDS in all (default 60),
# shared equally: the brief run of the test command. A campaign: `bash
# scripts/fuzz.sh 10800`, or `RUSTC_BOOTSTRAP=1 cargo fuzz run sim_run` in
# the repository root. cli_args runs whole commands: one taking over 10 s
# is a hang (-timeout).
# Crashes land in fuzz/artifacts/<target>/; replay one with
# `RUSTC_BOOTSTRAP=1 cargo fuzz run <target> fuzz/artifacts/<target>/<file>`.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(sim_run trace_parser cli_args)
seconds=$(( ${1:-60} / ${#targets[@]} ))
(( seconds > 0 )) || seconds=1
export RUSTC_BOOTSTRAP=1
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "installing cargo-fuzz (about 2 minutes)"
  cargo install cargo-fuzz --locked -q
fi
for target in "${targets[@]}"; do
  if ! out=$(cargo fuzz build -O "$target" 2>&1); then
    echo "$out" | grep -E -A 6 "^error" | head -n 40
    echo "fuzz target $target does not build"
    exit 1
  fi
  echo "$out" | tail -n 1
  mkdir -p "fuzz/corpus/$target"
  hang=(); [[ $target == cli_args ]] && hang=(-timeout=10)
  echo "fuzzing $target for ${seconds}s"
  log=$(mktemp)
  if ! cargo fuzz run -O "$target" "fuzz/corpus/$target" -- -max_total_time="$seconds" "${hang[@]}" -rss_limit_mb=4096 >"$log" 2>&1; then
    grep -E "panicked|ERROR|SUMMARY|replay" "$log" | head -n 20
    echo "fuzz target $target failed; the crashing input is in fuzz/artifacts/$target/ (full log: $log)"
    exit 1
  fi
  grep -E "^Done" "$log" || tail -n 2 "$log"
  rm -f "$log"
done
echo "fuzzing passed"
