#!/usr/bin/env bash
# The one test command (README "Quickstart"; .ci/run calls exactly this).
# Installs what it needs when missing; fails when any part fails.
#
# One release build (with the MPI driver) serves the tests, the MPI tests,
# the examples, the benchmarks and loom (the threaded driver's loom copy
# is part of it: tests/loom_threads.rs). The crate's compilation is mostly
# one thread (rustc's front end), so a `cargo check` of the fuzz targets
# then the rustdoc build (in target/check, not target/), the SPIN models and
# the Coq proofs run beside it at the lowest priority. The
# fuzz targets' bodies run in the release tests (tests/sim/fuzz_bodies.rs);
# `bash scripts/fuzz.sh SECONDS` is the coverage-guided campaign (nightly),
# `--fuzz` here runs it briefly.
#
#   bash scripts/test.sh          # the test command (.ci/run)
#   bash scripts/test.sh --fuzz   # and 30 s of libFuzzer (LBCHECK_FUZZ_SECONDS)
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
step() { printf '\n== %s (%ds so far)\n' "$1" $((SECONDS - start)); }
updated=
need() { # COMMAND PACKAGE...: apt-get install PACKAGE... unless COMMAND is on PATH
  command -v "$1" >/dev/null 2>&1 && return
  echo "installing ${*:2} via apt-get ..."
  [ -n "$updated" ] || { apt-get update -qq >/dev/null; updated=1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${@:2}" >/dev/null
}
features=(--features mpi)
fuzz=
case "${1:-}" in
  '') ;;
  --fuzz) fuzz=1 ;;
  *) echo "usage: $0 [--fuzz]" >&2; exit 2 ;;
esac

step "format"
cargo fmt --all -- --check

step "tools, installed when missing: Chromium (report test), Open MPI, SPIN, Coq"
need chromium chromium
need mpirun libopenmpi-dev openmpi-bin libclang-dev
need spin spin gcc
need coqc coq

step "side jobs at the lowest priority (nice 19), collected after the tests: fuzz targets (cargo check) then rustdoc (no warnings), SPIN models, Coq proofs; after the build: the user-protocol examples"
# The release build leaves one core idle for a minute or more (one rustc
# compiling the crate, then its largest test binary), and the tests leave
# gaps (children starting, one-threaded tests): the side jobs, at nice 19,
# fill them instead of slowing the release build and the tests while both
# cores are busy. Each writes its output to its log, printed when collected.
logs=$(mktemp -d)
declare -A side
run_side() { # NAME COMMAND...: COMMAND at nice 19 in the background, its output in $logs/NAME
  local name=$1
  shift
  # Its own process group (job control, `set -m`), so that an early exit
  # stops all of it; not its own session (setsid): with the kernel's
  # autogroups a new session is scheduled as a peer of the build, and nice
  # would then not lower its share.
  set -m
  bash -c 'begin=$SECONDS; rc=0; nice -n 19 "$@" || rc=$?
    echo "($0: $((SECONDS - begin)) s at nice 19, exit $rc)"; exit $rc' "$name" "$@" >"$logs/$name" 2>&1 &
  side[$name]=$!
  set +m
}
collect() { # NAME TITLE: waits for side job NAME, prints its output; exits 1 if it failed
  step "$2"
  if wait "${side[$1]}"; then
    cat "$logs/$1"
  else
    cat "$logs/$1"
    echo "$2: FAILED"
    exit 1
  fi
}
# The fuzz targets keep compiling (metadata only: no sanitizer build). A
# check links nothing, so libfuzzer-sys's build script is pointed at a
# library it never reads (CUSTOM_LIBFUZZER_PATH) instead of compiling
# libFuzzer's 26 C++ files at -O0 -g: 4.1 s of CPU instead of 24.6 s (cold
# `cargo check -p libfuzzer-sys` of fuzz/, user+sys, with and without it).
# Then the rustdoc with no warnings, in the same target directory (the
# release build holds target/'s lock): it reuses the dependencies' metadata
# that the check built, 7.8 CPU s instead of 56 in a directory of its own
# (cold, user+sys; the check 68).
run_side fuzz_doc env CUSTOM_LIBFUZZER_PATH=/nonexistent/libfuzzer.a CARGO_TARGET_DIR=target/check \
  bash -c 'cargo check -q --manifest-path fuzz/Cargo.toml --bins && RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -q'
run_side spin bash models/check.sh
run_side coq bash proofs/check.sh
trap 'for pid in "${side[@]}"; do kill -- -"$pid" 2>/dev/null || true; done' EXIT

step "release build --features mpi (tests, examples, benches, loom)"
cargo test --release -q "${features[@]}" --no-run
cargo build --release -q "${features[@]}" --examples
cargo bench -q "${features[@]}" --no-run

# The examples that validate a user's protocol, built above, as side jobs
# beside the tests (run directly: `cargo run` would wait for the lock that
# `cargo test` holds while its tests run).
run_side own_balancer target/release/examples/own_balancer
run_side own_detector target/release/examples/own_detector

step "cargo test --release --features mpi (unit, property, golden, snapshot, CLI, campaign, MPI tests, loom's quick profile)"
cargo test --release "${features[@]}"

collect own_balancer "validating a user's own balancer (examples/own_balancer.rs)"
collect own_detector "validating a user's own detector (examples/own_detector.rs)"

step "a foreign detector's traces (scripts/foreign.sh: examples/safra_trace.rs)"
bash scripts/foreign.sh "${features[@]}"

collect fuzz_doc "the fuzz targets compile (cargo check of fuzz/), rustdoc with no warnings"
collect spin "SPIN models (models/check.sh)"
collect coq "Coq proofs (proofs/check.sh)"

if [ -n "$fuzz" ]; then
  step "fuzz targets, briefly (scripts/fuzz.sh: ${LBCHECK_FUZZ_SECONDS:-30}s shared by the targets)"
  bash scripts/fuzz.sh "${LBCHECK_FUZZ_SECONDS:-30}"
fi

step "all passed in $((SECONDS - start))s"
