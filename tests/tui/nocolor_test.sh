#!/usr/bin/env bash
# NO_COLOR turns colours off; highlighted nodes keep their marks.
source "$(dirname "$0")/lib.sh"
start 200 60
type_line "NO_COLOR=1 $retort samples/polyjuice/fig6.rtg ; echo exit=\$?"
wait_text 'F1 graph'
run_cmd 'egraph'
run_cmd 'apply add-assoc'
wait_text '╔'
if tm capture-pane -e -p -t t | grep -q $'\e\\[[0-9;]*3[1-7]m'; then
  fail "colours are on although NO_COLOR is set"
fi
