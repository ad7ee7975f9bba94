#!/usr/bin/env bash
# The log pane keeps showing new output after a zoom and back, a resize and a sideways scroll.
source "$(dirname "$0")/lib.sh"
start_retort 80 24 samples/polyjuice/fig6.rtg
run_cmd 'help'
keys F5
wait_text 'focus: log'
keys z
wait_gone 'F1 graph'
keys z
wait_text 'F1 graph'
keys Right
keys Left
keys Escape
wait_text 'focus: command line'
run_cmd 'load zzq.rtg'
wait_text "cannot open 'zzq.rtg'"
tm resize-window -t t -x 100 -y 40
wait_for '^retort> ?$'
tm resize-window -t t -x 80 -y 24
run_cmd 'load zzr.rtg'
wait_text "cannot open 'zzr.rtg'"
