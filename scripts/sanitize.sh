#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer and UndefinedBehaviorSanitizer (LeakSanitizer too):
# builds the sanitized build (scripts/sanitized_build.sh, build-fuzz) and runs ctest in it. A
# sanitizer report ends the process that made it with an error, so the test that ran it fails.
# The tests of the Python workers and of compiler releases run too: they drive the sanitized
# retort binary through thousands of exports (the releases come from uv's and npm's caches).
# Expects scripts/setup.sh to have run (the packages, the backend environments).
#   RETORT_JOBS  build and test jobs (default: nproc)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/sanitized_build.sh
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
ctest --test-dir build-fuzz --output-on-failure -j "${RETORT_JOBS:-$(nproc)}" "$@"
