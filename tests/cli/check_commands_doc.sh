#!/usr/bin/env bash
# docs/commands.md must be exactly what `retort help --markdown` prints, so that the reference
# and the command registry never drift apart. Regenerate with:
#   ./build/bin/retort help --markdown > docs/commands.md
set -u
retort=$1
doc=$2
diff -u --label "$doc" --label "retort help --markdown" "$doc" <("$retort" help --markdown) ||
  { echo "docs/commands.md is out of date; regenerate it with: retort help --markdown > docs/commands.md" >&2; exit 1; }
