#!/usr/bin/env bash
# The one test command (README "Quickstart"; .ci/run calls exactly this).
# Installs what it needs when missing; fails when any part fails.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
step() { printf '\n== %s (%ds so far)\n' "$1" $((SECONDS - start)); }

step "format"
cargo fmt --all -- --check

step "headless Chromium for the report test (installed when missing)"
if ! command -v chromium >/dev/null 2>&1; then
  echo "installing chromium via apt-get ..."
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

step "cargo test --release (unit, property, golden, snapshot, CLI, campaign tests)"
cargo test --release

step "loom, quick profile (scripts/loom.sh --quick)"
bash scripts/loom.sh --quick

step "validating a user's own balancer (examples/own_balancer.rs)"
cargo run --release -q --example own_balancer

step "a foreign detector's traces (scripts/foreign.sh: examples/safra_trace.rs)"
bash scripts/foreign.sh

step "MPI driver: lbcheck mpi under mpirun (tests/mpi.rs; Open MPI installed when missing)"
if ! command -v mpirun >/dev/null 2>&1; then
  echo "installing Open MPI via apt-get ..."
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libopenmpi-dev openmpi-bin libclang-dev >/dev/null
fi
cargo build --release -q --features mpi
cargo test --release -q --features mpi --test mpi

step "benchmarks compile"
cargo bench --no-run -q

step "SPIN models (models/check.sh)"
bash models/check.sh

step "Coq proofs (proofs/check.sh)"
bash proofs/check.sh

step "fuzz targets, briefly (scripts/fuzz.sh)"
bash scripts/fuzz.sh "${LBCHECK_FUZZ_SECONDS:-60}" # in all, shared by the targets

step "all passed in $((SECONDS - start))s"
