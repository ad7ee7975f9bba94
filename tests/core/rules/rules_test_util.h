// Helpers shared by the rule tests: building small graphs by hand, and comparing e-graphs.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/egraph/egraph.h"
#include "core/graph/graph.h"

namespace retort::testing {

class GraphBuilder {
 public:
  std::string input(const std::string& name, TensorType type) {
    g_.inputs.push_back({name, std::move(type)});
    return name;
  }
  // Adds a node and returns its outputs' value names.
  std::vector<std::string> node_n(const std::string& op, std::vector<std::string> inputs,
                                  Attrs attrs, size_t n_outputs) {
    Node n;
    n.name = "n" + std::to_string(g_.nodes.size());
    n.op = op;
    n.inputs = std::move(inputs);
    n.attrs = std::move(attrs);
    for (size_t i = 0; i < n_outputs; ++i)
      n.outputs.push_back("v" + std::to_string(g_.nodes.size()) + "_" + std::to_string(i));
    g_.nodes.push_back(n);
    return n.outputs;
  }
  std::string node(const std::string& op, std::vector<std::string> inputs, Attrs attrs = {}) {
    return node_n(op, std::move(inputs), std::move(attrs), 1)[0];
  }
  Graph done(std::vector<std::string> outputs) {
    g_.outputs = std::move(outputs);
    infer_graph(g_);
    return g_;
  }

 private:
  Graph g_;
};

// Bit-for-bit comparison of the observable state of two e-graphs: every term, the union-find
// over them, every class's members, types and constants.
inline void expect_same_egraph(const EGraph& a, const EGraph& b) {
  ASSERT_EQ(a.term_count(), b.term_count());
  ASSERT_EQ(a.class_ids(), b.class_ids());
  EXPECT_EQ(a.node_count(), b.node_count());
  for (uint32_t t = 0; t < a.term_count(); ++t) {
    EClassId id(t);
    ASSERT_TRUE(a.term(id) == b.term(id)) << "term " << t;
    ASSERT_EQ(a.find(id), b.find(id)) << "term " << t;
  }
  for (EClassId c : a.class_ids()) {
    ASSERT_TRUE(a.eclass(c).nodes == b.eclass(c).nodes) << "class " << c.value;
    ASSERT_EQ(a.has_type(c), b.has_type(c));
    if (a.has_type(c)) {
      ASSERT_EQ(a.type(c), b.type(c));
    }
    ASSERT_EQ(a.constant(c) != nullptr, b.constant(c) != nullptr);
  }
}

}  // namespace retort::testing
