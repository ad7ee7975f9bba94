// The DOT text of what `render` draws from a session: the current graph, a variant, the e-graph
// with the extracted variants' choices marked (POLYJUICE Fig. 6), or the diff of two graphs.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/session/session.h"

namespace retort {

// "original" and "graph" name the current graph; any other name a variant (Error otherwise).
const Graph& named_graph(const Session& s, const std::string& name);

std::string graph_picture(const Graph& g);
// A report's picture: g with its failing outputs (value name -> what is wrong, "wrong shape")
// marked, and the nodes that compute them filled.
std::string failing_picture(const Graph& g, const std::map<std::string, std::string>& failing);
// Every variant extracted from the current e-graph is marked in its own colour: min in
// palegreen, max in lightsalmon, the others from a fixed palette in name order.
// `around` (with `depth`) draws only the classes near one class; `variants_only` only the
// classes the extracted variants chose e-nodes in.
struct EGraphPictureOptions {
  std::optional<EClassId> around;
  size_t depth = 2;
  bool variants_only = false;
};
// `note` receives a line for the user when the picture is compact or cut (egraph_dot).
std::string egraph_picture(const Session& s, const EGraphPictureOptions& o = {},
                           std::string* note = nullptr);
// Nodes matched by e-class when both graphs come from the current e-graph (extracted variants,
// or the original when it is the e-graph's start graph), else by structural signature.
// Unchanged regions away from the changes are one box each unless `full`.
std::string diff_picture(const Session& s, const std::string& a, const std::string& b,
                         bool full = false);
// One rewrite (trace step `step`, the last when not given) as a diff of the graph before and
// after it, titled "rewrite #N: RULE"; Error when there is none to draw.
std::string rewrite_picture(const Session& s, std::optional<size_t> step, bool full = false);

}  // namespace retort
