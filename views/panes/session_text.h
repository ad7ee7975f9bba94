// What the panes show of a session, computed while no command runs (the panes keep the result
// and draw it while the next command works).
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "core/session/session.h"
#include "views/canvas.h"
#include "views/panes/graph_pane.h"

namespace retort {

// E-graph pane: size, the iteration table (rewrites and size per trace iteration), per-rule
// applications and current match counts, then every e-class with its e-nodes.
std::vector<StyledLine> egraph_text(const Session& s);

// Variants pane: the original, then each variant with ops, depth, their change against the
// original, the number of nodes not in the original, and the rewrites it depends on (#1, #3).
std::vector<StyledLine> variants_text(const Session& s);

// Results pane: backends x variants, once `compare` has run.
std::vector<StyledLine> results_text(const Session& s);

// Campaign pane: the campaign `fuzz` runs or ran last in this session, its cases, rate,
// findings by kind and time per stage.
std::vector<StyledLine> campaign_text(const Session& s);

// Program pane: TorchProbe's program mutations and the program a backend last showed.
std::vector<StyledLine> program_text(const Session& s);

// The nodes of variant `name` that the original does not compute the same way: matched by
// e-class when the variant was extracted from the current e-graph (so a rewrite marks only the
// nodes it put in, not everything computed from them), else by structure.
std::set<std::string> variant_new_nodes(const Session& s, const std::string& name);

// The graph pane's graphs: the current graph, the last rewrite (when `rewrite_from` is below
// the trace's length) and every variant. See rewrite_view for the last rewrite.
std::vector<GraphView> graph_views(const Session& s, size_t rewrite_from);

// The last rewrite's picture: the min extraction of the e-graph in which every class matched
// by trace steps [from, end) takes that step's right-hand side (later steps win; a choice that
// would make the graph cyclic is left out). Highlighted: the nodes that are not in the plain
// min extraction, i.e. what those rewrites put in. Null when there are no such steps.
std::optional<GraphView> rewrite_view(const Session& s, size_t from);

// One rewrite, trace step `step`, as two graphs of the e-graph's min extraction: `before` takes
// the e-node the rule matched in its class, `after` the right-hand side it put there. Throws
// Error when there is no such step or it cannot be drawn (a choice would make a cycle).
struct RewriteStepGraphs {
  Graph before, after;
  std::string rule;
};
RewriteStepGraphs rewrite_step_graphs(const Session& s, size_t step);

}  // namespace retort
