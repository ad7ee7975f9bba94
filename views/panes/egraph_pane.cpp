#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/egraph/render.h"
#include "views/panes/panes.h"
#include "views/panes/session_text.h"

namespace retort {

namespace {

// Matching every rule is quick on the e-graphs people step through by hand; on big saturated
// ones it would stall the screen after each command.
constexpr size_t kMaxNodesForMatchCounts = 20000;
constexpr size_t kMaxClassesListed = 400;

// The ops a rule's right-hand side writes, in order of first appearance: "split, concat".
std::string rhs_ops(const Rule& rule) {
  std::vector<std::string> ops;
  for (const PatternNode& n : rule.rhs.nodes)
    if (n.kind == PatternNode::Kind::Op && std::find(ops.begin(), ops.end(), n.op) == ops.end())
      ops.push_back(n.op);
  return fmt::format("{}", fmt::join(ops, ", "));
}

}  // namespace

std::vector<StyledLine> egraph_text(const Session& s) {
  std::vector<StyledLine> lines;
  if (!s.has_egraph()) {
    lines.push_back({"no e-graph yet: run `egraph`", Style::Dim});
    return lines;
  }
  const EGraphWork& w = s.egraph();
  const EGraph& eg = w.eg;
  lines.push_back({fmt::format("{} e-classes, {} e-nodes, {} rewrites", eg.class_count(),
                               eg.node_count(), w.trace.steps.size()),
                   Style::Title});

  if (!w.trace.steps.empty()) {
    lines.push_back({"iter  steps  e-nodes  e-classes", Style::Dim});
    std::map<uint32_t, std::pair<size_t, const TraceStep*>> by_iteration;
    for (const TraceStep& step : w.trace.steps) {
      auto& [count, last] = by_iteration[step.iteration];
      ++count;
      last = &step;
    }
    for (const auto& [iteration, entry] : by_iteration)
      lines.push_back({fmt::format("{:>4}  {:>5}  {:>7}  {:>9}", iteration, entry.first,
                                   entry.second->nodes_after, entry.second->classes_after)});
  }

  const RuleBook& book = s.rules();
  std::map<std::string, size_t> applied;
  for (const TraceStep& step : w.trace.steps) ++applied[step.rule];
  bool count_matches = eg.node_count() <= kMaxNodesForMatchCounts && eg.clean();
  struct Row {
    std::string rule;
    size_t applied = 0;
    std::optional<size_t> matches;
    std::string brings;  // a bare ?x left side: the ops it brings in, which the graph may lack
  };
  std::vector<Row> rows;
  size_t width = 4;
  for (size_t i = 0; i < book.all().rules.size(); ++i) {
    if (!book.enabled(i)) continue;
    const Rule& rule = book.all().rules[i];
    Row row{rule.name, applied.count(rule.name) ? applied[rule.name] : 0, std::nullopt,
            rule.kind == Rule::Kind::Rewrite && rule.lhs.is_var() ? rhs_ops(rule) : ""};
    if (count_matches) row.matches = s.find_matches(rule).size();
    if (row.applied == 0 && row.matches.value_or(0) == 0) continue;
    width = std::max(width, row.rule.size());
    rows.push_back(std::move(row));
  }
  lines.push_back({fmt::format("{:<{}} {:>7} {:>7}", "rule", width, "applied",
                               count_matches ? "matches" : " (matches not counted: big e-graph)"),
                   Style::Dim});
  for (const Row& row : rows) {
    std::string matches = row.matches ? fmt::format(" {:>7}", *row.matches) : "";
    lines.push_back({fmt::format("{:<{}} {:>7}{}{}", row.rule, width, row.applied, matches,
                                 row.brings.empty() ? "" : " *"),
                     row.applied > 0 ? Style::Good : Style::Plain});
  }
  // A bare ?x matches every value its `if` allows, so such a rule has matches on a graph
  // without any of its ops: it is the rule that brings them in.
  for (const Row& row : rows)
    if (!row.brings.empty())
      lines.push_back({fmt::format("* {} matches any value (left side ?x); it brings in {}",
                                   row.rule, row.brings),
                       Style::Dim});

  lines.push_back({"e-classes", Style::Dim});
  size_t listed = 0;
  for (EClassId id : eg.class_ids()) {
    if (listed++ == kMaxClassesListed) {
      lines.push_back(
          {fmt::format("... {} more e-classes", eg.class_count() - kMaxClassesListed), Style::Dim});
      break;
    }
    std::string type = eg.has_type(id) ? eg.type(id).str() : "root";
    std::string nodes;
    for (const ENode& n : eg.eclass(id).nodes)
      nodes += (nodes.empty() ? "" : " | ") + enode_str(eg, n);
    lines.push_back({fmt::format("e{} {}: {}", id.value, type, nodes),
                     eg.eclass(id).nodes.size() > 1 ? Style::Good : Style::Plain});
  }
  return lines;
}

// A smaller share than the variants and results beside it: at 80x24 its size line stays (the
// rest scrolls), so the results keep a header and a default compare's three backends' rows.
std::unique_ptr<Pane> make_egraph_pane() {
  return std::make_unique<SessionTextPane>(
      PaneSpec{.name = "e-graph", .weight = 18, .topics = {Topic::EGraph}}, egraph_text);
}

}  // namespace retort
