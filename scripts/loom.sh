#!/usr/bin/env bash
# loom: every thread interleaving (up to a preemption bound) of the threaded
# driver (src/runtime/) on tiny workloads, checked by the trace checker; and
# every concurrency mutant reported (tests/loom_threads.rs).
#
#   bash scripts/loom.sh --quick   # B = LOOM_MAX_PREEMPTIONS = 2: P = 2 at bound 2, P = 3 energy at 1,
#                                  # P = 3 four-counter and the one-wave mutant at 0: 17 s with the build
#   bash scripts/loom.sh --full    # B = 3: P = 2 at 3, P = 3 energy at 2, P = 3 four-counter at 1
#                                  # (first 2·10^5 interleavings per seed; LBCHECK_LOOM_CAP=N for more),
#                                  # every mutant at P = 3, 4 seeds: 400 s on 2 cores
#   bash scripts/loom.sh --build   # build only (the test command builds this while
#                                  # the release and fuzz builds run)
#
# Bounds and their costs are explained at the top of tests/loom_threads.rs.
# Builds with RUSTFLAGS="--cfg loom" into target/loom so the normal build is untouched.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:---quick}
case "$profile" in
  --quick) export LOOM_MAX_PREEMPTIONS=${LOOM_MAX_PREEMPTIONS:-2}; export LBCHECK_LOOM_PROFILE=quick; extra=() ;;
  --full) export LOOM_MAX_PREEMPTIONS=${LOOM_MAX_PREEMPTIONS:-3}; export LBCHECK_LOOM_PROFILE=full; extra=(--include-ignored) ;;
  --build) ;;
  *) echo "usage: $0 [--quick|--full|--build]" >&2; exit 2 ;;
esac
start=$SECONDS
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom cargo test --release --test loom_threads --no-run -q
[ "$profile" = --build ] && { echo "== loom built in $((SECONDS - start))s"; exit 0; }
echo "== loom ${profile#--} profile: LOOM_MAX_PREEMPTIONS=$LOOM_MAX_PREEMPTIONS (built in $((SECONDS - start))s)"
t0=$SECONDS
export LBCHECK_LOOM_TIMES=target/loom/times.txt  # each test appends its time (tests/loom/harness.rs)
rm -f "$LBCHECK_LOOM_TIMES"
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom \
  cargo test --release -q --test loom_threads -- --test-threads 2 "${extra[@]}"
echo "== each test (seconds of one thread, two at a time):"
sort -k3 "$LBCHECK_LOOM_TIMES" 2>/dev/null | sed 's/^/   /' || true
echo "== loom ${profile#--} profile passed: tests took $((SECONDS - t0))s, $((SECONDS - start))s in all"
