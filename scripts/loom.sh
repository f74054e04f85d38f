#!/usr/bin/env bash
# loom: every thread interleaving (up to a preemption bound) of the threaded
# driver (src/runtime/, compiled a second time against loom's types in
# src/loom/, part of the ordinary release build) running every balancer ×
# detector pair that runs on threads, on tiny workloads, checked by the
# trace checker; a mutant of each pair and every threaded-driver mutant
# reported (tests/loom_threads.rs, cases in src/loom/pairs.rs); a user's
# balancer through campaign::user (tests/loom/user.rs). Prints each test's
# time (from the file LBCHECK_LOOM_TIMES the tests append to).
#
#   bash scripts/loom.sh --quick   # B = LOOM_MAX_PREEMPTIONS = 2: every pair at P = 2 at bound 2; at P = 3
#                                  # energy at 1 (Pacheco 2), four-counter and Safra at 0 (Pacheco 1);
#                                  # the mutants at their P (the one-wave one at P = 3, bound 0).
#                                  # `cargo test --release` runs the same (its loom_threads binary)
#   bash scripts/loom.sh --full    # B = 3: one preemption more everywhere (P = 3 four-counter and Safra:
#                                  # first 2·10^5 interleavings per seed; LBCHECK_LOOM_CAP=N for more),
#                                  # the threaded driver's mutants at P = 3, 4 seeds
#
# Bounds and their costs are explained in src/loom/pairs.rs. No special
# build: the release test build serves.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:---quick}
case "$profile" in
  --quick) export LOOM_MAX_PREEMPTIONS=${LOOM_MAX_PREEMPTIONS:-2}; export LBCHECK_LOOM_PROFILE=quick ;;
  --full) export LOOM_MAX_PREEMPTIONS=${LOOM_MAX_PREEMPTIONS:-3}; export LBCHECK_LOOM_PROFILE=full ;;
  *) echo "usage: $0 [--quick|--full]" >&2; exit 2 ;;
esac
start=$SECONDS
cargo test --release --test loom_threads --no-run -q
echo "== loom ${profile#--} profile: LOOM_MAX_PREEMPTIONS=$LOOM_MAX_PREEMPTIONS (built in $((SECONDS - start))s)"
t0=$SECONDS
export LBCHECK_LOOM_TIMES=target/loom-times.txt  # each test appends its time (tests/loom/harness.rs)
rm -f "$LBCHECK_LOOM_TIMES"
cargo test --release -q --test loom_threads -- --test-threads 2
echo "== each test (seconds of one thread, two at a time):"
sort -k3 "$LBCHECK_LOOM_TIMES" 2>/dev/null | sed 's/^/   /' || true
echo "== loom ${profile#--} profile passed: tests took $((SECONDS - t0))s, $((SECONDS - start))s in all"
