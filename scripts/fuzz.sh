#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, -DRETORT_FUZZ=ON with clang) into build-fuzz and runs
# each one on its committed seed corpus (docs/fuzzing.md). Exits non-zero on a crash or a
# sanitizer report; the crashing input is left in build-fuzz/artifacts.
#   RETORT_FUZZ_SECONDS  seconds per target (default 50: six targets stay near five minutes)
#   RETORT_FUZZ_TARGETS  targets to run (default: all)
#   RETORT_JOBS          build jobs (default: nproc)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update
  "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi

build=build-fuzz
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DRETORT_FUZZ=ON "${launcher[@]}" >/dev/null
targets=(${RETORT_FUZZ_TARGETS:-rtg json_graph onnx rules frame session})
cmake --build "$build" -j "${RETORT_JOBS:-$(nproc)}" --target "${targets[@]/#/fuzz_}"

mkdir -p "$build/artifacts"
for t in "${targets[@]}"; do
  # Runs grow a scratch copy so the committed seed corpus stays small.
  work="$build/corpus/$t"
  mkdir -p "$work"
  dict=()
  [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
  echo "fuzz: $t for ${RETORT_FUZZ_SECONDS:-50} s"
  "$build/fuzz/fuzz_$t" "$work" "tests/fuzz/corpus/$t" "${dict[@]}" -jobs=1 -workers=1 \
    -max_total_time="${RETORT_FUZZ_SECONDS:-50}" -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$t-"
done
