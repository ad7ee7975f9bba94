// Deterministic random graphs for e-graph tests and benchmarks: chains of add, mul, matmul and
// transpose over square tensors, so that every op types against every earlier value.
#pragma once

#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/base/rng.h"
#include "core/graph/graph.h"
#include "core/ops/registry.h"

namespace retort::testing {

inline Graph random_op_graph(size_t n_nodes, uint64_t seed, DType dtype = DType::f32,
                             int64_t dim = 4) {
  Rng rng(seed);
  Graph g;
  g.name = fmt::format("random_{}_{}", n_nodes, seed);
  std::vector<std::string> values;
  for (int i = 0; i < 3; ++i) {
    g.inputs.push_back({fmt::format("x{}", i), {dtype, {dim, dim}}});
    values.push_back(g.inputs.back().name);
  }
  std::vector<std::string> ops;
  for (const char* op : {"add", "mul", "matmul", "transpose"})
    if (OpRegistry::instance().find(op)) ops.push_back(op);
  // Mostly extend the latest value, so the graph has long chains as well as sharing.
  auto operand = [&] {
    if (rng.coin(0.5)) return values.back();
    return values[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(values.size()) - 1))];
  };
  std::set<std::string> consumed;
  std::set<std::pair<std::string, std::vector<std::string>>> made;  // no two equal nodes
  for (size_t i = 0; i < n_nodes; ++i) {
    Node n;
    n.name = fmt::format("n{}", i);
    do {
      n.op = ops[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(ops.size()) - 1))];
      n.inputs = {operand()};
      if (n.op != "transpose") n.inputs.push_back(operand());
    } while (!made.insert({n.op, n.inputs}).second);
    if (n.op == "transpose") n.attrs["perm"] = std::vector<int64_t>{1, 0};
    n.outputs.push_back(fmt::format("t{}", i));
    consumed.insert(n.inputs.begin(), n.inputs.end());
    values.push_back(n.outputs.back());
    g.nodes.push_back(std::move(n));
  }
  for (const Node& n : g.nodes)
    if (!consumed.count(n.outputs[0])) g.outputs.push_back(n.outputs[0]);
  infer_graph(g);
  return g;
}

}  // namespace retort::testing
