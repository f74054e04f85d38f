#!/usr/bin/env bash
# The cargo that scripts/mutants.sh hands cargo-mutants (as $CARGO): the
# real cargo, with each invocation's wall and CPU seconds (user + sys, its
# children included) appended to $LBCHECK_MUTANTS_TIMES, one line each:
#   WALL wall USER user SYS sys MAXRSS KB | ARGS
# so that the per-mutant cost in docs/mutants.md is measured, not guessed.
set -euo pipefail
real=${LBCHECK_REAL_CARGO:-cargo}
if [ -n "${LBCHECK_MUTANTS_TIMES:-}" ] && [ -x /usr/bin/time ]; then
  exec /usr/bin/time -a -o "$LBCHECK_MUTANTS_TIMES" \
    -f "%e wall %U user %S sys %M KB | $*" "$real" "$@"
fi
exec "$real" "$@"
