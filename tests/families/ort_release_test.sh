#!/usr/bin/env bash
# `backend install|versions|remove` on ONNX Runtime 1.16.3 (an npm prefix), and the float16
# samples on it: that release's binding takes no float16 tensors, which the worker works around.
#   ort_release_test.sh RETORT CACHE_DIR
set -euo pipefail
retort=$1
export XDG_CACHE_HOME=$2/ort
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
rm -rf "$XDG_CACHE_HOME"
mkdir -p "$XDG_CACHE_HOME"
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$("$retort" backend install ort@1.16.3 2>&1) || fail "install: $out"
echo "$out"
[ -f "$XDG_CACHE_HOME/retort/envs/ort@1.16.3/.retort-complete" ] || fail "no marker after install"
out=$("$retort" backend install ort@1.16.3 2>&1)
grep -q "installed already" <<<"$out" || fail "a second install did not notice: $out"

# Every float16 sample of the repository and the test's own graph, on the release, with and
# without optimizations: every cell must pass (none unsupported, none an error). Not the samples
# of real bugs (samples/bugs, which fail on purpose; their tests are bugs.*).
samples=("$here/f16_samples.rtg")
while IFS= read -r f; do samples+=("$f"); done < <(grep -l 'f16' "$repo"/samples/*/*.rtg 2>/dev/null |
  grep -v '/samples/bugs/' || true)
for sample in "${samples[@]}"; do
  "$retort" -c "load $sample; compare --backends ref ort@1.16.3:O0 ort@1.16.3:O3 --json" \
    >"$XDG_CACHE_HOME/report.txt" 2>&1 || fail "compare of $sample: $(cat "$XDG_CACHE_HOME/report.txt")"
  python3 - "$sample" "$XDG_CACHE_HOME/report.txt" <<'PY' || exit 1
import json, sys
text = open(sys.argv[2]).read()
report = json.loads(text[text.index("{"):])
cells = [c for c in report["cells"] if c["backend"].startswith("ort@1.16.3")]
assert len(cells) == 2 * len(report["graphs"]), cells
bad = [c for c in cells if c["verdict"] != "pass"]
if bad:
    sys.exit(f"FAIL: {sys.argv[1]}: {bad}")
assert all("compile_ms" in c and "run_ms" in c for c in cells), cells
print(f"{sys.argv[1]}: {len(cells)} cells pass on ort@1.16.3")
PY
done

out=$("$retort" backend versions ort 2>&1) || fail "versions: $out"
grep -q "^installed: 1.16.3" <<<"$out" || fail "versions does not list 1.16.3 as installed: $out"
grep -Eq "^  1\.16\.3 +[0-9-]+ +installed" <<<"$out" || fail "versions: no published 1.16.3: $out"

out=$("$retort" backend install ort@9.9.9 2>&1) && fail "9.9.9 installed"
grep -q "error: onnxruntime-node 9.9.9 is not published on npm" <<<"$out" || fail "reason: $out"
[ ! -e "$XDG_CACHE_HOME/retort/envs/ort@9.9.9" ] || fail "a failed install left its folder"

"$retort" backend remove ort@1.16.3
[ ! -e "$XDG_CACHE_HOME/retort/envs/ort@1.16.3" ] || fail "remove left the release"
out=$("$retort" backend remove ort@1.16.3 2>&1) && fail "removed twice"
grep -q "is not installed" <<<"$out" || fail "second remove: $out"
echo "ok"
