#!/usr/bin/env bash
# A long command outside the workbench shows where it is: on a terminal one line redrawn in place
# (counts, rate, elapsed time, ETA) that is gone when the command ends; --quiet shows none.
source "$(dirname "$0")/lib.sh"
start 100 24
type_line "$retort -c 'fuzz --backends ref --cases 100000 --nodes 3..4 --db p.db'; echo exit=\$?"
wait_for 'fuzz: [0-9]+/100000 cases, 0 distinct findings, seen 0 times +[0-9.]+/s +[0-9]+ s +ETA ' 60
keys C-c
wait_text 'exit=0' 30
expect_screen '^per case: gen '
screen | grep -Eq 'fuzz: [0-9]+/100000' && fail "the progress line stayed after the command"
type_line "clear; $retort --quiet -c 'fuzz --backends ref --time 3 --nodes 3..4 --db q.db'; echo exit=\$?"
for _ in $(seq 1 30); do
  screen | grep -Eq 'fuzz: [0-9]+ cases' && fail "--quiet showed progress"
  screen | grep -Fq 'exit=0' && break
  sleep 0.2
done
wait_text 'exit=0' 30
