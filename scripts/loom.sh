#!/usr/bin/env bash
# loom: every thread interleaving (up to a preemption bound) of the threaded
# driver (src/runtime/) running every balancer × detector pair that runs on
# threads, on tiny workloads, checked by the trace checker; a mutant of each
# pair and every threaded-driver mutant reported (tests/loom_threads.rs);
# a user's balancer through campaign::user (tests/loom/user.rs). Prints
# each test's time (from the file LBCHECK_LOOM_TIMES the tests append to).
#
#   bash scripts/loom.sh --quick   # B = LOOM_MAX_PREEMPTIONS = 2: every pair at P = 2 at bound 2; at P = 3
#                                  # energy at 1 (Pacheco 2), four-counter and Safra at 0 (Pacheco 1);
#                                  # the mutants at their P (the one-wave one at P = 3, bound 0)
#   bash scripts/loom.sh --full    # B = 3: one preemption more everywhere (P = 3 four-counter and Safra:
#                                  # first 2·10^5 interleavings per seed; LBCHECK_LOOM_CAP=N for more),
#                                  # the threaded driver's mutants at P = 3, 4 seeds
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
