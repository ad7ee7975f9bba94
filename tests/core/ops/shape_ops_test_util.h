// Runs one op of the shape family through the real pipeline (infer_graph, then evaluate) so that
// the tests cover attribute normalisation, inference and the kernel together.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/exec/interpreter.h"
#include "core/graph/graph.h"

namespace retort {

// Readable gtest failure output for tensors.
inline void PrintTo(const Tensor& t, std::ostream* os) {
  std::string values;
  for (int64_t i = 0; i < t.numel(); ++i) values += fmt::format("{}{}", i ? ", " : "", t.get(i));
  *os << t.type().str() << " {" << values << "}";
}

}  // namespace retort

namespace retort::test {

// Evaluates a one-node graph whose inputs are `inputs` and which names `num_outputs` outputs.
inline std::vector<Tensor> run_op(const std::string& op, const std::vector<Tensor>& inputs,
                                  const Attrs& attrs = {}, size_t num_outputs = 1) {
  Graph g;
  Node node{"n", op, {}, {}, attrs, std::nullopt};
  TensorMap feed;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string name = "x" + std::to_string(i);
    g.inputs.push_back({name, inputs[i].type()});
    node.inputs.push_back(name);
    feed[name] = inputs[i];
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    node.outputs.push_back("y" + std::to_string(i));
    g.outputs.push_back(node.outputs.back());
  }
  g.nodes.push_back(node);
  infer_graph(g);
  TensorMap out = evaluate(g, feed);
  std::vector<Tensor> result;
  for (const auto& name : g.outputs) result.push_back(out.at(name));
  return result;
}

// The inferred output types only (no kernel run).
inline std::vector<TensorType> infer_op(const std::string& op,
                                        const std::vector<TensorType>& inputs,
                                        const Attrs& attrs = {}, size_t num_outputs = 1) {
  Graph g;
  Node node{"n", op, {}, {}, attrs, std::nullopt};
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string name = "x" + std::to_string(i);
    g.inputs.push_back({name, inputs[i]});
    node.inputs.push_back(name);
  }
  for (size_t i = 0; i < num_outputs; ++i) {
    node.outputs.push_back("y" + std::to_string(i));
    g.outputs.push_back(node.outputs.back());
  }
  g.nodes.push_back(node);
  infer_graph(g);
  std::vector<TensorType> types;
  for (const auto& name : g.outputs) types.push_back(g.type_of(name));
  return types;
}

// 0, 1, 2, ... in the given dtype and shape.
inline Tensor iota(DType dtype, const Shape& shape) {
  std::vector<int64_t> values(static_cast<size_t>(numel(shape)));
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i);
  return Tensor::from_ints(dtype, shape, values);
}

inline Tensor ints(const Shape& shape, const std::vector<int64_t>& values,
                   DType dtype = DType::i64) {
  return Tensor::from_ints(dtype, shape, values);
}

// The message of the Error that f throws, or "" if it throws none.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.message();
  }
  return "";
}

}  // namespace retort::test
