#!/usr/bin/env bash
# Check the Coq proofs in proofs/.  Usage: bash proofs/check.sh (any cwd).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if ! command -v coqc >/dev/null 2>&1; then
  echo "installing coq via apt-get ..."
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq coq >/dev/null
fi
echo "$(coqc --version | head -1)"

# No unfinished or assumed proofs.
if grep -nE 'Admitted|admit\.|Axiom' "$HERE"/*.v; then
  echo "proofs/check.sh: FAIL (Admitted / admit / Axiom found above)"
  exit 1
fi

start=$(date +%s)
# Rebuild from scratch so every file is really checked.
make -s -C "$HERE" clean
if ! make --no-print-directory -C "$HERE"; then
  echo "proofs/check.sh: FAIL (coqc rejected a proof)"
  exit 1
fi

# Report what each top-level theorem depends on (only the standard library
# axioms of Coq's Reals may appear, for Bounds.v).
TMP="$(mktemp -d "${TMPDIR:-/tmp}/lbcheck-proofs.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
cat > "$TMP/Assumptions.v" <<'COQ'
From LbCheck Require Energy FourCounter Bounds.
Print Assumptions Energy.energy_conserved.
Print Assumptions Energy.no_early_termination.
Print Assumptions FourCounter.mattern_safety.
Print Assumptions FourCounter.four_counter_safety.
Print Assumptions FourCounter.terminated_stable.
Print Assumptions Bounds.lemma3_exponent_positive_c8.
COQ
out="$(cd "$TMP" && coqc -Q "$HERE" LbCheck Assumptions.v 2>&1)" || { echo "$out"; exit 1; }
closed=$(grep -c "Closed under the global context" <<<"$out" || true)
echo "Print Assumptions: $closed of 5 Energy/FourCounter theorems closed under the global context;" \
     "Bounds uses only the Reals library axioms: $(grep -oE '^[A-Za-z_.]+ :' <<<"$out" | tr -d ' :' | sort -u | tr '\n' ' ')"
[ "$closed" -ge 5 ] || { echo "$out"; echo "proofs/check.sh: FAIL (unexpected assumptions)"; exit 1; }

end=$(date +%s)
echo "proofs/check.sh: all proofs checked, no Admitted/admit/Axiom ($((end - start)) s)"
