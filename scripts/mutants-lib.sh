# Helpers of scripts/mutants.sh (sourced).

# The committed HEAD of $1 into the fixed scratch copy $2 (a git clone kept
# between runs): `reset --hard` rewrites only the files that differ, so an
# unchanged file keeps its mtime and cargo's incremental build stays warm,
# and a file a stopped run left mutated is restored.
sync_tree() {
  local repo=$1 tree=$2
  [ -d "$tree/.git" ] || git clone -q --no-checkout "$repo" "$tree"
  git -C "$tree" fetch -q "$repo" HEAD
  git -C "$tree" reset -q --hard FETCH_HEAD
  if ! git -C "$repo" diff --quiet HEAD --; then
    echo "note: uncommitted changes in $repo are not tested (its HEAD is)" >&2
  fi
}

# cargo-mutants' baseline and timeout arguments: after one baseline in this
# scratch dir ($1/baseline-test-seconds), skip it and time the tests out at
# 3 x its wall time (at least 60 s: the quick profile takes 5-15 s); builds at 3,600 s (a loaded machine).
baseline_args() {
  local f=$1/baseline-test-seconds
  if [ -s "$f" ]; then
    local t
    t=$(awk '{ t = 3 * $1; if (t < 60) t = 60; printf "%d", t }' "$f")
    echo "--baseline skip --timeout $t --build-timeout 3600"
  else
    echo "--baseline run --build-timeout 3600"
  fi
}

# After a run with a baseline: its test wall time from cargo-times.log
# (the first `cargo test` call that is not a build).
record_baseline() {
  local dir=$1 out=$2 f=$1/baseline-test-seconds
  [ -s "$f" ] && return 0
  [ -f "$out/log/baseline.log" ] || return 0
  grep -q -i 'baseline.*\(failed\|timeout\)' "$out/outcomes.json" 2>/dev/null && return 0
  awk -F'|' '$2 ~ / test / && $2 !~ /--no-run/ { split($1, a, " "); print a[1]; exit }' \
    "$(dirname "$out")/cargo-times.log" >"$f" || true
}

# Median CPU seconds (user + sys) of the build calls and of the test calls
# in OUT/cargo-times.log (every run into OUT; the first build is cold).
cpu_per_mutant() {
  local log=$1/cargo-times.log kind
  [ -f "$log" ] || return 0
  for kind in build test; do
    awk -F'|' -v kind="$kind" '
      $2 ~ / test / && (($2 ~ /--no-run/) == (kind == "build")) {
        split($1, a, " "); printf "%.2f %.2f\n", a[3] + a[5], a[1]
      }' "$log" | sort -n | awk -v kind="$kind" '
      { cpu[NR] = $1; wall[NR] = $2 }
      END {
        if (NR == 0) exit
        printf "%s: %d calls, median %.0f CPU s (user + sys; wall %.0f s)\n",
          kind, NR, cpu[int((NR + 1) / 2)], wall[int((NR + 1) / 2)]
      }'
  done
}
