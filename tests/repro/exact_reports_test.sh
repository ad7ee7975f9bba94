#!/usr/bin/env bash
# Reports say exactly what the compiler did:
#  1. an int64 sum off by one past 2^53 (the fault worker adds 1 to what reduce_sum computes:
#     9007199254740993 for 9007199254740992, one double): the bundle's script (Retort's replay)
#     compares integers exactly and exits 1, and issue.md prints the two integers exactly;
#  2. ONNX Runtime killed by SIGFPE (docs/bugs.md row 4: integer Mod of INT_MIN by -1): the
#     replay through its worker says "reproduced (killed by SIGFPE)" and exits 1, and so does the
#     standalone script with RETORT_REPRO_ORT_PYTHON (a Python with onnxruntime and numpy).
#     Skipped without the ORT worker's node modules;
#  3. (below) an expected -inf is not matched by a finite value, with TVM's environment.
# Needs a Python with numpy (default /usr/bin/python3); exit 77 (skipped) without it.
#   exact_reports_test.sh RETORT FAULT_WORKER [PYTHON]
set -euo pipefail
retort=$(realpath "$1")
worker=$(realpath "$2")
python=${3:-/usr/bin/python3}
"$python" -c "import numpy" 2>/dev/null || { echo "skipped: $python has no numpy"; exit 77; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -qF -- "$2" "$1" || fail "$1 lacks '$2':$(echo; cat "$1")"; }
# reproduces WHAT DIR PYTHON SCRIPT: the bundle's script exits 1 ("reproduced"), its output in
# DIR/run.log.
reproduces() {
  local status=0
  (cd "$2" && "$3" "$4" >run.log 2>&1) || status=$?
  [ "$status" = 1 ] || fail "the $1 script exited $status, not 1: $(cat "$2/run.log")"
}

cat >sum.rtg <<'RTG'
graph sum_i64
input x : i64[1]
const zero : i64[1] = [0]
const c : i64[2] = [9007199254740990, 2]
m = mul(x, zero)
s = add(m, c)
y = reduce_sum(s, keepdims=1)
output y
RTG
attach="backend attach bad --cmd '$worker --fault perturb --perturb-op reduce_sum'"
out=$("$retort" -c "load sum.rtg; $attach; compare --backends ref,bad; export repro b --issue" 2>&1) ||
  fail "compare or export: $out"
has b/issue.md '| `y` | i64[1] | i64[1] | 1 of 1 | [0]: 9007199254740993 instead of 9007199254740992 |'
reproduces "i64" b "$python" repro.py
has b/run.log "[0] 9007199254740993 (expected 9007199254740992)"
has b/run.log "reproduced: bad on original disagrees with the reference"

# 3. An infinity is matched only by itself: TVM's ReduceMax over an empty axis (row 31) returns
#    small finite garbage where -inf is expected, which rtol * inf used to let pass.
tvm_python=${RETORT_ENVS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/retort/envs}/tvm@0.27.0.post1/bin/python
if [ -x "$tvm_python" ]; then
  out=$("$retort" -c "load $repo/samples/bugs/tvm_reduce_max_empty.rtg; compare --backends ref,tvm; export repro t" 2>&1) ||
    fail "compare or export of tvm_reduce_max_empty: $out"
  reproduces "empty reduce_max" t "$tvm_python" repro.py
  has t/run.log "(expected -inf)"
else
  echo "skipped the infinity part: no tvm@0.27.0.post1 environment"
fi

if [ ! -d "$repo/scripts/backends/node_modules/onnxruntime-node" ]; then
  echo "skipped the SIGFPE half: no onnxruntime-node in scripts/backends/node_modules"
  exit 77
fi
out=$("$retort" -c "load $repo/samples/bugs/ort_mod_int_min.rtg; compare --backends ref ort:O0; export repro m --full" 2>&1) ||
  fail "compare or export of ort_mod_int_min: $out"
reproduces "SIGFPE" m "$python" replay/replay.py
has m/run.log "  killed by SIGFPE"
has m/run.log "reproduced (killed by SIGFPE): ort:O0 fails on original"
if [ -n "${RETORT_REPRO_ORT_PYTHON:-}" ]; then
  reproduces "standalone SIGFPE" m "$RETORT_REPRO_ORT_PYTHON" repro.py
  has m/run.log "reproduced (killed by SIGFPE): ort:O0 fails on original"
else
  echo "note: set RETORT_REPRO_ORT_PYTHON to run the standalone ORT script too"
fi
echo "exact reports: ok"
