#!/usr/bin/env bash
# Opens findings again and runs each case on other backends too (docs/bugs.md, "Old releases"):
# per finding its first check, whether it still fails on its own backends (`findings open N`),
# and the verdicts of the same graphs and inputs on BACKENDS (e.g. "ref ort:O0 ort:O3", the
# default release: is the bug live there?).
#   reopen_on.sh RETORT DB "BACKENDS" N...
set -u
retort=$1
db=$2
backends=$3
shift 3
for id in "$@"; do
  "$retort" findings show "$id" --db "$db" 2>&1 | head -1
  "$retort" findings show "$id" --db "$db" 2>&1 | grep -m1 '  check' | cut -c1-300
  out=$(timeout 120 "$retort" -c "findings open $id --db $db; compare --backends $backends" 2>&1)
  echo "  again: $(echo "$out" | grep -o 'compare again: .*' | head -1)"
  echo "$out" | grep -E '^(equivalence|optimization|reference):' | sed 's/^/  on the others: /'
done
