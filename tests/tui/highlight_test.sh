#!/usr/bin/env bash
# After `apply`, the graph pane shows the rewrite with the new nodes in double borders (bold
# yellow where colours are on).
source "$(dirname "$0")/lib.sh"
start_retort 80 24 samples/polyjuice/fig6.rtg
run_cmd 'egraph'
expect_screen 'e-classes'
run_cmd 'apply add-assoc'
wait_text 'F1 graph: rewrite #0'
expect_screen '╔'
expect_screen '╚'
tm capture-pane -e -p -t t | grep -q $'\e\\[1m\e\\[33m╔\|\e\\[33m\e\\[1m╔\|\e\\[1;33m╔\|33m╔' ||
  fail "the highlighted box is not drawn in colour"
# The variant extracted next is shown, its new nodes highlighted as well.
run_cmd 'saturate --iters 4'
run_cmd 'extract min'
wait_text 'F1 graph: variant min'
expect_screen '╔'
expect_screen 'min +[0-9]+ +[0-9]+ +-[0-9]'
