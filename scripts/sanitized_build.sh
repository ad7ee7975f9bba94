#!/usr/bin/env bash
# Builds the sanitized build: clang with AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's
# coverage (-DRETORT_FUZZ=ON) in build-fuzz. The fuzz targets (scripts/fuzz.sh) and the sanitized
# test suite (scripts/sanitize.sh) share it, so CI compiles the sources once more, not twice.
#   sanitized_build.sh [TARGET...]   build these targets (default: everything)
#   RETORT_JOBS                      build jobs (default: nproc)
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

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DRETORT_FUZZ=ON "${launcher[@]}" >/dev/null
targets=()
[ $# -gt 0 ] && targets=(--target "$@")
cmake --build build-fuzz -j "${RETORT_JOBS:-$(nproc)}" "${targets[@]}"
