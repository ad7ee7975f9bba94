#!/usr/bin/env bash
# A standalone reproducer runs in a fresh virtual environment with nothing but its
# requirements.txt: a reference-oracle finding on BACKEND (its last-bit differences from the
# reference at zero tolerance, counted even where the precision band holds them, on a graph
# with a constant) is exported, a new environment is made
# from the bundle's requirements.txt with uv (from its cache), and repro.py there shows the
# finding (exit 1); with a tolerance that covers the differences it says "not reproduced" (0).
# Exit 77 (skipped), saying why, when the backend's release or uv is not installed.
#   standalone_test.sh RETORT BACKEND ENVIRONMENT   (the family whose environment it runs in)
set -euo pipefail
retort=$(realpath "$1")
backend=$2
family=$3
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/retort
uv=$cache/tools/bin/uv
# ONNX Runtime's family runs on npm's onnxruntime-node: its reproducer's wheel comes from PyPI.
if [ "$family" != ort ] && ! compgen -G "$cache/envs/$family@*/.retort-complete" >/dev/null; then
  echo "skipped: no release of $family is installed (retort backend install $family)"
  exit 77
fi
[ -x "$uv" ] || { echo "skipped: uv is not installed ($uv; scripts/setup.sh installs it)"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
fail() { echo "FAIL: $*"; exit 1; }

cat >g.rtg <<'RTG'
input x : f32[64]
const c : f32[64] = random(seed=1, low=0.5, high=1.5)
e = exp(x)
t = tanh(e)
m = mul(t, c)
s = sigmoid(m)
output s
RTG
out=$("$retort" -c "load g.rtg; compare --backends ref,$backend --atol 0 --rtol 0 --count-precision; export repro b" 2>&1) ||
  fail "compare or export: $out"
grep -q "wrote .* files to b for: \[reference\] $backend" <<<"$out" || fail "no finding: $out"
[ ! -e b/retort_backends ] || fail "the standalone bundle holds Retort's worker code"
grep -q "^.*==" b/requirements.txt || fail "requirements.txt pins nothing: $(cat b/requirements.txt)"
if grep -q "model_a.py" b/repro.py; then
  [ -f b/model_a.py ] || fail "repro.py runs model_a.py, which is not in the bundle"
  if grep -Eq "retort_backends|^(import|from) onnx" b/model_a.py; then
    fail "model_a.py needs more than its framework"
  fi
fi

# The environment: only what requirements.txt names, from uv's cache (online if it lacks one).
"$uv" venv -q --python /usr/bin/python3 venv
if ! "$uv" pip install -q --offline --python venv/bin/python -r b/requirements.txt 2>uv.log &&
  ! "$uv" pip install -q --python venv/bin/python -r b/requirements.txt 2>>uv.log; then
  echo "skipped: cannot install $(tr '\n' ' ' <b/requirements.txt): $(tail -3 uv.log)"
  exit 77
fi
status=0
(cd b && ../venv/bin/python repro.py >run.log 2>&1) || status=$?
[ "$status" = 1 ] || fail "repro.py exited $status, not 1: $(cat b/run.log)"
grep -q "reproduced: $backend on original disagrees with the reference" b/run.log ||
  fail "repro.py did not say what it reproduced: $(cat b/run.log)"

# Within 1e-3 the compiler agrees with the reference: the script says so.
sed -i -E 's/"atol": 0(\.0)?,/"atol": 0.001,/' b/repro.py
status=0
(cd b && ../venv/bin/python repro.py >run.log 2>&1) || status=$?
[ "$status" = 0 ] || fail "with atol 1e-3 repro.py exited $status, not 0: $(cat b/run.log)"
grep -q "not reproduced" b/run.log || fail "with atol 1e-3: $(cat b/run.log)"
echo "standalone reproducer on $backend: ok ($(head -1 b/requirements.txt))"
