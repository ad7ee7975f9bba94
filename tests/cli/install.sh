#!/usr/bin/env bash
# `cmake --install` gives a working Retort outside the source tree: the installed binary runs a
# bundled sample from its share folder, its worker scripts are installed beside it (the binary
# looks there first: core/backend/backend_set.h scripts_dir), and `man -l` reads the man page.
#   install.sh BUILD_DIR
set -eu
build=$(realpath "$1")
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
cd "$prefix"
export RETORT_STATE_DIR="$prefix/state" RETORT_SCRIPTS_DIR=
"$prefix/bin/retort" --version | grep -qx "retort [0-9.]*"
out=$("$prefix/bin/retort" -c "load $prefix/share/retort/samples/polyjuice/fig3.rtg; eval")
echo "$out" | grep -q "^loaded .*fig3.rtg: 4 nodes"
echo "$out" | grep -q "^y: f32"
test -f "$prefix/share/retort/scripts/backends/ort_worker.js"
test ! -e "$prefix/share/retort/scripts/backends/node_modules"
page=$(MANWIDTH=100 man -l "$prefix/share/man/man1/retort.1" 2>/dev/null)
echo "$page" | grep -q "^RETORT(1)"
echo "$page" | grep -q "render \[WHAT\] \[A\] \[B\]"
echo "install ok"
