#!/usr/bin/env bash
# A foreign implementation's traces (examples/safra_trace.rs: work stealing
# with Safra's token-ring detector, written from docs/trace-format.md alone)
# through `lbcheck check-trace`: the correct one passes on several seeds; the
# seeded bug `eager-token` fails `no_early_termination` as its first cause.
# Arguments go to cargo (the test command passes `--features mpi`, so that
# its one release build serves). The binary is built beside the example, not
# by `cargo run`: a build of the binary alone leaves out the dev-dependencies'
# features (resolver 2: proptest's regex-syntax features on loom's
# tracing-subscriber), so it compiled loom, the crate and ten more crates a
# second time (90 s of the test command); with an example in the same
# command the features are the test build's and nothing is rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cargo build --release -q "$@" --example safra_trace --bin lbcheck
example=target/release/examples/safra_trace
lbcheck() { target/release/lbcheck "$@"; }

for seed in 1 2 3; do
  "$example" --seed "$seed" --out "$dir/ok.jsonl"
  lbcheck check-trace "$dir/ok.jsonl" >/dev/null || { echo "the correct Safra trace (seed $seed) failed"; exit 1; }
done
echo "correct Safra traces pass (seeds 1-3)"

"$example" --bug eager-token --out "$dir/bad.jsonl"
if lbcheck check-trace "$dir/bad.jsonl" >/dev/null 2>"$dir/err"; then
  echo "the eager-token Safra trace passed"; exit 1
fi
head -n 1 "$dir/err"
grep -q '^FAILED no_early_termination' <(head -n 1 "$dir/err") || { echo "expected no_early_termination first"; cat "$dir/err"; exit 1; }
echo "the seeded bug eager-token fails no_early_termination"
