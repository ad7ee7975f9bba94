#!/usr/bin/env bash
# After `apply`, the graph pane shows the rewrite with the new nodes in double borders (bold
# yellow where colours are on).
source "$(dirname "$0")/lib.sh"
start_retort 80 24 samples/polyjuice/fig6.rtg
run_cmd 'egraph'
expect_screen 'e-classes'
run_cmd 'apply add-assoc'
wait_text 'F1 graph: rewrite #1'
# 80x24 is small: one-line boxes, the new ones between stars.
expect_screen '\*[a-z0-9]+ add\([^)]*\)\*'
# On a big screen, boxes have borders and the new ones a double border, in colour.
tm resize-window -t t -x 200 -y 60
wait_text '╔'
expect_screen '╚'
tm capture-pane -e -p -t t | grep -q '33m╔' || fail "the highlighted box is not drawn in colour"
# The variant extracted next is shown, its new nodes highlighted as well.
run_cmd 'saturate --iters 4'
run_cmd 'extract min'
wait_text 'F1 graph: variant min'
expect_screen '╔'
expect_screen 'min +[0-9]+ +[0-9]+ +-[0-9]'
