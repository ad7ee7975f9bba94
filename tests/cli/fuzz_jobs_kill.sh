#!/usr/bin/env bash
# Issue 27: kill -9 of a `fuzz --jobs 2` campaign (with no --time, so its jobs would run forever)
# leaves no process behind; `fuzz --resume --jobs 2` then finishes it with no case lost or run
# twice; and a second resume while one runs is told which process runs the campaign.
#   fuzz_jobs_kill.sh RETORT
set -eu
retort=$(realpath "$1")
source "$(dirname "${BASH_SOURCE[0]}")/campaign_scratch.sh"
db="$scratch/jobs.db"
gen="--backends ref --ops add,mul,neg,relu --dtypes f32 --nodes 3..5 --seed 3"
count() { db_value "$db" "$1"; }
wait_for_cases() {
  for _ in $(seq 1 1200); do
    if [ "$(count 'select count(*) from cases')" -ge "$1" ]; then return 0; fi
    sleep 0.05
  done
  echo "the campaign did not reach $1 cases"
  exit 1
}

nice "$retort" fuzz $gen --jobs 2 --db "$db" --quiet >/dev/null 2>&1 &
pid=$!
wait_for_cases 10
[ "$(pgrep -f -c -- "--db $db --job")" -eq 2 ] || { echo "expected 2 jobs running"; exit 1; }
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
pid=
for _ in $(seq 1 100); do
  if ! pgrep -f -- "--db $db" >/dev/null; then break; fi
  sleep 0.05
done
if pgrep -f -a -- "--db $db"; then
  echo "kill -9 of the campaign left the processes above running"
  exit 1
fi

# Case indices are a limit, not a count: one job may have run ahead of the other, so the resume
# runs to 30 past the highest index stored and must then hold every index below that once.
total=$(($(count 'select coalesce(max(idx), -1) from cases') + 31))
nice "$retort" fuzz --resume --jobs 2 --cases "$total" --db "$db" --quiet >/dev/null
got=$(count "select count(*) || ' ' || count(distinct idx) || ' ' || max(idx) from cases")
[ "$got" = "$total $total $((total - 1))" ] || {
  echo "after resume: cases, distinct cases, last index = $got; expected $total of each"
  exit 1
}

# Two resumes at once: the second is refused with the first one's process id.
nice "$retort" fuzz --resume --jobs 2 --time 60 --db "$db" --quiet >/dev/null 2>&1 &
pid=$!
wait_for_cases $((total + 5))
if out=$("$retort" fuzz --resume --cases 1 --db "$db" --quiet 2>&1); then
  echo "a second resume ran: $out"
  exit 1
fi
case $out in
  *"campaign 1 is being resumed by process $pid"*) ;;
  *) echo "the second resume said: $out"; exit 1 ;;
esac
kill -INT "$pid"
wait "$pid" || { echo "the first resume failed after Ctrl-C"; exit 1; }
pid=
echo "fuzz jobs kill: ok"
