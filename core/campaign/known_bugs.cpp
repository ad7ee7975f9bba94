#include "core/campaign/known_bugs.h"

#include <algorithm>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "core/backend/family.h"
#include "core/backend/family_env.h"
#include "core/base/error.h"
#include "core/compare/compare.h"
#include "core/compare/oracles.h"
#include "core/compare/verdict.h"
#include "core/io/rtg.h"
#include "core/ops/registry.h"

namespace retort {

const std::vector<std::pair<std::string_view, std::string_view>>& embedded_bug_graphs();
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_bug_index();

namespace {

std::string_view bug_graph_text(const std::string& stem) {
  for (const auto& [name, text] : embedded_bug_graphs())
    if (name == stem) return text;
  fail("samples/bugs/index.json names the graph '{}', which samples/bugs lacks", stem);
}

// The verdict of a graph's "# shows: BACKEND VERDICT" line (tests/bugs/bug_test.sh reads it too).
std::string shown_verdict(std::string_view text, const std::string& stem) {
  constexpr std::string_view kShows = "# shows: ";
  size_t at = text.find(kShows);
  if (at == std::string_view::npos) fail("samples/bugs/{}.rtg has no '# shows:' line", stem);
  std::string_view line = text.substr(at + kShows.size());
  line = line.substr(0, line.find('\n'));
  size_t space = line.find(' ');
  if (space == std::string_view::npos)
    fail("samples/bugs/{}.rtg: '# shows:' names no verdict", stem);
  return std::string(line.substr(space + 1));
}

std::vector<KnownBug> load_shipped() {
  const auto& index = embedded_bug_index();
  if (index.empty()) fail("the known-bug index samples/bugs/index.json is missing");
  nlohmann::json j = nlohmann::json::parse(index.front().second, nullptr, false);
  if (!j.is_object() || !j.contains("bugs")) fail("samples/bugs/index.json: no \"bugs\" list");
  std::vector<KnownBug> bugs;
  try {
    for (const auto& b : j.at("bugs")) {
      KnownBug k;
      k.label = fmt::format("row {}", b.at("row").get<int>());
      k.family = b.at("family").get<std::string>();
      k.releases = b.at("releases").get<std::vector<std::string>>();
      k.levels = b.at("levels").get<std::vector<std::string>>();
      k.graph_name = b.at("graph").get<std::string>();
      k.graph = std::string(bug_graph_text(k.graph_name));
      k.verdict = shown_verdict(k.graph, k.graph_name);
      k.summary = b.at("summary").get<std::string>();
      k.trigger = NodePattern::from_json(b.at("trigger"), "samples/bugs/index.json " + k.label);
      k.stale = b.value("stale", false);
      bugs.push_back(std::move(k));
    }
  } catch (const nlohmann::json::exception& e) {
    fail("samples/bugs/index.json: {}", e.what());
  }
  return bugs;
}

bool listed(const std::vector<std::string>& list, const std::string& item) {
  return list.empty() || std::find(list.begin(), list.end(), item) != list.end();
}

// The nodes of g whose feeding may explain a failure at `op`: its failing slice (review.h
// failing_slice); the nodes that read the failing op's value, since a compiler may merge such a
// reader into it (ONNX Runtime merges a Cast of f16 to f64 into the Cast its f16 kernel-less op
// ends with, row 27, and the difference is then labelled at the op whose value is fed to the
// reader); and the nodes no value of the failing op reaches: feeding one of them hides nothing
// the failing op computed, so a failure that goes then is theirs (ONNX Runtime's memory plan
// reuses a MaxPool's buffer, of the wrong shape by row 1, for a ReduceMax beside it: seed 7317
// oatest #12). Nodes further downstream are left out: feeding them hides the failing value,
// except past ops that only move or negate it (tag "shape", neg): ONNX Runtime keeps an f16
// op's f32 island through Transposes, a Concat and a Neg into the Cast to f64 that ends it
// (row 27, seed 7519 #20), and those ops compute nothing a feed could hide.
std::vector<const Node*> candidate_nodes(const Graph& g, const std::string& op) {
  std::vector<const Node*> out = failing_slice(g, op);
  const OpRegistry& registry = OpRegistry::instance();
  auto carries = [&](const Node& n) {
    const OpDef* def = registry.find(n.op);
    return n.op == "neg" || (def && def->has_tag("shape"));
  };
  std::set<std::string> failing_values, reached;
  for (const Node& n : g.nodes)
    if (n.op == op) failing_values.insert(n.outputs.begin(), n.outputs.end());
  reached = failing_values;
  for (const Node& n : g.nodes) {
    auto reads = [&](const std::set<std::string>& values) {
      return std::any_of(n.inputs.begin(), n.inputs.end(),
                         [&](const std::string& in) { return values.count(in) > 0; });
    };
    bool reader = reads(failing_values);
    if (reader || (!op.empty() && !reads(reached))) out.push_back(&n);
    if (reader && carries(n)) failing_values.insert(n.outputs.begin(), n.outputs.end());
    if (reads(reached)) reached.insert(n.outputs.begin(), n.outputs.end());
  }
  return out;
}

}  // namespace

bool KnownBug::applies_to(const std::string& backend) const {
  std::optional<BackendName> name = find_backend_release(backend);
  // An attached worker has neither releases nor levels: its roots name neither.
  if (!name) return signature_family(backend) == family && releases.empty() && levels.empty();
  return name->family->name == family && listed(releases, name->version) &&
         listed(levels, name->mode);
}

const std::vector<KnownBug>& shipped_known_bugs() {
  static const std::vector<KnownBug> bugs = load_shipped();
  return bugs;
}

KnownBug user_known_bug(const UserRoot& root) {
  KnownBug k;
  k.label = fmt::format("user {}", root.id);
  k.family = root.family;
  if (!root.release.empty()) k.releases = {root.release};
  if (std::optional<BackendName> name = find_backend_name(root.backend)) k.levels = {name->mode};
  k.graph_name = fmt::format("finding #{}", root.finding);
  k.graph = root.graph;
  k.verdict = root.verdict;
  k.summary = root.summary;
  k.trigger = NodePattern::from_json(nlohmann::json::parse(root.trigger, nullptr, false),
                                     "user root " + std::to_string(root.id));
  return k;
}

std::vector<KnownBug> known_bugs(const FindingsDb& db) {
  std::vector<KnownBug> bugs = shipped_known_bugs();
  for (const UserRoot& root : db.user_roots()) bugs.push_back(user_known_bug(root));
  return bugs;
}

std::vector<NodePattern> known_triggers(const std::vector<KnownBug>& bugs,
                                        const std::vector<std::string>& backends) {
  std::vector<NodePattern> patterns;
  for (const KnownBug& bug : bugs) {
    bool shown = std::any_of(backends.begin(), backends.end(),
                             [&](const std::string& b) { return bug.applies_to(b); });
    nlohmann::json text = bug.trigger.to_json();
    if (shown && std::none_of(patterns.begin(), patterns.end(),
                              [&](const NodePattern& p) { return p.to_json() == text; }))
      patterns.push_back(bug.trigger);
  }
  return patterns;
}

UserRoot user_root_from(const FindingRecord& f, const std::string& reduced,
                        const std::string& release) {
  if (f.signature.op.empty())
    fail("finding #{} names no op ({}): there is no node to make its trigger from", f.id,
         f.signature.str());
  std::optional<Graph> g = reduced.empty() ? finding_graph(f, f.graph_a)
                                           : std::optional<Graph>(parse_rtg(reduced, "reduced"));
  if (!g) fail("finding #{} has no graph '{}'", f.id, f.graph_a);
  auto node = std::find_if(g->nodes.begin(), g->nodes.end(),
                           [&](const Node& n) { return n.op == f.signature.op; });
  if (node == g->nodes.end())
    fail("finding #{}: its graph holds no {} node to make its trigger from", f.id, f.signature.op);
  return UserRoot{.id = 0,
                  .finding = f.id,
                  .family = f.signature.family,
                  .backend = f.backend_a,
                  .release = release,
                  .verdict = f.signature.verdict,
                  .graph = print_rtg(*g),
                  .trigger = pattern_of_node(*g, *node).to_json().dump(),
                  .summary = f.signature.str(),
                  .added = utc_now()};
}

KnownBugCheck::KnownBugCheck(std::vector<KnownBug> bugs, BackendLookup lookup)
    : bugs_(std::move(bugs)), lookup_(std::move(lookup)) {}

bool KnownBugCheck::live(size_t bug, const std::string& backend) {
  auto [it, fresh] = live_.emplace(std::make_pair(bug, backend), false);
  if (!fresh) return it->second;
  Graph g = parse_rtg(bugs_[bug].graph, bugs_[bug].graph_name);
  CompareReport report = run_compare({{"original", &g}}, {&lookup_(backend)},
                                     CompareOptions{.seed = 1, .runs = 1, .tolerances = {}});
  it->second = verdict_name(report.cell(0, 0).verdict) == bugs_[bug].verdict;
  return it->second;
}

std::string KnownBugCheck::explain(const FindingRecord& f, const InputPlan& plan) {
  // A relaxed graph breaks constraints on purpose: the reference cannot run its cut.
  if (f.signature.oracle == "robustness" || bugs_.empty()) return "";
  // The graphs under test: an equivalence finding's wrong run may be of either graph (ONNX
  // Runtime merged two Splits of one input in the variant compared against: seed 7620 #12).
  std::vector<Graph> graphs = graphs_under_test(f);
  if (graphs.empty()) return "";
  // Per graph: every node, the candidates (candidate_nodes), the nodes of the failing op.
  std::vector<std::vector<const Node*>> every(graphs.size()), candidates, at_op(graphs.size());
  for (size_t k = 0; k < graphs.size(); ++k) {
    candidates.push_back(candidate_nodes(graphs[k], f.signature.op));
    for (const Node& n : graphs[k].nodes) {
      every[k].push_back(&n);
      if (n.op == f.signature.op) at_op[k].push_back(&n);
    }
  }
  // Whether a node of `nodes` (per graph) matches bug i's trigger.
  auto any_match = [&](size_t i, const std::vector<std::vector<const Node*>>& nodes) {
    for (size_t k = 0; k < graphs.size(); ++k)
      for (const Node* n : nodes[k])
        if (bugs_[i].trigger.matches(graphs[k], *n)) return true;
    return false;
  };
  // The optimization oracle compares two levels of one compiler: the bug may be the baseline's
  // ("error: in the run compared against"), so either side may show it.
  std::vector<std::string> sides{f.backend_a};
  if (f.signature.oracle == oracle_name(Oracle::Optimization)) sides.push_back(f.backend_b);
  bool failing_checked = false, shows_again = false;
  std::optional<Verdict> verdict = parse_verdict(f.signature.verdict);
  bool of_values = verdict == Verdict::Mismatch || verdict == Verdict::NanInfMismatch;
  // The live bugs whose triggers are in the graph but do not explain the failure alone: a graph
  // may hold two (an empty MaxPool and an empty LayerNorm), and feeding the one in the failing
  // slice leaves the other's error.
  std::vector<size_t> together;
  bool one_in_slice = false;
  // Bugs that show the finding's verdict first: two bugs of one kernel may share a trigger (an
  // empty MatMul that fails to load, and one that returns stale memory). Among those, the ones
  // whose trigger is the failing op itself: two rows of one mechanism may both explain it (ONNX
  // Runtime's f32 island ends in a Cast to f32, row 27, after a Tanh, row 12: seed 7822 #17).
  std::vector<size_t> order(bugs_.size());
  // Per bug: (shows another verdict, its trigger is not the failing op); false sorts first.
  std::vector<std::pair<bool, bool>> rank;
  for (size_t i = 0; i < bugs_.size(); ++i)
    rank.emplace_back(bugs_[i].verdict != f.signature.verdict, !any_match(i, at_op));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return rank[a] < rank[b]; });
  for (size_t i : order) {
    const KnownBug& bug = bugs_[i];
    if (bug.family != f.signature.family || !any_match(i, every)) continue;
    try {
      if (std::none_of(sides.begin(), sides.end(), [&](const std::string& side) {
            return bug.applies_to(side) && live(i, side);
          }))
        continue;
      if (!any_match(i, candidates)) {
        together.push_back(i);
        continue;
      }
      if (!failing_checked) {
        shows_again = still_fails(f, plan, lookup_);
        failing_checked = true;
      }
      if (!shows_again) {
        // A wrong value that a fresh run does not give again read memory nobody wrote: a bug
        // that leaves its output unwritten explains it where its trigger is (seed 7923 #8, an
        // empty MatMul's stale output, row 45); no feed can tell more.
        if (bug.stale && of_values) return bug.label;
        continue;
      }
      auto matching = [&](const Graph& g, const Node& n) { return bug.trigger.matches(g, n); };
      if (goes_when_fed(f, matching, plan, lookup_)) return bug.label;
      together.push_back(i);
      one_in_slice = true;
    } catch (const Error&) {
      // A graph that does not run cut so (a graph output made an input): not this bug.
    }
  }
  if (!one_in_slice || together.size() < 2) return "";
  auto any_matching = [&](const Graph& g, const Node& n) {
    return std::any_of(together.begin(), together.end(),
                       [&](size_t i) { return bugs_[i].trigger.matches(g, n); });
  };
  try {
    if (!goes_when_fed(f, any_matching, plan, lookup_)) return "";
  } catch (const Error&) {
    return "";
  }
  // Explained by known bugs together: named by the one at the failing op, else the first in the
  // failing slice.
  for (size_t i : together)
    if (any_match(i, at_op)) return bugs_[i].label;
  for (size_t i : together)
    if (any_match(i, candidates)) return bugs_[i].label;
  return "";
}

}  // namespace retort
