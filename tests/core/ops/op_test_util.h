// Runs single ops through the real pipeline (infer_graph, then evaluate) so that the op family
// tests cover attribute normalisation, inference and the kernel together, and compares tensors
// with expected values. Test files take these with `using namespace testing;`.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

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

namespace retort::testing {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();

// A graph with one node `op` whose inputs are x0, x1, ... of the given types and which names
// `num_outputs` outputs y0, y1, ...; inferred.
inline Graph one_node_graph(const std::string& op, const std::vector<TensorType>& inputs,
                            const Attrs& attrs, size_t num_outputs) {
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
  return g;
}

inline std::vector<TensorType> types_of(const std::vector<Tensor>& tensors) {
  std::vector<TensorType> types;
  for (const Tensor& t : tensors) types.push_back(t.type());
  return types;
}

// The feed for one_node_graph: inputs[i] as x<i>.
inline TensorMap one_node_feed(const std::vector<Tensor>& inputs) {
  TensorMap feed;
  for (size_t i = 0; i < inputs.size(); ++i) feed["x" + std::to_string(i)] = inputs[i];
  return feed;
}

// The inferred output types only (no kernel run).
inline std::vector<TensorType> infer_op(const std::string& op,
                                        const std::vector<TensorType>& inputs,
                                        const Attrs& attrs = {}, size_t num_outputs = 1) {
  Graph g = one_node_graph(op, inputs, attrs, num_outputs);
  std::vector<TensorType> types;
  for (const auto& name : g.outputs) types.push_back(g.type_of(name));
  return types;
}

// Every output of a node with `num_outputs` outputs, evaluated on `inputs`.
inline std::vector<Tensor> run_op_outputs(const std::string& op, const std::vector<Tensor>& inputs,
                                          const Attrs& attrs, size_t num_outputs) {
  Graph g = one_node_graph(op, types_of(inputs), attrs, num_outputs);
  TensorMap out = evaluate(g, one_node_feed(inputs));
  std::vector<Tensor> result;
  for (const auto& name : g.outputs) result.push_back(out.at(name));
  return result;
}

inline Tensor run_op(const std::string& op, const std::vector<Tensor>& inputs,
                     const Attrs& attrs = {}) {
  return run_op_outputs(op, inputs, attrs, 1).at(0);
}

// Element-by-element comparison; an expected NaN matches any NaN.
inline void expect_values(const Tensor& t, const std::vector<double>& want, double tol = 0) {
  ASSERT_EQ(t.numel(), static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    double got = t.get(static_cast<int64_t>(i));
    if (std::isnan(want[i]))
      EXPECT_TRUE(std::isnan(got)) << "element " << i << " is " << got;
    else if (tol == 0)
      EXPECT_EQ(got, want[i]) << "element " << i;
    else
      EXPECT_NEAR(got, want[i], tol) << "element " << i;
  }
}

inline void expect_ints(const Tensor& t, const std::vector<int64_t>& want) {
  ASSERT_EQ(t.numel(), static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(t.get_int(static_cast<int64_t>(i)), want[i]) << "element " << i;
}

// The message of the Error that f throws, or "" when it does not throw.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.message();
  }
  return "";
}

inline Tensor f32(Shape s, std::vector<double> v) {
  return Tensor::from_doubles(DType::f32, std::move(s), v);
}
// A 1-D f64 tensor.
inline Tensor f64(std::vector<double> v) {
  Shape s{static_cast<int64_t>(v.size())};
  return Tensor::from_doubles(DType::f64, s, v);
}
inline Tensor ints(DType t, Shape s, std::vector<int64_t> v) {
  return Tensor::from_ints(t, std::move(s), v);
}

// 0, 1, 2, ... in the given dtype and shape.
inline Tensor iota(DType dtype, const Shape& shape) {
  std::vector<int64_t> values(static_cast<size_t>(numel(shape)));
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i);
  return Tensor::from_ints(dtype, shape, values);
}

}  // namespace retort::testing
