#!/usr/bin/env bash
# Memory soak of a reference-only campaign (docs/benchmarks.md, "Memory over a long campaign"):
# runs `fuzz --backends ref` for SECONDS and prints, every STEP seconds, the cases done and the
# campaign's resident memory, then the growth per 1000 cases after the first sample.
#   soak_memory.sh RETORT SECONDS [STEP]
set -eu
retort=$(realpath "$1")
seconds=$2
step=${3:-10}
source "$(dirname "${BASH_SOURCE[0]}")/../cli/campaign_scratch.sh"
db="$scratch/soak.db"
cases() { db_value "$db" "select count(*) from cases"; }
"$retort" fuzz --backends ref --time "$seconds" --seed 1 --db "$db" --quiet >/dev/null &
pid=$!
printf '%8s %8s %10s\n' seconds cases rss_kib
first_cases= first_rss=
for ((t = step; t < seconds; t += step)); do
  sleep "$step"
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
  n=$(cases)
  printf '%8d %8d %10d\n' "$t" "$n" "$rss"
  if [ -z "$first_cases" ]; then first_cases=$n first_rss=$rss; fi
  last_cases=$n last_rss=$rss
done
wait "$pid"
pid=
if [ -n "$first_cases" ] && [ "$last_cases" -gt "$first_cases" ]; then
  awk -v a="$first_cases" -v b="$last_cases" -v r="$first_rss" -v s="$last_rss" 'BEGIN {
    printf "growth after the first sample: %d KiB over %d cases (%.2f KiB per 1000 cases)\n",
      s - r, b - a, (s - r) * 1000 / (b - a) }'
fi
