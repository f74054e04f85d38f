#!/usr/bin/env bash
# Runs the main job on every catalogue mutant (`lbcheck check --mutant M`,
# the quick profile) and prints each one's exit code (1 = caught), wall
# seconds and CPU seconds (user + sys), slowest last; then how many took
# more than the limit (issue 30: every mutant fails within 60 s). Run it
# nice'd on a shared machine: `nice bash scripts/mutant-times.sh`.
#   bash scripts/mutant-times.sh [MUTANT ...]   # default: the whole catalogue
# Exits 1 if a mutant is not caught (exit code other than 1) or is over the limit.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${LBCHECK:-target/release/lbcheck}
limit=${LIMIT:-60}
[ -x "$bin" ] || { echo "$0: build first (cargo build --release)" >&2; exit 2; }
if [ $# -gt 0 ]; then names=("$@"); else
  mapfile -t names < <("$bin" mutants --json | sed -n 's/.*"name": *"\([^"]*\)".*/\1/p'); fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-32s %4s %8s %8s\n' mutant exit wall_s cpu_s
for m in "${names[@]}"; do
  code=0
  /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$bin" check --mutant "$m" --out "$tmp/out" >"$tmp/log" 2>&1 || code=$?
  read -r wall user sys < <(tail -1 "$tmp/time")  # after "Command exited with non-zero status N"
  printf '%-32s %4s %8s %8.1f\n' "$m" "$code" "$wall" "$(echo "$user + $sys" | bc)" | tee -a "$tmp/rows"
done
echo "--- slowest 10"
sort -k3 -g -r "$tmp/rows" | head -10
over=$(awk -v l="$limit" '$3 > l' "$tmp/rows" | wc -l)
missed=$(awk '$2 != 1' "$tmp/rows" | wc -l)
echo "${#names[@]} mutants: $missed not caught (exit != 1), $over over ${limit} s"
[ "$missed" = 0 ] && [ "$over" = 0 ]
