#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, the sanitized build in build-fuzz) and runs
# each one on its committed seed corpus (docs/fuzzing.md). Exits non-zero on a crash or a
# sanitizer report; the crashing input is left in build-fuzz/artifacts.
#   RETORT_FUZZ_SECONDS  seconds per target (default 50: six targets stay near five minutes)
#   RETORT_FUZZ_TARGETS  targets to run (default: all)
#   RETORT_JOBS          build jobs (default: nproc)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build=build-fuzz
targets=(${RETORT_FUZZ_TARGETS:-rtg json_graph onnx rules frame session})
bash scripts/sanitized_build.sh "${targets[@]/#/fuzz_}"

mkdir -p "$build/artifacts"
for t in "${targets[@]}"; do
  # Runs grow a scratch copy so the committed seed corpus stays small.
  work="$build/corpus/$t"
  mkdir -p "$work"
  dict=()
  [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
  echo "fuzz: $t for ${RETORT_FUZZ_SECONDS:-50} s"
  "$build/fuzz/fuzz_$t" "$work" "tests/fuzz/corpus/$t" "${dict[@]}" \
    -max_total_time="${RETORT_FUZZ_SECONDS:-50}" -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$t-"
done
