// How much of each iteration's e-matching an incremental search could take from the iteration
// before (docs/benchmarks.md, "Ninth round"): runs the saturation workload of
// retort_saturate_profile one iteration at a time and, before each search, counts the classes
// whose members changed since the last search (new classes, new or merged members, a child that
// stopped being canonical) and those classes together with their parents. A builtin rule's
// left-hand side reaches one level below its root, so only matches rooted in that second set
// can differ from last time; the others a reusing search would copy instead of finding.
//   retort_search_reuse NODES [NODE_LIMIT]   (without NODE_LIMIT: POLYJUICE's limits)
#include <cstdio>
#include <utility>
#include <vector>

#include "tests/bench/saturate_workload.h"
#include "tests/support/random_graph.h"

namespace {

using namespace retort;

// A class's members as a search sees them: op, attributes, outputs and canonical children.
using Members = std::vector<std::vector<uint32_t>>;

std::vector<Members> members_by_class(const EGraph& eg) {
  std::vector<Members> out(eg.term_count());
  for (EClassId c : eg.class_ids())
    for (const ENode& n : eg.eclass(c).nodes) {
      std::vector<uint32_t> key{n.op.value, n.attrs.value, n.out, n.n_out};
      for (EClassId k : n.children) key.push_back(eg.find(k).value);
      out[c.value].push_back(std::move(key));
    }
  return out;
}

struct Counts {
  size_t classes = 0, changed = 0, affected = 0, matches = 0, affected_matches = 0;
  size_t applied = 0, unchanged = 0;  // the runner's applications that iteration

  Counts& operator+=(const Counts& o) {
    classes += o.classes;
    changed += o.changed;
    affected += o.affected;
    matches += o.matches;
    affected_matches += o.affected_matches;
    applied += o.applied;
    unchanged += o.unchanged;
    return *this;
  }
};

Counts count_iteration(const EGraph& eg, const RuleSet& rules, const std::vector<Members>& before,
                       const std::vector<Members>& now) {
  Counts n;
  std::vector<bool> changed(now.size()), affected(now.size());
  for (EClassId c : eg.class_ids()) {
    ++n.classes;
    changed[c.value] = c.value >= before.size() || before[c.value] != now[c.value];
    n.changed += changed[c.value];
  }
  for (EClassId c : eg.class_ids()) {
    bool hit = changed[c.value];
    for (const ENode& node : eg.eclass(c).nodes)
      for (EClassId k : node.children) hit = hit || changed[eg.find(k).value];
    affected[c.value] = hit;
    n.affected += hit;
  }
  for (const Rule& rule : rules.rules)
    for (const Match& m : search(eg, rule)) {
      ++n.matches;
      n.affected_matches += affected[m.eclass.value];  // a match's class is canonical
    }
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  size_t nodes = 0, node_limit = 0;
  if (argc < 2 || argc > 3 || !bench::parse_count(argv[1], nodes) || nodes == 0 ||
      (argc == 3 && (!bench::parse_count(argv[2], node_limit) || node_limit == 0))) {
    std::fprintf(stderr, "usage: retort_search_reuse NODES [NODE_LIMIT]\n");
    return 2;
  }
  Graph g = testing::random_op_graph(nodes, 42);
  RuleSet rules = builtin_rules("polyjuice");
  RunnerOptions opts = bench::limits_for(node_limit);
  EGraph eg;
  add_graph(eg, g);
  RewriteTrace trace;
  Runner runner(eg, rules, opts);
  std::vector<Members> before;
  Counts total;
  std::printf(
      "iteration classes changed changed-or-parent matches rooted-there applied "
      "unchanged\n");
  for (size_t it = 0; it < opts.iter_limit && eg.node_count() < opts.node_limit; ++it) {
    eg.rebuild();
    std::vector<Members> now = members_by_class(eg);
    Counts n = count_iteration(eg, rules, before, now);
    for (const RuleReport& r : runner.step(trace).rules) {
      n.applied += r.applied;
      n.unchanged += r.unchanged;
    }
    std::printf("%zu %zu %zu %zu %zu %zu %zu %zu\n", it, n.classes, n.changed, n.affected,
                n.matches, n.affected_matches, n.applied, n.unchanged);
    total += n;
    before = std::move(now);
  }
  if (total.classes == 0) {
    std::printf("no iteration ran: the graph is past the node limit\n");
    return 0;
  }
  std::printf(
      "total %zu %zu %zu %zu %zu %zu %zu: %.0f%% of the classes and %.0f%% of the "
      "matches are rooted where something changed\n",
      total.classes, total.changed, total.affected, total.matches, total.affected_matches,
      total.applied, total.unchanged,
      100.0 * static_cast<double>(total.affected) / static_cast<double>(total.classes),
      100.0 * static_cast<double>(total.affected_matches) / static_cast<double>(total.matches));
  return 0;
}
