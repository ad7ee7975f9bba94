#!/usr/bin/env bash
# Where an Inductor campaign's time goes (docs/benchmarks.md, "Inductor cases per second"): runs
# `fuzz --backends ref,inductor` for CASES cases with SEED in a fresh Inductor cache folder, with
# a g++ on PATH that times each compiler run, and prints the command's wall and CPU time, the
# cases and graphs, the compare time with and without the first case (the worker's warm-up),
# and the kernels g++ compiled with their CPU time.
#   inductor_case_cost.sh RETORT [CASES] [SEED]
set -eu
retort=$(realpath "$1")
cases=${2:-6}
seed=${3:-1}
source "$(dirname "${BASH_SOURCE[0]}")/../cli/campaign_scratch.sh"
gxx=$(command -v g++)
mkdir "$scratch/bin" "$scratch/inductor"
# Inductor finds g++ on PATH; this one runs the real compiler under /usr/bin/time.
cat >"$scratch/bin/g++" <<EOF
#!/usr/bin/env bash
out=
prev=
for a in "\$@"; do [ "\$prev" = -o ] && out=\$a; prev=\$a; done
exec /usr/bin/time -a -o "$scratch/gxx.log" -f "%e %U %S \${out##*/}" "$gxx" "\$@"
EOF
chmod +x "$scratch/bin/g++"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
PATH="$scratch/bin:$PATH" TORCHINDUCTOR_CACHE_DIR="$scratch/inductor" /usr/bin/time \
  -f "wall %e s, CPU %U s user + %S s system (the worker and g++ included)" \
  "$retort" fuzz --backends ref,inductor --cases "$cases" --seed "$seed" \
  --db "$scratch/f.db" --no-opinion --no-reduce --quiet
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cases, graphs, compare s, compare s after the first case:" \
  "$(db_value "$scratch/f.db" "select count(*) || ', ' || sum(graphs) || ', ' ||
       round(sum(compare_ms) / 1000, 1) || ', ' ||
       round(sum(case when idx > 0 then compare_ms else 0 end) / 1000, 1) from cases")"
touch "$scratch/gxx.log"
awk '$4 ~ /\.main\.so$/ { n++; cpu += $2 + $3 }
     END { printf "kernels compiled by g++: %d, %.1f s CPU\n", n, cpu }' "$scratch/gxx.log"
