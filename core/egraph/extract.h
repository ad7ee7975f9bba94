// Extraction (POLYJUICE Algorithm 1): picks one e-node per class from the root and restores the
// result to a Graph.
//   min     fewest operations per root: the tree-cost fixed point over classes, or the graph's
//           own structure with equal values shared when that restores to fewer nodes (tree
//           cost counts a shared subterm once per use), so min never has more nodes than the
//           graph it was built from
//   max     most operations on the e-graph made acyclic by a depth-first search from the root
//   random  a uniformly random acyclic choice per class, from a seed
//   cost    least total cost under a user map op -> cost (default 1)
// Inputs, constants and graph_out cost 0; ties are broken by enode_less, so results are the
// same in every run.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/egraph/convert.h"
#include "core/egraph/egraph.h"
#include "core/egraph/selection.h"
#include "core/graph/graph.h"

namespace retort {

enum class ExtractMode { Min, Max, Random, Cost };

std::string_view extract_mode_name(ExtractMode m);  // "min", "max", "random", "cost"
std::optional<ExtractMode> parse_extract_mode(std::string_view name);

struct ExtractOptions {
  ExtractMode mode = ExtractMode::Min;
  uint64_t seed = 0;                       // random
  std::map<std::string, double> op_costs;  // cost: per op name; missing ops cost 1
  bool collect_steps = true;               // compute Extraction::steps (a proof walk)
};

struct Extraction {
  Graph graph;
  Selection selection;
  size_t op_count = 0;          // nodes of the restored graph (shared subterms once)
  size_t depth = 0;             // longest chain of nodes from an input to an output
  std::vector<uint32_t> steps;  // trace steps the chosen e-nodes depend on (sorted, unique)
};

// The choice only. The e-graph must be clean (rebuilt); root is any id of the root class.
// Throws Error for negative costs or a root without a finite term.
Selection select(const EGraph& eg, EClassId root, const ExtractOptions& options);

// The acyclic sub-e-graph used by max and random (Algorithm 1, line 1): a DFS from the root
// orders classes by finishing time and drops e-nodes with an edge to a class that finished
// later (back edges). A class left without e-nodes that way is placed later instead, as soon as
// one of its e-nodes has all children placed, so every class with a finite term keeps at least
// one e-node. Returns, per canonical class reachable from the root, its kept e-nodes.
std::map<EClassId, std::vector<ENode>> acyclic_nodes(const EGraph& eg, EClassId root);

// The longest chain of nodes from an input to an output of a graph that passed infer_graph.
size_t graph_depth(const Graph& g);

// Selects, restores the graph (restore_graph) and measures it.
Extraction extract(const EGraph& eg, const GraphMeta& meta, const ExtractOptions& options);

// The term with the fewest e-nodes outside `preferred` (ties: fewest e-nodes): it follows a
// given choice wherever the e-graph holds that choice's e-nodes, and takes the smallest term
// elsewhere. `bisect` uses it to walk from a graph toward one of its variants along the trace.
Extraction extract_preferring(const EGraph& eg, const GraphMeta& meta,
                              const std::function<bool(const ENode&)>& preferred);

// Restores a selection to a graph and measures it (extract's second half).
Extraction restore_selection(const EGraph& eg, const GraphMeta& meta, Selection selection,
                             bool collect_steps);

}  // namespace retort
