#!/usr/bin/env bash
# Ctrl-C cancels a long saturation without leaving the workbench, and the status line shows the
# run while it lasts.
source "$(dirname "$0")/lib.sh"
# A wide graph whose e-graph keeps growing under the polyjuice rules.
{
  echo "graph wide"
  for i in $(seq 1 8); do echo "input x$i : f32[3,3]"; done
  echo "a1 = add(x1, x2)"
  for i in $(seq 2 7); do
    echo "t$i = transpose(x$((i + 1)), perm=[1,0])"
    echo "a$i = add(a$((i - 1)), t$i)"
  done
  echo "output a7"
} >"$scratch/wide.rtg"
start_retort 80 24 wide.rtg
run_cmd 'egraph'
type_line 'saturate --iters 1000 --nodes 10000000 --time 60'
wait_text 'Ctrl-C cancels' 20
# The status line shows the time and the e-graph's growth while the run lasts.
wait_for '[0-9]+\.[0-9]s  [0-9]+ e-nodes  Ctrl-C cancels  running `saturate'
keys C-c
wait_text 'stopped: cancelled' 30
wait_text 'done: `saturate'
expect_screen '^retort> ?$'
# The workbench goes on.
run_cmd 'variants'
