#!/usr/bin/env bash
# At 80x24 (issue 42): the graph pane shows the outputs of a graph taller than it, the `?`
# overlay fits the screen (its right border on every row, long key lines wrapped, not cut), the
# status line keeps the time of a command too long to show whole, and the results pane shows a
# compare of three backends whole (its header and every row), the variants pane a variant's row.
source "$(dirname "$0")/lib.sh"
start_retort 80 24 samples/polyjuice/fig3.rtg
wait_text 'output y'
keys F1
wait_text 'focus: graph'
keys '?'
wait_text 'any key closes this help'
expect_screen 'compact, tiny'
# Every row of the overlay ends in its border at column 80.
rows=$(screen | grep -c '^│.*│$')
[ "$rows" -ge 18 ] || fail "the overlay's rows do not end in its border ($rows rows do)"
keys Escape
wait_gone 'any key closes this help'
type_line 'eval a_variant_whose_name_is_much_too_long_for_the_status_line'
wait_for 'failed: `eval a_variant.*…` in [0-9.]+s'
run_cmd 'egraph'
run_cmd 'extract min'
run_cmd 'compare --backends ref,ort:O0,ort:O3' 60
expect_screen '││backend +original +min'
expect_screen '││ref +pass +pass'
expect_screen '││ort:O0 +pass +pass'
expect_screen '││ort:O3 +pass +pass'
expect_screen '││min +[0-9]+ +[0-9]+'
