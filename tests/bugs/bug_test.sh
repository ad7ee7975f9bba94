#!/usr/bin/env bash
# One real compiler bug, still there: the sample's "# shows: BACKEND VERDICT" line names the
# backend (family@release:mode) and the verdict `compare` gives its run of the graph against the
# reference. Exit 77 (skipped), with a message saying how to install it, when that release is
# not installed.
#   bug_test.sh RETORT SAMPLE
set -euo pipefail
retort=$1
sample=$2
line=$(grep -m1 '^# shows: ' "$sample") || { echo "FAIL: $sample has no '# shows:' line"; exit 1; }
read -r backend verdict <<<"${line#\# shows: }"
family=${backend%%@*}
release=${backend#*@}
release=${release%%:*}
# Installed: a virtual environment of `backend install`, or ONNX Runtime's default npm package.
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
env_dir=${XDG_CACHE_HOME:-$HOME/.cache}/retort/envs/$family@$release
npm=$repo/scripts/backends/node_modules/onnxruntime-node/package.json
if [ ! -f "$env_dir/.retort-complete" ] &&
  ! { [ "$family" = ort ] && grep -q "\"version\": \"$release\"" "$npm" 2>/dev/null; }; then
  echo "skipped: $family $release is not installed (retort backend install $family@$release)"
  exit 77
fi
report=$("$retort" -c "load $sample; compare --backends ref $backend --json" 2>&1) ||
  { echo "FAIL: compare of $sample: $report"; exit 1; }
python3 - "$sample" "$backend" "$verdict" "$report" <<'PY'
import json, sys
sample, backend, verdict, text = sys.argv[1:]
report = json.loads(text[text.index("{"):])
cells = [c for c in report["cells"] if c["backend"] == backend and c["graph"] == "original"]
if not cells or cells[0]["verdict"] != verdict:
    sys.exit(f"FAIL: {sample}: {backend} gives {cells[0] if cells else 'no cell'}, not {verdict}")
print(f"{sample}: {backend} still gives {verdict}: {cells[0].get('message', '')[:200]}")
PY
