#!/usr/bin/env bash
# The layout follows the terminal's size, both ways.
source "$(dirname "$0")/lib.sh"
start_retort 80 24 samples/polyjuice/fig6.rtg
[ "$(screen | sed -n 23p | grep -c 'focus: command line')" = 1 ] || fail "no status line at row 23"
tm resize-window -t t -x 200 -y 60
deadline=$((SECONDS + 20))
until screen | sed -n 59p | grep -q 'focus: command line'; do
  ((SECONDS < deadline)) || fail "the status line did not move to row 59"
  sleep 0.1
done
line1=$(screen | sed -n 1p)
[ "${#line1}" -gt 150 ] || fail "the title bar does not span the wide screen"
expect_screen 'F3 variants'
expect_screen 'transpose'
tm resize-window -t t -x 80 -y 24
deadline=$((SECONDS + 20))
until screen | sed -n 23p | grep -q 'focus: command line'; do
  ((SECONDS < deadline)) || fail "the status line did not move back to row 23"
  sleep 0.1
done
expect_screen 'F5 log'
