#!/usr/bin/env bash
# One script, three front ends (the commands of the registry but `quit` and `conformance`, which
# have tests of their own): `--script`, the plain REPL on standard input and the workbench
# (typed line by line, its log saved with `log save`) print the same command output.
source "$(dirname "$0")/lib.sh"
cat >"$scratch/session.rts" <<'SCRIPT'
help seed
rules
load samples/polyjuice/fig6.rtg
def n = neg(out)
info
show
export copy.rtg --force
egraph
match add-assoc
apply add-assoc
step
saturate --iters 3
extract min
extract random as r1
variants
explain min
eval min
undo
variants
redo
seed 7
eval
SCRIPT
cd "$scratch" || exit 1
"$retort" --script session.rts >script.out 2>&1 </dev/null || fail "--script failed: $(cat script.out)"
"$retort" --plain <session.rts >plain.out 2>&1 || fail "--plain failed: $(cat plain.out)"
diff -u script.out plain.out || fail "--script and --plain differ"

start_retort 100 30
while IFS= read -r line; do run_cmd "$line" 60; done <session.rts
type_line 'log save tui.out'
wait_file tui.out
diff -u script.out tui.out || fail "the workbench's log differs from --script"
