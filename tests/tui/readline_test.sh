#!/usr/bin/env bash
# The command line is GNU readline: tab completion from the command registry, the history
# (also across sessions, in $RETORT_HISTORY) and Ctrl-C clearing the line.
source "$(dirname "$0")/lib.sh"
start_retort 80 24 samples/polyjuice/fig6.rtg
keys s a t Tab
wait_for '^retort> saturate ?$'
keys C-u e x Tab Tab
wait_text 'completions: explain  export  extract'
keys C-c
wait_for '^retort> ?$'
run_cmd 'seed 5'
keys Up
wait_for '^retort> seed 5$'
keys C-u
type_line 'quit'
wait_text 'exit=0'
grep -qx 'seed 5' "$RETORT_HISTORY" || fail "the history file does not hold the command"
# A new session starts with that history.
type_line "$retort ; echo exit=\$?"
wait_text 'F1 graph'
keys Up
wait_for '^retort> quit$'
