#!/usr/bin/env bash
# Mutation testing with cargo-mutants over src/protocol/ or src/check/
# (issue 31 item 5; docs/mutants.md "cargo-mutants"). A long job, not part
# of the test command.
#
#   bash scripts/mutants.sh [protocol|check] [--shard K/N] [cargo-mutants args]
#
# The quick test profile is in .cargo/mutants.toml (the `mutants` cargo
# profile of Cargo.toml, tests/sim filtered to the every-property runs).
# One scratch copy of the tree (-j 1), builds in target/mutants-build (kept
# between runs: the dependencies are built once), results in
# target/mutants-AREA/mutants.out/. Prints caught / missed / unviable /
# timeout and the score caught / (caught + missed).
# Needs `cargo install cargo-mutants` (27.x). Exit 2 on bad arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
area=${1:-protocol}
case "$area" in
  protocol|check) shift || true ;;
  *) echo "usage: bash scripts/mutants.sh [protocol|check] [--shard K/N] [cargo-mutants args]" >&2; exit 2 ;;
esac
if ! cargo mutants --version >/dev/null 2>&1; then
  echo "cargo-mutants is not installed: cargo install --locked cargo-mutants" >&2
  exit 2
fi
out="target/mutants-$area"
mkdir -p "$out"
export CARGO_TARGET_DIR="$PWD/target/mutants-build"
# Mutants in round-robin order, unshuffled: a shard (and a run cut short)
# is the same list on every machine.
nice cargo mutants -f "src/$area/**" -j 1 --no-shuffle --sharding round-robin \
  --output "$out" "$@" || true
bash "$(dirname "$0")/mutants-score.sh" "$out/mutants.out"
