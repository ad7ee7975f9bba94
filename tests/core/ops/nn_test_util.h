// Runs one registry op through the real graph path (infer_graph, then the interpreter), with
// omitted optional inputs, for the nn op family tests. Builds on op_test_util.h for the rest.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/exec/interpreter.h"
#include "core/graph/graph.h"
#include "tests/core/ops/op_test_util.h"

namespace retort::testing::nn {

// What the nn tests use of op_test_util.h, for those that take this namespace.
using testing::expect_ints;
using testing::f32;
using testing::iota;

// A graph with one node `op`; a nullptr input is an omitted optional input ("").
inline Graph one_node(const std::string& op, const std::vector<const TensorType*>& inputs,
                      const Attrs& attrs) {
  Graph g;
  Node n{"n", op, {}, {"y"}, attrs, std::nullopt};
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i]) {
      n.inputs.push_back("");
      continue;
    }
    std::string name = "in" + std::to_string(i);
    g.inputs.push_back({name, *inputs[i]});
    n.inputs.push_back(name);
  }
  g.nodes.push_back(n);
  g.outputs = {"y"};
  return g;
}

inline TensorType infer_op(const std::string& op, const std::vector<TensorType>& types,
                           const Attrs& attrs = {}) {
  std::vector<const TensorType*> ptrs;
  for (const auto& t : types) ptrs.push_back(&t);
  Graph g = one_node(op, ptrs, attrs);
  infer_graph(g);
  return g.type_of("y");
}

// The message of the Error that inference throws (fails the test when there is none).
inline std::string infer_error(const std::string& op, const std::vector<TensorType>& types,
                               const Attrs& attrs = {}) {
  std::string msg = testing::error_of([&] { infer_op(op, types, attrs); });
  if (msg.empty()) ADD_FAILURE() << "inference of " << op << " did not fail";
  return msg;
}

inline Tensor run_op(const std::string& op, const std::vector<const Tensor*>& inputs,
                     const Attrs& attrs = {}) {
  std::vector<TensorType> types(inputs.size());
  std::vector<const TensorType*> ptrs;
  TensorMap values;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i]) {
      ptrs.push_back(nullptr);
      continue;
    }
    types[i] = inputs[i]->type();
    ptrs.push_back(&types[i]);
    values["in" + std::to_string(i)] = *inputs[i];
  }
  Graph g = one_node(op, ptrs, attrs);
  infer_graph(g);
  return evaluate(g, values).at("y");
}

inline Tensor run_op(const std::string& op, const std::vector<Tensor>& inputs,
                     const Attrs& attrs = {}) {
  std::vector<const Tensor*> ptrs;
  for (const auto& t : inputs) ptrs.push_back(&t);
  return run_op(op, ptrs, attrs);
}

// Elementwise closeness with a relative tolerance; NaN matches NaN.
inline void expect_close(const Tensor& got, const Shape& shape, const std::vector<double>& want,
                         double rel = 1e-6) {
  ASSERT_EQ(got.shape(), shape);
  ASSERT_EQ(got.numel(), static_cast<int64_t>(want.size()));
  for (int64_t i = 0; i < got.numel(); ++i) {
    double g = got.get(i), w = want[i];
    if (std::isnan(w)) {
      EXPECT_TRUE(std::isnan(g)) << "element " << i;
      continue;
    }
    if (std::isinf(w)) {
      EXPECT_EQ(g, w) << "element " << i;
      continue;
    }
    EXPECT_NEAR(g, w, rel * std::max(1.0, std::abs(w))) << "element " << i;
  }
}

}  // namespace retort::testing::nn
