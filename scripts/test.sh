#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (unit tests, CLI transcripts,
# the docs check). Exits non-zero when anything fails.
#   RETORT_BUILD_DIR, RETORT_JOBS as for scripts/setup.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
RETORT_SETUP=tests bash scripts/setup.sh
ctest --test-dir "${RETORT_BUILD_DIR:-build}" --output-on-failure -j "${RETORT_JOBS:-$(nproc)}"
