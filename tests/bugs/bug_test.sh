#!/usr/bin/env bash
# One real compiler bug, per release: each "# shows: BACKEND VERDICT" line of the sample names a
# backend (family@release:mode) and the verdict `compare` gives its run of the graph against the
# reference there (the bug is live on that release); each "# fixed: BACKEND" line names a release
# where the bug is gone, whose run must pass. The lines of the installed releases are checked in
# one compare; the others are named with how to install them. Exit 77 (skipped) when none is.
#   bug_test.sh RETORT SAMPLE
set -euo pipefail
retort=$1
sample=$2
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
npm=$repo/scripts/backends/node_modules/onnxruntime-node/package.json
grep -q '^# shows: ' "$sample" || { echo "FAIL: $sample has no '# shows:' line"; exit 1; }

# Installed: a virtual environment of `backend install`, or ONNX Runtime's default npm package.
installed() {
  local family=${1%%@*} release=${1#*@}
  release=${release%%:*}
  [ -f "${XDG_CACHE_HOME:-$HOME/.cache}/retort/envs/$family@$release/.retort-complete" ] ||
    { [ "$family" = ort ] && grep -q "\"version\": \"$release\"" "$npm" 2>/dev/null; }
}

expected=()  # "BACKEND VERDICT" of the installed releases
while read -r kind backend verdict; do
  [ "$kind" = fixed: ] && verdict=pass
  if installed "$backend"; then
    expected+=("$backend $verdict")
  else
    family=${backend%%@*}
    release=${backend#*@}
    echo "not checked: $backend is not installed (retort backend install $family@${release%%:*})"
  fi
done < <(sed -n 's/^# \(shows:\|fixed:\) /\1 /p' "$sample")
[ ${#expected[@]} -gt 0 ] || { echo "skipped: none of the releases it names is installed"; exit 77; }

backends=$(for e in "${expected[@]}"; do echo "${e%% *}"; done | sort -u | tr '\n' ' ')
report=$("$retort" -c "load $sample; compare --backends ref $backends --json" 2>&1) ||
  { echo "FAIL: compare of $sample: $report"; exit 1; }
python3 - "$sample" "$report" "${expected[@]}" <<'PY'
import json, sys
sample, text, expected = sys.argv[1], sys.argv[2], sys.argv[3:]
report = json.loads(text[text.index("{"):])
failed = False
for line in expected:
    backend, verdict = line.split(" ", 1)
    cells = [c for c in report["cells"] if c["backend"] == backend and c["graph"] == "original"]
    if not cells or cells[0]["verdict"] != verdict:
        print(f"FAIL: {sample}: {backend} gives {cells[0] if cells else 'no cell'}, not {verdict}")
        failed = True
    else:
        what = "still gives" if verdict != "pass" else "is fixed:"
        print(f"{sample}: {backend} {what} {verdict} {cells[0].get('message', '')[:200]}")
sys.exit(1 if failed else 0)
PY
