#!/usr/bin/env bash
# Opens findings again with a Retort binary and says whether each still fails: `findings open N`
# re-runs the case's compare on its backends with the case's inputs (docs/bugs.md, "The sample
# again"). Open a copy of a campaign's database: opening writes the session's state to it.
#   rejudge.sh RETORT DB N...
set -u
retort=$1
db=$2
shift 2
for id in "$@"; do
  line=$(timeout 300 "$retort" -c "findings open $id --db $db" 2>&1 | grep -o "compare again: .*" |
    head -1)
  echo "$id|${line:-could not open it}"
done
