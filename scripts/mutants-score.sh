#!/usr/bin/env bash
# The score of a cargo-mutants output directory (scripts/mutants.sh):
#   bash scripts/mutants-score.sh target/mutants-protocol/mutants.out
set -euo pipefail
dir=${1:?usage: bash scripts/mutants-score.sh DIR/mutants.out}
[ -d "$dir" ] || { echo "no such directory: $dir" >&2; exit 2; }
n() { if [ -f "$dir/$1.txt" ]; then wc -l <"$dir/$1.txt"; else echo 0; fi; }
caught=$(n caught) missed=$(n missed) unviable=$(n unviable) timeout=$(n timeout)
echo "caught $caught  missed $missed  unviable $unviable  timeout $timeout"
if [ $((caught + missed)) -gt 0 ]; then
  awk -v c="$caught" -v m="$missed" 'BEGIN { printf "score %.1f %% (caught / (caught + missed))\n", 100 * c / (c + m) }'
fi
if [ "$missed" -gt 0 ]; then echo "missed:"; sed 's/^/  /' "$dir/missed.txt"; fi
