#!/usr/bin/env bash
# The layer check fails on includes against the order and passes on a tree that follows it.
#   check_layers_test.sh REPO
set -eu
check="$(dirname "${BASH_SOURCE[0]}")/check_layers.py"
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/core/base" "$tree/core/graph"
printf '#include "core/base/error.h"\n' >"$tree/core/graph/graph.h"
python3 "$check" "$tree" >/dev/null
printf '#include "core/graph/graph.h"\n' >"$tree/core/base/error.h"
if out=$(python3 "$check" "$tree"); then echo "an upward include passed" >&2; exit 1; fi
echo "$out" | grep -q "^core/base/error.h:1: core/base includes core/graph/graph.h, a later layer$"
printf '#include "views/canvas.h"\n' >"$tree/core/base/error.h"
if out=$(python3 "$check" "$tree"); then echo "an include of views/ passed" >&2; exit 1; fi
echo "$out" | grep -q "core includes views/canvas.h"
echo "check_layers.py catches planted includes"
