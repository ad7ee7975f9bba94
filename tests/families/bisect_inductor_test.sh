#!/usr/bin/env bash
# POLYJUICE's Fig. 7 (a uint8 multiplication Inductor 2.1.0 cast after the order of its
# operands): the equivalence mismatch shows on inductor@2.1.0, and `backend bisect` between
# 2.1.0 and the default release names the default as the first good one. Installs both torch
# releases (uv's cache is shared, so a machine downloads them once).
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

# mul(a, s) and its commuted twin: the rule mul-comm gives the variant with mul(s, a).
session="load $repo/samples/polyjuice/fig7_uint8_mul_order.rtg; egraph; saturate --iters 2
extract max --name swapped; compare swapped --backends ref inductor@2.1.0 inductor"
out=$("$retort" -c "$session; backend bisect inductor 2.1.0 default --installed" 2>&1) ||
  fail "$out"
echo "$out"
grep -Eq "^#1 \[equivalence\] inductor@2\.1\.0:default on swapped vs inductor@2\.1\.0:default on original" <<<"$out" ||
  fail "no equivalence mismatch on inductor@2.1.0"
grep -Eq "^inductor:default +pass +pass" <<<"$out" || fail "the default release does not pass"
grep -q "first good release: inductor@$default (last bad: 2.1.0" <<<"$out" ||
  fail "bisect did not name inductor@$default"
echo "ok"
