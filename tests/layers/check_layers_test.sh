#!/usr/bin/env bash
# The layer check fails on includes against the order (inside core/, between core/, views/ and
# app/, and of libraries outside their homes) and passes on a tree that follows it.
#   check_layers_test.sh
set -eu
check="$(dirname "${BASH_SOURCE[0]}")/check_layers.py"
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/core/base" "$tree/core/graph" "$tree/core/io" "$tree/views" "$tree/app"
printf '#include "core/base/error.h"\n' >"$tree/core/graph/graph.h"
printf '#include "core/graph/graph.h"\n#include <curses.h>\n#include <graphviz/gvc.h>\n' >"$tree/views/canvas.h"
printf '#include "views/canvas.h"\n#include <readline/readline.h>\n' >"$tree/app/console.cpp"
printf '#include <onnx/onnx_pb.h>\n' >"$tree/core/io/onnx_import.cpp"
touch "$tree/core/base/error.h" "$tree/core/io/json_graph.cpp"
python3 "$check" "$tree" >/dev/null

# planted LINE FILE EXPECTED: the check must fail on LINE appended to FILE and say EXPECTED.
planted() {
  local file="$tree/$2" saved
  saved=$(cat "$file")
  printf '%s\n' "$1" >>"$file"
  if out=$(python3 "$check" "$tree"); then echo "'$1' in $2 passed" >&2; exit 1; fi
  echo "$out" | grep -qF "$3" || { echo "'$1' in $2: expected '$3', got: $out" >&2; exit 1; }
  printf '%s\n' "$saved" >"$file"
}
planted '#include "core/graph/graph.h"' core/base/error.h \
  "core/base/error.h:1: core/base includes core/graph/graph.h, a later layer"
planted '#include "views/canvas.h"' core/base/error.h "core/ includes views/canvas.h, a later layer"
planted '#include "app/console.h"' views/canvas.h "views/canvas.h:4: views/ includes app/console.h, a later layer"
planted '#include <readline/readline.h>' views/canvas.h "views/ includes <readline/readline.h> (readline"
planted '#include <curses.h>' core/graph/graph.h "core/ includes <curses.h> (curses"
planted '#include <sqlite3.h>' core/graph/graph.h "(SQLite has no place there)"
planted '#include <onnx/onnx_pb.h>' core/io/json_graph.cpp "(libonnx has no place there)"
echo "check_layers.py catches planted includes"
