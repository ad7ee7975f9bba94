#!/usr/bin/env bash
# `findings report N` and `export repro --issue`: the issue text, its picture and the bundle.
#  1. a campaign against the fault worker (it adds 1 to every mul) records findings; the report of
#     one has a title, expected against actual, the picture, the Retort command, and Retort's
#     replay as its script (an attached worker has no public API), which reproduces it;
#  2. the reduced ORT MaxPool bug (samples/bugs) gets a standalone script on onnxruntime's API
#     pinned by requirements.txt; with RETORT_REPRO_ORT_PYTHON (a Python made from that
#     requirements.txt) the script shows the bug: exit 1.
#   report_test.sh RETORT FAULT_WORKER
set -eu
retort=$(realpath "$1")
fault=$(realpath "$2")
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
export XDG_DATA_HOME="$scratch/data"
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -qF -- "$2" "$1" || fail "$1 lacks '$2':$(echo; cat "$1")"; }

attach="backend attach fault --cmd '$fault --fault perturb --perturb-op mul'"
"$retort" -c "$attach; fuzz --backends ref,fault --ops add,mul,neg --dtypes f32 --nodes 3..4 \
  --seed 3 --cases 20 --db f.db --quiet" >/dev/null
"$retort" -c "$attach; findings report 1 rep --db f.db" >printed.txt
has rep/issue.md '# `fault`: '
has rep/issue.md "## Expected and actual"
has rep/issue.md "![the model, its failing output marked](graph.svg)"
has rep/issue.md "    retort -c 'findings report 1 --db f.db'"
cmp -s <(sed -n '/^# `fault`/,$p' printed.txt | head -5) <(head -5 rep/issue.md) ||
  fail "findings report did not print the issue"
head -c 200 rep/graph.svg | grep -q "<svg" || head -c 300 rep/graph.svg | grep -q "<?xml" ||
  fail "graph.svg is no SVG"
status=0
(cd rep && /usr/bin/python3 repro.py >run.log 2>&1) || status=$?
[ "$status" = 1 ] || fail "the report's script exited $status, not 1: $(cat rep/run.log)"

sample=$repo/samples/bugs/ort_maxpool_same_dilation.rtg
"$retort" -c "load $sample; compare --backends ref ort:O0; export repro mp --issue" >/dev/null
# The default release, as scripts/backends/package-lock.json pins it.
ort=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["packages"]["node_modules/onnxruntime-node"]["version"])' \
  "$repo/scripts/backends/package-lock.json")
has mp/issue.md "onnxruntime==$ort"
has mp/issue.md "MaxPool (auto_pad=SAME_UPPER, dilations=[2]) gives an output of the wrong shape"
has mp/issue.md "import onnxruntime as ort"
has mp/requirements.txt "onnxruntime==$ort"
if [ -n "${RETORT_REPRO_ORT_PYTHON:-}" ]; then
  status=0
  (cd mp && "$RETORT_REPRO_ORT_PYTHON" repro.py >run.log 2>&1) || status=$?
  [ "$status" = 1 ] || fail "the MaxPool script exited $status, not 1: $(cat mp/run.log)"
  has mp/run.log "reproduced: ort:O0 on original disagrees with the reference"
else
  echo "note: set RETORT_REPRO_ORT_PYTHON to run the standalone ORT script too"
fi
echo "report: ok"
