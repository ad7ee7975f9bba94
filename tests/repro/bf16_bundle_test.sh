#!/usr/bin/env bash
# bf16 in a reproducer bundle: .npy has no bfloat16, so Retort writes bf16 values as 2-byte void
# ('<V2'), which np.load returns as raw bytes. BACKEND (XLA, Inductor), which computes a bf16
# chain in f32 and rounds once, disagrees with the reference at zero tolerance on a graph with a
# bf16 input and constant; the standalone bundle's constant (model_a/*.npy through model_a.py's
# const()), input and expected output come back as ml_dtypes' bfloat16 with their values, and
# repro.py passes them to the framework, compares the outputs as floats and reproduces the finding
# (exit 1). Runs in the family's environment's Python (which has what the bundle's
# requirements.txt pins); exit 77 (skipped) without it.
#   bf16_bundle_test.sh RETORT BACKEND FAMILY
set -euo pipefail
retort=$(realpath "$1")
backend=$2
family=$3
# The environment of the family's default release (its lock), as run_family_test.py finds it:
# other installed releases may lack what the bundle's requirements pin.
python=$(python3 -c "import sys, os; sys.path.insert(0, sys.argv[1]); import run_family_test as r
print(os.path.join(r.envs_dir(), f'{sys.argv[2]}@{r.default_version(sys.argv[2])}', 'bin', 'python'))" \
  "$(dirname "${BASH_SOURCE[0]}")/../backends" "$family")
[ -x "$python" ] || {
  echo "skipped: $family's default release is not installed (retort backend install $family)"
  exit 77
}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
fail() { echo "FAIL: $*"; exit 1; }

cat >g.rtg <<'RTG'
input x : bf16[8, 8]
const c : bf16[8] = [1.5, -2, 0.25, 3, 0.5, 1, 2, -0.75]
e = exp(x)
t = tanh(e)
m = mul(t, c)
s = sigmoid(m)
output s
RTG
compare="compare --backends ref,$backend --atol 0 --rtol 0 --count-precision"
out=$("$retort" -c "load g.rtg; $compare; export repro b" 2>&1) || fail "compare or export: $out"
grep -q "wrote .* files to b for: \[reference\] $backend" <<<"$out" || fail "no finding: $out"

(cd b && "$python" - <<'PY') || fail "the bundle's bf16 values"
import glob, os
import numpy as np
import model_a
import repro

consts = sorted(glob.glob("model_a/*.npy"))
assert len(consts) == 1, consts
c = model_a.const(os.path.basename(consts[0])[:-4])
assert c.dtype.name == "bfloat16", c.dtype
assert c.astype(np.float32).tolist() == [1.5, -2, 0.25, 3, 0.5, 1, 2, -0.75], c
x, y = repro.load("inputs/input_0.npy"), repro.load("expected/output_0.npy")
assert (x.dtype.name, y.dtype.name, x.shape, y.shape) == ("bfloat16",) * 2 + ((8, 8),) * 2
assert 0 < y.astype(np.float32).min() and y.astype(np.float32).max() < 1, y
PY
status=0
(cd b && "$python" repro.py >run.log 2>&1) || status=$?
[ "$status" = 1 ] || fail "repro.py exited $status, not 1: $(cat b/run.log)"
grep -q "reproduced: $backend on original disagrees with the reference" b/run.log ||
  fail "repro.py did not say what it reproduced: $(cat b/run.log)"
grep -Eq "\(expected 0\.[0-9]+\)" b/run.log || fail "the differences are not numbers: $(cat b/run.log)"
echo "bf16 bundle on $backend: ok"
