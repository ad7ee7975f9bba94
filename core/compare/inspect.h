// `inspect`: runs two graphs (or one graph on two backends) with every intermediate value as an
// output and finds the first value, in the first graph's topological order, where they diverge:
// the node whose kernel (or whose compilation) went wrong.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/compare/compare.h"
#include "core/compare/tensor_diff.h"
#include "core/compare/undefined_check.h"
#include "core/egraph/egraph.h"

namespace retort {

// Values of a and b that hold the same tensor, in a's topological order. Only node outputs
// take part (inputs are shared; constants are not computed).
struct ValuePair {
  std::string a, b;
};

// Each value of g whose term the e-graph holds, with its canonical class. Inputs and constants
// are found by name; a node's outputs when its children were found and the e-graph has the
// e-node. Opaque nodes and values the e-graph never saw are left out.
std::map<std::string, EClassId> value_classes(const EGraph& eg, const Graph& g);
// Pairs values of a and b in the same e-class (the first such value of b).
std::vector<ValuePair> pair_by_classes(const EGraph& eg, const Graph& a, const Graph& b);
// Pairs node outputs of a and b with the same name.
std::vector<ValuePair> pair_by_names(const Graph& a, const Graph& b);

// Where a pair's graphs first differ in structure: the first node of a, in topological order,
// whose value has no pair in b, or whose pair's producer in b has another op, other attributes or
// its inputs in another order (the rewrite the pair is about: mul(s, a) beside mul(a, s)). Inputs
// and constants pair by name. Null when a computes everything as b does.
const Node* first_rewritten_node(const Graph& a, const Graph& b,
                                 const std::vector<ValuePair>& pairs);

// The values of g that `values` are computed from, themselves included.
std::set<std::string> values_upstream(const Graph& g, const std::set<std::string>& values);

// g with every value that a node `cut_here` selects made an input, which `inputs` (g's inputs)
// then feeds the reference's value: what a run computes from exact values past the cut.
Graph fed_from_reference(const Graph& g,
                         const std::function<bool(const Graph&, const Node&)>& cut_here,
                         TensorMap& inputs);

// The outputs a finding's verdict comes from: those whose diff carries it (a MaxPool output of
// the wrong shape beside an int64 sum that differs), by name in its graph under test (graph_a)
// and in the graph it had to agree with (graph_b); empty for a run that did not finish.
std::set<std::string> verdict_outputs_a(const Finding& f);
std::set<std::string> verdict_outputs_b(const Finding& f);

struct InspectSide {
  std::string label;  // "v1 on ort:O3", for messages
  const Graph* graph = nullptr;
  Backend* backend = nullptr;
  std::vector<ProgramMutation> mutations{};  // what the side's program runs with (compare's)
};

struct InspectResult {
  size_t pairs = 0;     // value pairs compared (up to the divergence)
  std::string failure;  // non-empty when a run failed: which side and why
  bool diverged = false;
  // The first diverging pair: the values, their producing nodes and ops, the difference and a
  // summary of each tensor (core/tensor/summary.h).
  std::string value_a, value_b, node_a, op_a, node_b, op_b;
  OutputDiff diff;
  std::string summary_a, summary_b;
  // Where the inputs make an op of a undefined (reference values); a divergence at or after
  // that node is not a bug.
  std::optional<UndefinedUse> undefined;
};

InspectResult run_inspect(const InspectSide& a, const InspectSide& b,
                          const std::vector<ValuePair>& pairs, const TensorMap& inputs,
                          const ToleranceTable& tolerances);

}  // namespace retort
