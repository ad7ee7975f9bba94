#!/usr/bin/env bash
# The program pane (TorchProbe): hidden until a `program` command, then the mutations and the
# program torch:eager writes, mutated; `undo` takes a mutation back in the pane too.
# The torch family's environment is where scripts/setup.sh put it (lib.sh moves HOME).
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$HOME/.cache}"
source "$(dirname "$0")/lib.sh"
start_retort 120 50 samples/polyjuice/fig6.rtg
expect_screen 'F1-F5 panes'
screen | grep -Fq 'program' && fail "the program pane shows before any program command"
run_cmd 'program mutate tcb --seed 4' 240
wait_text 'program mutation(s), as torch:eager writes it'
wait_text '1. tcb (seed 4)'
# The program's forms trailer ends the printed text: the mutation's branch is a page up the log.
keys PPage
wait_text 'if '
run_cmd 'undo'
wait_text '0 program mutation(s)'
wait_gone '1. tcb (seed 4)'
type_line 'quit'
wait_text 'exit=0'
