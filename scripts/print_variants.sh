#!/usr/bin/env bash
# Prints what extraction gives on generated graphs: the min, max and two random variants, the
# `variants` table and the max variant's explanation, for graphs of 5, 12 and 30 nodes per seed
# (saturate --iters 3 with the default rules). Engine speed work must leave this output byte for
# byte the same: run it with the binary before and after a change and diff the two
# (docs/benchmarks.md, "Against egg").
#   bash scripts/print_variants.sh RETORT SEED...    e.g. bash scripts/print_variants.sh build/bin/retort $(seq 1 40)
set -euo pipefail
retort="$1"
shift
for seed in "$@"; do
  for nodes in 5 12 30; do
    "$retort" -c "gen --nodes $nodes --seed $seed; egraph; saturate --iters 3; extract min as a; extract max as b; extract random as c --seed 3; extract random as d --seed 9; show a; show b; show c; show d; variants; explain b" 2>&1
  done
done
