#!/usr/bin/env bash
# The campaign pane: hidden until `fuzz` runs, then it shows the campaign (live while it runs,
# its totals after), takes F6 and leaves the other panes their F keys; `log save` writes the
# log pane's command output.
source "$(dirname "$0")/lib.sh"
start_retort 120 40 samples/polyjuice/fig6.rtg
expect_screen 'F1-F5 panes'
screen | grep -Fq 'F6 campaign' && fail "the campaign pane shows before any campaign"
keys F6
sleep 0.3
expect_screen 'focus: command line'
run_cmd 'fuzz --cases 12 --db c.db --backends ref' 60
wait_text 'F6 campaign'
wait_text 'campaign 1 in c.db: ended (12 cases)'
wait_text '12 cases in'
expect_screen 'F1-F6 panes'
keys F6
wait_text 'focus: campaign'
keys Escape
wait_text 'focus: command line'
run_cmd 'log save saved.log'
wait_text 'saved'
grep -Fq 'fuzz: campaign 1 in c.db: 12 cases' "$scratch/saved.log" || fail "saved.log lacks the fuzz summary"
grep -Fq 'retort>' "$scratch/saved.log" && fail "saved.log holds echoed command lines"
run_cmd 'log clear'
wait_gone 'fuzz: campaign 1 in c.db'
type_line 'quit'
wait_text 'exit=0'
