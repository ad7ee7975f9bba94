#!/usr/bin/env bash
# At 80x24 the workbench is usable: a long error wraps in the log and shows whole (the option
# meant, and the usage to its end), the panes' hints fit, and the log's `?` overlay says how to
# scroll sideways instead (`w`).
source "$(dirname "$0")/lib.sh"
start_retort 80 24 samples/polyjuice/fig6.rtg
run_cmd 'compare --backend ref'
wait_text 'did you mean --backends?'
expect_screen '\[--all\] \[--json\]'
expect_screen 'no e-graph yet: run `egraph`'
expect_screen 'no comparisons yet — run compare'
# Boxes name their operands in order and edges into an op end in the operand's number.
expect_screen 'add\(I1, t2\)'
keys F5
wait_text 'focus: log'
keys '?'
wait_text 'long lines: scroll sideways instead of wrapping'
keys Escape
keys w
keys '?'
wait_text 'long lines: wrap instead (Left/Right scroll)'
