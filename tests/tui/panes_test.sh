#!/usr/bin/env bash
# The five panes, the graph drawn from the layout, focus, help and zoom, at 80x24 and at 200x60.
source "$(dirname "$0")/lib.sh"
check_at() {
  start_retort "$1" "$2" samples/polyjuice/fig6.rtg
  for title in 'F1 graph: current graph' 'F2 e-graph' 'F3 variants' 'F4 results' 'F5 log'; do
    expect_screen "$title"
  done
  expect_screen '^retort> ?$'
  # The graph: node names, ops and types in boxes, edges with arrowheads.
  for text in 'I1' 't2' 't3' 'transpose' '▼'; do expect_screen "$text"; done
  expect_screen 'no comparisons yet'
  expect_screen 'run `egraph`'
  expect_screen 'loaded'
  # Focus, help and zoom.
  keys F2
  wait_text 'focus: e-graph'
  keys '?'
  wait_text 'any key closes this help'
  keys Escape
  wait_gone 'any key closes'
  keys z
  wait_gone 'F1 graph'
  expect_screen 'F2 e-graph'
  keys z
  wait_text 'F1 graph'
  keys F1
  wait_text 'focus: graph'
  keys n
  wait_text 'run `eval` to see values'
  expect_screen 'f32\[[34],[34]\]'
  keys Escape
  wait_text 'focus: command line'
  # F11 zooms from the command line too (the last focused pane).
  keys F11
  wait_gone 'F2 e-graph'
  keys F11
  wait_text 'F2 e-graph'
  run_cmd 'eval'
  keys F1 n
  wait_text '= f32['
}

check_at 80 24
tm kill-server
check_at 200 60
