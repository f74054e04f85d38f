#!/usr/bin/env bash
# Compares the verdicts of two `lbcheck check` reports case by case, in
# order: (layer/name, verdict, failed properties). Exit 0 if they are the
# same, 1 with the differences otherwise, 2 on bad input. Wall-clock
# figures (seconds, the threads layer's points) and details are ignored.
#   bash scripts/same-verdicts.sh lbcheck-report/report.json mpi-report/report.json
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 A/report.json B/report.json" >&2
  exit 2
fi
command -v jq >/dev/null || { echo "$0: needs jq (apt-get install jq)" >&2; exit 2; }
verdicts() { jq -r '.cases[] | "\(.layer)/\(.name)\t\(.verdict)\t\(.failed | join(","))"' "$1"; }
a=$(verdicts "$1") || exit 2
b=$(verdicts "$2") || exit 2
if diff <(echo "$a") <(echo "$b"); then
  echo "same verdicts: $(echo "$a" | wc -l) cases ($(echo "$a" | cut -f2 | sort | uniq -c | xargs))"
else
  echo "the verdicts differ (< $1, > $2)" >&2
  exit 1
fi
