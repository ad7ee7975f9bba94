#!/usr/bin/env bash
# A killed session loses nothing: commands run in `retort --plain`, the session is saved, the
# process is killed with SIGKILL, and `retort --plain --restore` must rebuild the same session
# (the session file it saves equals the one saved before the kill: graph, rules, e-graph trace,
# variants). A clean quit afterwards leaves nothing to restore.
#   restore_after_kill.sh RETORT
set -eu
retort=$(realpath "$1")
repo=$(realpath "$(dirname "${BASH_SOURCE[0]}")/../..")
source "$(dirname "${BASH_SOURCE[0]}")/campaign_scratch.sh"
cd "$scratch"
export RETORT_STATE_DIR="$scratch/state"

mkfifo commands
"$retort" --plain <commands >first.txt 2>&1 &
pid=$!
exec 3>commands
cat >&3 <<EOF
load $repo/samples/polyjuice/fig6.rtg
rules load $repo/samples/rules/fig6.rules
rules disable polyjuice
egraph
step
extract min
saturate
extract max
save before.json
EOF
# The journal line of `save` is written once the file is complete.
for _ in $(seq 1 600); do
  if grep -q '"save before.json"' state/journal.jsonl 2>/dev/null; then break; fi
  sleep 0.1
done
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
pid=
exec 3>&-
if grep -q finished state/journal.jsonl; then
  echo "the journal of a killed session is marked finished" >&2
  exit 1
fi

printf 'save after.json\nvariants\nquit\n' | "$retort" --plain --restore >second.txt 2>&1
if ! grep -q "^restored 8 commands from $RETORT_STATE_DIR/journal.jsonl\$" second.txt; then
  echo "unexpected restore output:" >&2
  cat second.txt >&2
  exit 1
fi
# The summary that follows says what came back.
if ! grep -q "^graph: 4 nodes, 3 inputs, 1 outputs; e-graph: [0-9]* e-classes, [0-9]* e-nodes, [0-9]* rewrites; variants: max, min\$" second.txt; then
  echo "no summary of the restored session:" >&2
  cat second.txt >&2
  exit 1
fi
cmp before.json after.json

printf 'quit\n' | "$retort" --plain --restore >third.txt 2>&1
grep -q "nothing to restore" third.txt
