#!/usr/bin/env bash
# The hostile sweep (not in the test command: a long job): every catalogue
# mutant × N swarm runs of `lbcheck simulate --mutant M` (the campaign's
# own generator, seeds from ChaCha: examples/hostile_specs.rs), plus a
# threaded run (`lbcheck run --check`) where the mutant acts on threads and
# its `explore` instance. Exit 0 and 1 are verdicts; 2 is refused input
# (listed: the generator's runs are valid, so each is worth a look);
# 101 (a panic), a signal or the timeout is a crash. Prints a table of
# mutant × exit counts and the first replay command of each crash class;
# exit 1 if any run crashed, 0 otherwise.
#   bash scripts/hostile.sh [N=5] [SEED=1] [TIMEOUT_SECS=120] [JOBS=2]
# (LBCHECK=BINARY sweeps that build; HOSTILE_RESULTS=FILE keeps every run's line: mutant, driver, exit, command, message.)
set -uo pipefail
n=${1:-5} seed=${2:-1} limit=${3:-120} jobs=${4:-2}
for v in "$n" "$seed" "$limit" "$jobs"; do
  [[ $v =~ ^[0-9]+$ ]] || { echo "usage: $0 [N] [SEED] [TIMEOUT_SECS] [JOBS] (numbers)" >&2; exit 2; }
done
cd "$(dirname "$0")/.." || exit 2
if [ -n "${LBCHECK:-}" ]; then # another build to sweep (e.g. an older one, for a before/after table)
  bin=$(realpath "$LBCHECK") && cargo build --release --quiet --example hostile_specs || exit 2
else
  cargo build --release --quiet --bin lbcheck --example hostile_specs || exit 2
  bin=$PWD/target/release/lbcheck
fi
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
target/release/examples/hostile_specs "$n" "$seed" >"$work/commands" || exit 2
echo "$(wc -l <"$work/commands") runs (N=$n, seed $seed, timeout ${limit}s, $jobs at a time)" >&2

# One command line `MUTANT<TAB>DRIVER<TAB>lbcheck …`: its exit code appended
# (124 = the timeout; 128+S = signal S), the first stderr line of a crash.
one() {
  IFS=$'\t' read -r m driver cmd <<<"$1"
  local out; out=$(mktemp -p "$work")
  mkdir "$out.d" && (cd "$out.d" && eval "timeout -k 5 $limit $bin ${cmd#lbcheck }" >/dev/null 2>"$out")
  local code=$?
  local why; why=$(grep -m1 -E "panicked|error|FAILED" "$out" | cut -c1-160)
  printf '%s\t%s\t%s\t%s\t%s\n' "$m" "$driver" "$code" "$cmd" "$why"
  rm -rf "$out" "$out.d"
}
export -f one && export bin limit work
tr '\n' '\0' <"$work/commands" | xargs -0 -P "$jobs" -I{} bash -c 'one "$1"' _ {} >"$work/unsorted"
sort -s -t$'\t' -k1,1 "$work/unsorted" >"$work/results"
[ -n "${HOSTILE_RESULTS:-}" ] && cp "$work/results" "$HOSTILE_RESULTS"

awk -F'\t' '
  { code = $3; c = (code == 0 || code == 1 || code == 2) ? code : (code == 124 ? "timeout" : (code == 101 ? 101 : "sig/" code))
    key = $1; n[key, c]++; if (!(key in seen)) rows[++r] = key; seen[key] = 1; codes[c] = 1
    if (c != 0 && c != 1 && !((c) in first)) { first[c] = $4; why[c] = $5 }
    if (c == 2 && !(($1) in refused)) { refused[$1] = $4 "\n      " $5 }
    if (c != 0 && c != 1 && c != 2) { crash++; if (!(($1 SUBSEP c) in shown)) { shown[$1, c] = 1; crashes = crashes sprintf("%-30s exit %-7s %s\n      %s\n", $1, c, $4, $5) } } }
  END {
    ncol = split("0 1 2 101 timeout", cols, " ")
    for (c in codes) if (c != 0 && c != 1 && c != 2 && c != 101 && c != "timeout") cols[++ncol] = c
    printf "%-30s", "mutant"; for (i = 1; i <= ncol; i++) printf " %8s", "exit " cols[i]; printf "\n"
    for (i = 1; i <= r; i++) { printf "%-30s", rows[i]; for (j = 1; j <= ncol; j++) printf " %8d", n[rows[i], cols[j]]; printf "\n" }
    printf "%-30s", "all"; for (j = 1; j <= ncol; j++) { t = 0; for (i = 1; i <= r; i++) t += n[rows[i], cols[j]]; printf " %8d", t }; printf "\n"
    if (length(refused)) { print "\nrefused (exit 2), first of each mutant:"; for (k in refused) print "  " k ": " refused[k] }
    if (crash) { printf "\n%d crashes; the first of each mutant × exit:\n%s", crash, crashes; exit 1 }
    print "\nno crash"
  }' "$work/results"
