#!/usr/bin/env bash
# POLYJUICE's Fig. 7 (a uint8 multiplication Inductor 2.1.0 cast after the order of its
# operands), with a consumer of the product (fig7_consumer.rtg): the equivalence mismatch of
# mul(a, s) and mul(s, a) shows on inductor@2.1.0, and `backend bisect` between 2.1.0 and the
# default release names the default as the first good one (--installed: over the two releases
# the test installs; uv's cache is shared, so a machine downloads them once).
#   bisect_inductor_test.sh RETORT CACHE_DIR
set -euo pipefail
retort=$1
export UV_CACHE_DIR=${UV_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/uv}
export XDG_CACHE_HOME=$2/inductor
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
scripts=${RETORT_SCRIPTS_DIR:-$repo/scripts}
if [ ! -f "$scripts/backends/inductor_worker.py" ]; then
  echo "skipped: no $scripts/backends/inductor_worker.py"
  exit 77
fi
fail() { echo "FAIL: $*" >&2; exit 1; }

"$retort" backend install inductor
"$retort" backend install inductor@2.1.0
default=$(sed -n 's/^torch==\([^ ]*\).*/\1/p' "$scripts/backends/locks/inductor.txt")
[ -n "$default" ] || fail "no torch in the inductor lock"

# One application of mul-comm; the random extraction with seed 2 takes mul(s, a).
session="load $here/fig7_consumer.rtg; egraph; apply mul-comm; extract random as swapped --seed 2"
session+="; show swapped; compare swapped --backends ref inductor@2.1.0 inductor"
# Finding #1 is the reference oracle's, #2 the equivalence oracle's: bisect the POLYJUICE one.
out=$("$retort" -c "$session; backend bisect inductor 2.1.0 default --installed --finding 2" 2>&1) ||
  fail "$out"
echo "$out"
grep -q "= mul(s, a)" <<<"$out" || fail "the variant is not mul(s, a)"
grep -Eq "^#2 \[equivalence\] inductor@2\.1\.0:default on swapped vs original \(seed 1\): mismatch" <<<"$out" ||
  fail "no equivalence mismatch on inductor@2.1.0"
grep -Eq "^inductor:default +pass +pass" <<<"$out" || fail "the default release does not pass"
grep -q "^inductor@2.1.0: reproduces (mismatch" <<<"$out" || fail "bisect: 2.1.0 does not reproduce"
grep -q "first good release: inductor@$default (last bad: 2.1.0" <<<"$out" ||
  fail "bisect did not name inductor@$default"
echo "ok"
