#!/usr/bin/env bash
# The score of a cargo-mutants output directory (scripts/mutants.sh):
#   bash scripts/mutants-score.sh DIR/mutants.out
# caught / missed / unviable / timeout, the score caught / (caught + missed)
# with its Clopper–Pearson 95 % interval (exact binomial, by bisection), and
# every missed mutant. With --iterate, cargo-mutants moves the mutants caught
# in earlier runs to previously_caught.txt: they are counted as caught.
set -euo pipefail
dir=${1:?usage: bash scripts/mutants-score.sh DIR/mutants.out}
[ -d "$dir" ] || { echo "no such directory: $dir" >&2; exit 2; }
n() { if [ -f "$dir/$1.txt" ]; then wc -l <"$dir/$1.txt"; else echo 0; fi; }
caught=$(($(n caught) + $(n previously_caught))) missed=$(n missed)
unviable=$(n unviable) timeout=$(n timeout)
echo "caught $caught  missed $missed  unviable $unviable  timeout $timeout"
if [ $((caught + missed)) -gt 0 ]; then
  awk -v k="$caught" -v n=$((caught + missed)) '
    # P(X <= x) for X ~ Binomial(n, p), summed in logs.
    function cdf(x, p,   i, s, lc) {
      if (p <= 0) return 1; if (p >= 1) return (x >= n) ? 1 : 0
      s = 0; lc = 0
      for (i = 0; i <= x; i++) {
        if (i > 0) lc += log(n - i + 1) - log(i)
        s += exp(lc + i * log(p) + (n - i) * log(1 - p))
      }
      return s
    }
    # The p at which f(p) = cdf(x, p) crosses a (cdf falls as p rises).
    function solve(x, a,   lo, hi, mid, j) {
      lo = 0; hi = 1
      for (j = 0; j < 60; j++) { mid = (lo + hi) / 2; if (cdf(x, mid) > a) lo = mid; else hi = mid }
      return (lo + hi) / 2
    }
    BEGIN {
      lo = (k == 0) ? 0 : solve(k - 1, 0.975)   # P(X >= k) = 0.025
      hi = (k == n) ? 1 : solve(k, 0.025)       # P(X <= k) = 0.025
      printf "score %.1f %% (%d / %d, caught / (caught + missed)); Clopper-Pearson 95 %%: [%.1f %%, %.1f %%]\n",
        100 * k / n, k, n, 100 * lo, 100 * hi
    }'
fi
if [ "$missed" -gt 0 ]; then echo "missed:"; sed 's/^/  /' "$dir/missed.txt"; fi
if [ "$timeout" -gt 0 ]; then echo "timeout:"; sed 's/^/  /' "$dir/timeout.txt"; fi
