#!/usr/bin/env bash
# Installs what Retort needs on Debian 12 (only the packages that are missing), configures and
# builds it into build/. Two profiles:
#   the workbench (the default; README's first command): the packages the workbench and its
#     default compiler (ONNX Runtime, Node packages) need, ONNX's reference (onnx-ref, the
#     campaigns' second opinion), and the `retort` program only. The other compilers install when
#     asked for (`retort backend install FAMILY`, or RETORT_FAMILIES below).
#   tests (RETORT_SETUP=tests; scripts/test.sh): also the test-only packages (GoogleTest,
#     Google Benchmark, Debian's torch for the torch worker test, ONNX's test data, GNU parallel,
#     a one-node Slurm), every target (tests and benchmarks), and the default release of every
#     backend family from its lock (scripts/backends/locks/FAMILY.txt, exact versions and hashes)
#     into $RETORT_ENVS_DIR, else ${XDG_CACHE_HOME:-~/.cache}/retort/envs.
# Run as root, or as a user with sudo. Safe to run again: what is installed stays.
#   RETORT_SETUP      workbench (default) or tests
#   RETORT_BUILD_DIR  build directory (default: build)
#   RETORT_JOBS       parallel build jobs (default: all cores)
#   RETORT_FAMILIES   the families to install, or `all` (default: onnx-ref for the workbench,
#                     all for tests)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

profile=${RETORT_SETUP:-workbench}
case "$profile" in
  workbench | tests) ;;
  *) echo "setup: RETORT_SETUP is 'workbench' or 'tests', not '$profile'" >&2; exit 2 ;;
esac

packages=(cmake ninja-build g++ pkg-config libfmt-dev nlohmann-json3-dev libreadline-dev
  libncurses-dev libonnx-dev libprotobuf-dev protobuf-compiler libmimalloc-dev libgraphviz-dev
  graphviz tmux python3 python3-venv libsqlite3-dev ccache)
if [ "$profile" = tests ]; then
  packages+=(libgtest-dev libgmock-dev libbenchmark-dev libonnx-testdata clang-format python3-numpy
    python3-onnx python3-torch parallel munge slurmctld slurmd slurm-client)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

# Node.js may come from another repository (NodeSource's nodejs bundles npm, and Debian's npm
# package conflicts with it), so the commands are checked, not the Debian package names.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: run as root (or install sudo) to install packages" >&2; exit 1; }
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  # The daemons the tests start themselves (munge, Slurm) are not started by their packages here
  # (invoke-rc.d says so); their maintainer scripts' notes go to the log, not the screen.
  log=$(mktemp)
  if ! "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
    cat "$log" >&2
    echo "setup: apt-get install failed (above)" >&2
    exit 1
  fi
  rm -f "$log"
fi

# The ONNX Runtime backend's Node packages (scripts/backends/package-lock.json pins them). The
# onnxruntime-node package ships its Linux x64 library; its install script (which would fetch CUDA
# libraries) is skipped, so nothing else is downloaded. Reinstalled only when the lock changed.
backends=scripts/backends
if [ ! -d "$backends/node_modules" ] ||
  ! cmp -s "$backends/package-lock.json" "$backends/node_modules/.retort-lock.json"; then
  echo "setup: installing the Node packages of $backends"
  ONNXRUNTIME_NODE_INSTALL=skip ONNXRUNTIME_NODE_INSTALL_CUDA=skip \
    npm ci --prefix "$backends" --ignore-scripts --no-audit --no-fund
  cp "$backends/package-lock.json" "$backends/node_modules/.retort-lock.json"
fi

build_dir=${RETORT_BUILD_DIR:-build}
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
# The workbench's profile configures without the tests (no GoogleTest needed) unless the build
# directory has them already: the tests' profile may have made it, and a later workbench setup
# keeps what it built.
tests=(-DRETORT_TESTS=ON)
if [ "$profile" = workbench ]; then
  tests=()
  grep -qs '^RETORT_TESTS:BOOL=ON' "$build_dir/CMakeCache.txt" || tests=(-DRETORT_TESTS=OFF)
fi
cmake -S . -B "$build_dir" -G Ninja "${launcher[@]}" "${tests[@]}" >/dev/null
targets=()
[ "$profile" = tests ] || targets=(--target retort)
cmake --build "$build_dir" -j "${RETORT_JOBS:-$(nproc)}" "${targets[@]}"

# The backend families' default releases. Retort installs them itself (core/backend/family_env.h):
# uv comes from scripts/backends/locks/tools.txt into a tools environment, then each family's
# environment from its lock with `uv pip install --require-hashes`; uv's cache is shared, so a
# wheel is downloaded once. A family that is installed already is left as it is.
all_families=$(for lock in scripts/backends/locks/*.txt; do
  name=$(basename "$lock" .txt)
  [ "$name" = tools ] || echo "$name"
done)
default_families=onnx-ref
[ "$profile" = tests ] && default_families=$all_families
families=${RETORT_FAMILIES-$default_families}
[ "$families" = all ] && families=$all_families
for family in $families; do
  "$build_dir/bin/retort" backend install "$family"
done
