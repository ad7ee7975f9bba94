#!/usr/bin/env bash
# A reproducer of a finding whose variant lists the original's outputs in another order and
# exposes an intermediate value: a worker gets s wrong on the variant alone (retort_fault_worker
# perturbs neg, which only the variant uses). The bundle's script runs both graphs through the
# worker (Retort's replay) and must pair the outputs by name, as the compare did: the variant's
# s against the original's s, its o against o, the exposed n against nothing. Needs a Python with
# numpy (default /usr/bin/python3, what the bundle's README names); exit 77 (skipped) without it.
#   reordered_outputs_test.sh RETORT FAULT_WORKER [PYTHON]
set -euo pipefail
retort=$(realpath "$1")
worker=$(realpath "$2")
python=${3:-/usr/bin/python3}
"$python" -c "import numpy" 2>/dev/null || { echo "skipped: $python has no numpy"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
fail() { echo "FAIL: $*"; exit 1; }

cat >original.rtg <<'RTG'
graph original
input x : f32[2,3]
input y : f32[2,3]
s = add(x, y)
o = exp(x)
output o, s
RTG
cat >reordered.rtg <<'RTG'
graph reordered
input x : f32[2,3]
input y : f32[2,3]
n = neg(y)
s = sub(x, n)
o = exp(x)
output s, o, n
RTG

out=$("$retort" -c "load original.rtg; variant add reordered reordered.rtg; backend attach bad --cmd '$worker --fault perturb --perturb-op neg'; compare --backends ref,bad" 2>&1) ||
  fail "compare: $out"
n=$(grep -oE '#[0-9]+ \[equivalence\]' <<<"$out" | head -1 | tr -dc 0-9) ||
  fail "no equivalence finding: $out"
[ -n "$n" ] || fail "no equivalence finding: $out"
out=$("$retort" -c "load original.rtg; variant add reordered reordered.rtg; backend attach bad --cmd '$worker --fault perturb --perturb-op neg'; compare --backends ref,bad; export repro b --finding $n" 2>&1) ||
  fail "export: $out"

status=0
(cd b && "$python" repro.py >run.log 2>&1) || status=$?
[ "$status" = 1 ] || fail "repro.py exited $status, not 1: $(cat b/run.log)"
log=$(cat b/run.log)
# The variant's own outputs against its own expected values: only s is off.
grep -q "output 0 's': 1 of 6 elements differ" <<<"$log" || fail "s on the variant: $log"
grep -q "output 1 'o': as expected" <<<"$log" || fail "o on the variant: $log"
grep -q "output 2 'n': 1 of 6 elements differ" <<<"$log" || fail "n on the variant: $log"
# The two runs, paired by name: o agrees, s does not; n has no counterpart.
grep -q "output 1 'o' against output 0 'o': as expected" <<<"$log" || fail "o paired: $log"
grep -q "output 0 's' against output 1 's': 1 of 6 elements differ" <<<"$log" ||
  fail "s paired: $log"
grep -q "against output . 'n'" <<<"$log" && fail "n was paired: $log"
grep -q "^reproduced: bad on reordered disagrees with bad on original" <<<"$log" ||
  fail "verdict: $log"
echo "reordered outputs: the reproducer pairs them by name"
