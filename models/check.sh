#!/usr/bin/env bash
# Model-check every Promela model in models/ with SPIN.
# Usage: bash models/check.sh   (from any directory)
# Prints one line per check; exits non-zero if a property that should hold
# is violated, a variant that should fail does not, or a search is
# incomplete (depth limit hit, pan error).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if ! command -v spin >/dev/null 2>&1 || ! command -v gcc >/dev/null 2>&1; then
  echo "installing spin/gcc via apt-get ..."
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq spin gcc >/dev/null
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/lbcheck-models.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

DEPTH=200000
FAILED=0

# condensed counterexample: one line per step, at most ~40 lines; for an
# acceptance cycle also the global state where the cycle starts
show_trail() { # model macros...
  local model="$1" ; shift
  case "$model" in
    four_counter.pml) echo "    | legend: pid 1..3 = Worker(PE 0..2), pid 4 = Net (work receipt), pid 5 = Root (PE 0's wave logic)" ;;
    work_request.pml) echo "    | legend: pid 1..3 = PE 0..2; req[j] = requests pending at PE j" ;;
    energy.pml)       echo "    | legend: pid 1..P = PE 0..P-1" ;;
    pas_phase.pml)    echo "    | legend: pid 0 = init (draws dim and the units w[k]), pid 1..4 = PE 0..3" ;;
  esac
  ( cd "$WORK" && spin -t -p -g "$@" "$model" 2>&1 ) \
    | awk '
        function flush() { if (line != "") print line; line = "" }
        /START OF CYCLE/ { flush(); st = "";
          for (k in g) st = st " " k "=" g[k];
          for (k in q) if (q[k] != "") st = st " " k "=" q[k];
          print "  <<<<< START OF CYCLE >>>>>  state:" st; next }
        /assertion violated/ { flush(); print "  " $0; stop = 1; next }
        stop { next }
        /^\t\tqueue [0-9]+ \(/ { k = $3; sub(/^\(/, "", k); sub(/\):$/, "", k);
          v = $0; sub(/^[^:]*: ?/, "", v); q[k] = v; next }
        /^\t\t[A-Za-z_][A-Za-z0-9_\[\]]* = / { g[$1] = $3; next }
        /^ *[0-9]+:\tproc +[0-9]+ .*\t\[.*\]$/ {
          step = $1; sub(/:$/, "", step)
          pid = $3
          who = $4; sub(/^\(/, "", who); sub(/:.*/, "", who)
          stmt = $0; sub(/^[^\t]*\t[^\t]*\t\[/, "", stmt); sub(/\]$/, "", stmt)
          if (stmt == "(1)" || stmt == "else" || stmt ~ /^\(run /) next
          key = step "/" pid
          if (key == lastkey) { line = line "; " stmt }
          else { flush(); line = sprintf("  %4d  %s(pid %s): %s", step, who, pid, stmt) }
          lastkey = key; next }
        END { flush() }' >"$WORK/trail.txt" || true
  if grep -q "START OF CYCLE" "$WORK/trail.txt"; then
    # the prefix is mostly noise: show its start, then the cycle
    local c; c=$(grep -n "START OF CYCLE" "$WORK/trail.txt" | cut -d: -f1)
    { head -n $(( c - 1 < 12 ? c - 1 : 12 )) "$WORK/trail.txt"
      [ "$c" -gt 13 ] && echo "  ... ($(( c - 13 )) steps omitted)"
      sed -n "${c},\$p" "$WORK/trail.txt" | head -25; } | sed 's/^/    | /'
  else
    tail -40 "$WORK/trail.txt" | sed 's/^/    | /'
  fi
}

# Compiled verifiers are kept by the hash of pan.c and the flags (gcc takes
# 0.5-2 s a model at -O0/-O1; pan.c changes with the model, its macros and spin's
# version; the key also has gcc's), under target/spin-pan of the repository, or $LBCHECK_SPIN_CACHE.
CACHE="${LBCHECK_SPIN_CACHE:-$HERE/../target/spin-pan}"
compile_pan() { # cflags...
  local key; key="$( { cat "$WORK"/pan.?; echo "$* $(gcc -dumpfullversion)"; } | sha256sum | cut -c1-32)"
  if [ -x "$CACHE/$key" ]; then cp "$CACHE/$key" "$WORK/pan"; return 0; fi
  ( cd "$WORK" && gcc "$@" -o pan pan.c >"$WORK/gcc.log" 2>&1 ) || return 1
  mkdir -p "$CACHE" 2>/dev/null && cp "$WORK/pan" "$CACHE/$key.$BASHPID" 2>/dev/null && mv "$CACHE/$key.$BASHPID" "$CACHE/$key" || true
}

# run_check <file> <label> <kind: safety|ltl> <expect: hold|fail> <ltl-name-or-> <macros...>
run_check() {
  local file="$1" label="$2" kind="$3" expect="$4" claim="$5"; shift 5
  local macros=("$@") t0=$SECONDS
  local out="$WORK/out.txt"
  cp "$HERE/$file" "$WORK/$file"
  rm -f "$WORK"/pan* "$WORK"/*.trail
  ( cd "$WORK" && spin -a "${macros[@]}" "$file" >"$WORK/spin.log" 2>&1 ) || {
    echo "$file $label $kind: spin -a failed -> FAIL"; cat "$WORK/spin.log"; FAILED=1; return; }
  # gcc's optimisation level, by kind (compile + search, CPU seconds, one
  # check each at -O0 / -O1 / -O2): a safety search is short, so -O0's
  # 0.5 s compile wins (energy [P=3] 0.75 / 1.55 / 2.84 s, TREE [P=4]
  # 2.1 / 2.5 / 3.7 s); an ltl search is longer, -O1 compiles in half
  # -O2's time and searches about as fast (TREE [P=4] 19.2 / 12.4 / 12.3 s,
  # [P=3] 2.7 / 2.8 / 4.4 s).
  local cflags runflags
  if [ "$kind" = safety ]; then
    cflags=(-O0 -DSAFETY -DNOCLAIM); runflags=(-m$DEPTH)
    # breadth-first search gives the shortest counterexample
    [ "$expect" = fail ] && cflags+=(-DBFS)
  else
    cflags=(-O1 -DNFAIR=3); runflags=(-a -f -m$DEPTH)   # each model has exactly one ltl claim ($claim)
  fi
  compile_pan "${cflags[@]}" || {
    echo "$file $label $kind: gcc failed -> FAIL"; cat "$WORK/gcc.log"; FAILED=1; return; }
  ( cd "$WORK" && ./pan "${runflags[@]}" >"$out" 2>&1 ) || true

  local errors states what
  errors="$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' "$out" | tail -1)"
  states="$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$out" | tail -1)"
  if [ "$kind" = safety ]; then what="safety (assertions, invalid end states)"; else what="ltl $claim (weak fairness)"; fi
  local summary="$file $label $what: ${states:-?} states, ${errors:-?} errors, $((SECONDS - t0)) s"

  # A search stopped at the first counterexample reports "Search not
  # completed"; that is only acceptable when a counterexample is expected.
  local incomplete=0
  grep -qE "pan: error|error: max search depth too small|max search depth too small" "$out" && incomplete=1
  grep -q "Full statespace search" "$out" || incomplete=1
  if [ "$expect" = hold ] && [ "${errors:-0}" = 0 ] && grep -q "Search not completed" "$out"; then incomplete=1; fi
  if [ -z "$errors" ] || [ -z "$states" ] || [ "$incomplete" = 1 ]; then
    echo "$summary -> FAIL (incomplete or aborted search)"; sed 's/^/    | /' "$out" | head -30; FAILED=1; return
  fi
  if [ "$expect" = hold ]; then
    if [ "$errors" = 0 ]; then echo "$summary -> PASS (expected to hold)"
    else echo "$summary -> FAIL (expected to hold)"; grep -E "pan:1:|assertion|cycle|invalid" "$out" | head -5 | sed 's/^/    | /'
         show_trail "$file" "${macros[@]}"; FAILED=1; fi
  else
    if [ "$errors" != 0 ]; then
      echo "$summary -> PASS (counterexample found, as expected)"
      grep -E "^pan:1:" "$out" | head -1 | sed 's/^/    | /'
      show_trail "$file" "${macros[@]}"
    else echo "$summary -> FAIL (expected a counterexample, none found)"; FAILED=1; fi
  fi
}

# The checks run two at a time (each in its own directory; `spin`, `gcc`
# and `pan` are one thread each); their reports print in this order.
JOBS=${LBCHECK_SPIN_JOBS:-2}
n=0
check() {
  n=$((n + 1))
  while [ "$(jobs -pr | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
  ( WORK="$WORK/c$n"; mkdir -p "$WORK"; FAILED=0
    run_check "$@" >"$WORK/report" 2>&1
    echo "$FAILED" >"$WORK/failed" ) &
}
start=$(date +%s)
# 003 §14.7.4 energy termination detection (flat: returns go to PE 0)
check energy.pml "[P=3]"              safety hold -
check energy.pml "[P=3]"              ltl    hold termination_detected
# spanning-tree variant (parent of i is (i-1)/2); P=4/5 so the tree has depth 2
check energy.pml "TREE [P=4]"         safety hold - -DTREE -DP=4 -DMAXSPLIT=5
check energy.pml "TREE [P=4]"         ltl    hold termination_detected -DTREE -DP=4 -DMAXSPLIT=5
check energy.pml "TREE [P=5]"         safety hold - -DTREE -DP=5 -DMAXSPLIT=4
check energy.pml "TREE [P=5]"         ltl    hold termination_detected -DTREE -DP=5 -DMAXSPLIT=4
# 001 §2 four-counter termination detection (two consecutive equal waves)
check four_counter.pml "[P=3]"        safety hold -
check four_counter.pml "[P=3]"        ltl    hold termination_detected
check four_counter.pml "ONE_WAVE [P=3]" safety fail - -DONE_WAVE
# 003 §14.7.3 Work_remains with / without Send_all_rejects
check work_request.pml "[P=3]"        safety hold -
check work_request.pml "[P=3]"        ltl    hold requests_answered
check work_request.pml "NO_SEND_ALL_REJECTS [P=3]" safety hold - -DNO_SEND_ALL_REJECTS
check work_request.pml "NO_SEND_ALL_REJECTS [P=3]" ltl fail requests_answered -DNO_SEND_ALL_REJECTS
check work_request.pml "SCATTER [P=3]"     safety hold - -DSCATTER
check work_request.pml "SCATTER [P=3]"     ltl    hold requests_answered -DSCATTER
check work_request.pml "SCATTER NO_SEND_ALL_REJECTS [P=3]" ltl fail requests_answered -DSCATTER -DNO_SEND_ALL_REJECTS
# 000 §3.1 (Fig. 2), S-2: one poll-and-shuffle phase and its matching on a 2-cube
check pas_phase.pml "[P=4]"           safety hold -
check pas_phase.pml "MID_PHASE_REQUEST [P=4]" safety fail - -DMID_PHASE_REQUEST
wait
for i in $(seq 1 "$n"); do
  cat "$WORK/c$i/report"
  [ "$(cat "$WORK/c$i/failed" 2>/dev/null)" = 0 ] || FAILED=1
done
end=$(date +%s)

if [ "$FAILED" = 0 ]; then
  echo "models/check.sh: all checks PASS ($((end - start)) s)"
else
  echo "models/check.sh: FAILED ($((end - start)) s)"; exit 1
fi
