#!/usr/bin/env bash
# quit and Ctrl-D leave the workbench and give the terminal back (alternate screen left).
source "$(dirname "$0")/lib.sh"
start_retort 80 24
type_line 'quit'
wait_text 'exit=0'
[ "$(tm display-message -p -t t '#{alternate_on}')" = 0 ] || fail "still on the alternate screen"
expect_screen '^test-shell\$ ?$'
type_line 'clear'
type_line "$retort ; echo exit=\$?"
wait_text 'F1 graph'
keys C-d
wait_text 'exit=0'
[ "$(tm display-message -p -t t '#{alternate_on}')" = 0 ] || fail "still on the alternate screen"
