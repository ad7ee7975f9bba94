#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/egraph/extract.h"
#include "views/panes/panes.h"
#include "views/panes/session_text.h"

namespace retort {

std::vector<StyledLine> variants_text(const Session& s) {
  std::vector<StyledLine> lines;
  if (!s.has_graph()) {
    lines.push_back({"no graph yet", Style::Dim});
    return lines;
  }
  const Graph& original = s.has_egraph() ? s.egraph().start : s.graph();
  size_t ops = original.op_count(), depth = graph_depth(original);
  size_t width = 10;
  for (const auto& [name, v] : s.variants()) width = std::max(width, name.size());
  lines.push_back({fmt::format("{:<{}} {:>4} {:>5} {:>5} {:>6} {:>9}  rewrites", "name", width,
                               "ops", "depth", "Δops", "Δdepth", "rewritten"),
                   Style::Dim});
  lines.push_back({fmt::format("{:<{}} {:>4} {:>5}", "(original)", width, ops, depth)});
  if (s.variants().empty()) {
    lines.push_back({"no variants: saturate, extract min", Style::Dim});
    return lines;
  }
  auto delta = [](size_t now, size_t before) {
    long d = static_cast<long>(now) - static_cast<long>(before);
    return fmt::format("{:+}", d);
  };
  for (const auto& [name, v] : s.variants()) {
    size_t fresh = variant_new_nodes(s, name).size();
    std::string steps = variant_steps_str(v);
    lines.push_back({fmt::format("{:<{}} {:>4} {:>5} {:>5} {:>6} {:>9}  {}", name, width, v.ops,
                                 v.depth, delta(v.ops, ops), delta(v.depth, depth), fresh, steps),
                     fresh > 0 ? Style::Good : Style::Plain});
  }
  return lines;
}

std::unique_ptr<Pane> make_variants_pane() {
  return std::make_unique<SessionTextPane>(
      PaneSpec{.name = "variants",
               .weight = 30,
               .topics = {Topic::Graph, Topic::EGraph, Topic::Variants},
               .header_lines = 1},
      variants_text);
}

}  // namespace retort
