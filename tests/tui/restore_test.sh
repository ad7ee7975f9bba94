#!/usr/bin/env bash
# A workbench killed mid-session (SIGKILL, as when its terminal dies) is offered back at the next
# start, and answering y restores it to its last command: the e-graph and the extracted variant.
# The question works on the raw terminal the killed curses left (no echo, Enter sends \r), and
# the restored workbench's log shows the commands it ran again.
source "$(dirname "$0")/lib.sh"
start_retort 120 40 samples/polyjuice/fig6.rtg
run_cmd 'egraph'
run_cmd 'saturate'
run_cmd 'extract min'
shell_pid=$(tm display-message -p -t t '#{pane_pid}')
pkill -KILL -P "$shell_pid" -x retort || fail "no retort process to kill"
wait_text 'exit=137'
type_line "clear; stty raw -echo; $retort ; stty sane; echo exit=\$?"
wait_text 'restore the previous session (4 commands)? [y/N]'
type_line 'y'
wait_text 'F1 graph'
wait_text 'restored 4 commands'
keys F3
wait_text 'focus: variants'
wait_for '^.*min +3 +3 '
expect_screen 'e-classes'
