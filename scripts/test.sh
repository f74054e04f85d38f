#!/usr/bin/env bash
# The one test command (README "Quickstart"; .ci/run calls exactly this).
# Installs what it needs when missing; fails when any part fails.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
step() { printf '\n== %s (%ds so far)\n' "$1" $((SECONDS - start)); }

step "format"
cargo fmt --all -- --check

step "cargo test --release (unit, property, golden, snapshot, CLI tests)"
cargo test --release

step "benchmarks compile"
cargo bench --no-run -q

for script in models/check.sh proofs/check.sh; do
  if [ -f "$script" ]; then
    step "$script"
    bash "$script"
  fi
done

step "all passed in $((SECONDS - start))s"
