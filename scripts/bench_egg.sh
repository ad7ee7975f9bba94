#!/usr/bin/env bash
# Equality saturation side by side with egg 0.10 (docs/benchmarks.md): builds the egg side
# (../shared/bench/egg, copied to a scratch folder, where cargo writes target/) and Retort's
# retort_bench, then runs both alternately, ROUNDS times, on the same rules, graphs and limits,
# and prints per workload the medians of CPU time per build + saturate + extract min and max, the
# ratio egg / Retort (above 1: Retort is faster) and whether e-nodes, rewrites and extracted op
# counts agree. The 100k workloads run once per round.
# The copy is patched (scripts/bench_egg.patch) where the port of ../shared/bench/egg did not do
# what Retort does, so that both sides do the same work (docs/benchmarks.md, "Against egg"):
# - the graph-out-reorder rule, which joined Retort's POLYJUICE set after the port was written;
# - matches in class id order, as Retort's search lists them (egg's follow its hash tables), so
#   that the capped rules sample the same classes and the node limit stops at the same match;
# - min extraction as Retort defines it: 1 per op, 0 for inputs and graph_out (AstSize counts
#   every node), and the graph's own structure where that restores to fewer ops;
# - class members visited in Retort's e-node order by both extractions, and the two outputs of
#   one split counted as one op, as in the restored graph.
#   bash scripts/bench_egg.sh [ROUNDS] [FILTER]     e.g. bash scripts/bench_egg.sh 5 PolyjuiceLimits
#   EGG_DIR     the egg benchmark's sources (default ../shared/bench/egg)
#   SCRATCH     where it is built (default /tmp/retort-eggbench)
#   BUILD       Retort's build folder (default build)
#   RETORT_BENCH  a retort_bench to run instead of building BUILD's
#   EXPLAIN=1   egg keeps explanations too (Retort always keeps its proof forest)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rounds="${1:-3}"
filter="${2:-}"
egg_src="${EGG_DIR:-../shared/bench/egg}"
scratch="${SCRATCH:-/tmp/retort-eggbench}"
build="${BUILD:-build}"

mkdir -p "$scratch"
cp -r "$egg_src"/Cargo.toml "$egg_src"/src "$scratch"/
patch -s -d "$scratch" -p1 <scripts/bench_egg.patch
(cd "$scratch" && cargo build --release --quiet)
egg="$scratch/target/release/eggbench"
explain=()
[[ "${EXPLAIN:-}" == 1 ]] && explain=(--explain)
retort="${RETORT_BENCH:-$build/bin/retort_bench}"
[[ -n "${RETORT_BENCH:-}" ]] || cmake --build "$build" --target retort_bench >/dev/null

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# The workloads both sides run: Retort's benchmark names, egg's labels are the same.
regex="^Rules(SaturatePolyjuiceLimits|Saturate10k|Saturate100k)/"
for ((r = 1; r <= rounds; r++)); do
  echo "round $r of $rounds" >&2
  nice "$egg" sat "${explain[@]}" --filter "$filter" >"$out/egg.$r"
  nice "$retort" --benchmark_filter="$regex" --benchmark_format=json \
    --benchmark_min_time=0.5 2>/dev/null >"$out/retort.$r"
done

python3 - "$out" "$rounds" "$filter" <<'PY'
import json, statistics, sys
out, rounds, filt = sys.argv[1], int(sys.argv[2]), sys.argv[3]
egg, ret = {}, {}
for r in range(1, rounds + 1):
    for line in open(f"{out}/egg.{r}").read().splitlines()[1:]:
        f = line.split()
        egg.setdefault(f[0], []).append(
            (float(f[2]), [int(f[4]), int(f[6]), int(f[7]), int(f[8])]))
    for b in json.load(open(f"{out}/retort.{r}"))["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration" or filt not in b["name"]:
            continue
        scale = {"ms": 1.0, "us": 1e-3, "ns": 1e-6}[b["time_unit"]]
        counts = [int(b[k]) for k in ("enodes", "rewrites", "min_ops", "max_ops")]
        name = b["name"].split("/iterations:")[0]
        ret.setdefault(name, []).append((b["cpu_time"] * scale, counts))
print(f"{'workload':<36} {'Retort ms':>10} {'egg ms':>10} {'egg/Retort':>10}  same e-nodes, rewrites, min/max ops")
for name, runs in ret.items():
    if name not in egg:
        continue
    rm = statistics.median(t for t, _ in runs)
    em = statistics.median(t for t, _ in egg[name])
    rc, ec = runs[-1][1], egg[name][-1][1]
    same = "yes" if rc == ec else f"no: Retort {rc}, egg {ec}"
    print(f"{name:<36} {rm:>10.4f} {em:>10.4f} {em / rm:>9.2f}x  {same}")
PY
