#!/usr/bin/env bash
# A graph or session file of 64 MB of `[` is a clear error naming the file, line and column,
# within a memory budget: parsing once built one value per bracket (16 MB took 974 MB, and 64 MB
# under a 3 GB address limit aborted with no message).
#   deep_json.sh RETORT
set -eu
retort=$(realpath "$1")
source "$(dirname "${BASH_SOURCE[0]}")/campaign_scratch.sh"
cd "$scratch"
printf '{"format": "retort-graph", "nodes":\n' >deep.json
head -c $((64 << 20)) /dev/zero | tr '\0' '[' >>deep.json
# The file itself is read whole (64 MB): 1 GB of address space leaves room for that and the
# binary, and none for a JSON tree of it.
# AddressSanitizer reserves terabytes of address space for its shadow, so a sanitized build
# (scripts/sanitize.sh) runs without the limit: there the error is checked, and ASan's own
# allocator reports a runaway allocation.
budget=$((1 << 20))
grep -q AddressSanitizer "$retort" && budget=unlimited
for command in "load deep.json" "open deep.json"; do
  status=0
  (ulimit -v $budget && exec "$retort" -c "$command") >out.txt 2>&1 || status=$?
  if [ "$status" != 1 ] || ! grep -q "deep.json:2:64: invalid JSON: nested deeper than 64 levels" out.txt; then
    echo "\`$command\` of 64 MB of [ under ulimit -v $budget: exit $status, not a clear error:"
    head -c 2000 out.txt
    exit 1
  fi
done
echo "deep json: ok"
