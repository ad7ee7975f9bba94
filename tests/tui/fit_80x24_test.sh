#!/usr/bin/env bash
# At 80x24 (issue 42): the graph pane shows the outputs of a graph taller than it, the `?`
# overlay fits the screen (its right border on every row, long key lines wrapped, not cut), and
# the status line keeps the time of a command too long to show whole.
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
