// Graph comparison and error capture shared by the format tests.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/graph/graph.h"

namespace retort::testing {

// Everything a format must keep: names, types, constant bytes and init text, nodes with their
// attributes and opaque info, outputs. (Inferred types follow from these.)
inline void expect_same_graph(const Graph& a, const Graph& b) {
  EXPECT_EQ(a.name, b.name);
  ASSERT_EQ(a.inputs.size(), b.inputs.size());
  for (size_t i = 0; i < a.inputs.size(); ++i) {
    EXPECT_EQ(a.inputs[i].name, b.inputs[i].name);
    EXPECT_EQ(a.inputs[i].type, b.inputs[i].type) << a.inputs[i].name;
  }
  ASSERT_EQ(a.constants.size(), b.constants.size());
  for (size_t i = 0; i < a.constants.size(); ++i) {
    EXPECT_EQ(a.constants[i].name, b.constants[i].name);
    EXPECT_TRUE(a.constants[i].value == b.constants[i].value) << a.constants[i].name;
    EXPECT_EQ(a.constants[i].init_text, b.constants[i].init_text) << a.constants[i].name;
  }
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    const Node& x = a.nodes[i];
    const Node& y = b.nodes[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.op, y.op) << x.name;
    EXPECT_EQ(x.inputs, y.inputs) << x.name;
    EXPECT_EQ(x.outputs, y.outputs) << x.name;
    EXPECT_EQ(x.attrs, y.attrs) << x.name;
    ASSERT_EQ(x.is_opaque(), y.is_opaque()) << x.name;
    if (x.is_opaque()) {
      EXPECT_EQ(x.opaque->domain, y.opaque->domain);
      EXPECT_EQ(x.opaque->version, y.opaque->version);
      EXPECT_EQ(x.opaque->output_types, y.opaque->output_types);
    }
  }
  EXPECT_EQ(a.outputs, b.outputs);
  EXPECT_EQ(a.types, b.types);
}

// The rendered message of the Error that f throws ("" and a test failure when none is thrown).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no Error was thrown";
  return "";
}

}  // namespace retort::testing
