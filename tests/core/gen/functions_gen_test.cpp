// HirFuzz's function generation: pieces of generated graphs become functions called once or
// more, rewrites wrap them in the paper's three forms, and every result is a valid graph that
// exports to ONNX with local functions (the checker passes) and computes what the original did.
#include "core/gen/functions_gen.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/exec/inputs.h"
#include "core/exec/interpreter.h"
#include "core/gen/graph_gen.h"
#include "core/io/onnx_io.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

GenOptions small() {
  GenOptions o;
  o.min_nodes = 6;
  o.max_nodes = 12;
  return o;
}

TEST(FunctionsGen, GeneratedGraphsGetFunctionsThatExportAndComputeTheSame) {
  size_t with_calls = 0, extra_calls = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    Graph g = generate_graph(small(), seed);
    Rng rng(seed);
    Graph f = with_functions(g, rng, 2, 2);
    SCOPED_TRACE(print_rtg(f));
    ASSERT_NO_THROW(check_functions(f));
    if (f.calls.empty()) continue;
    ++with_calls;
    extra_calls += f.calls.size() > f.functions.size() - 2;
    // The model's graph calls its local functions: each call is one node of their domain
    // (read back as an opaque node), its covered nodes are inside the functions.
    Graph back = import_onnx(export_onnx(f));
    size_t call_nodes = 0;
    for (const Node& n : back.nodes)
      call_nodes += n.is_opaque() && n.opaque->domain == kOnnxFunctionDomain;
    EXPECT_EQ(call_nodes, f.calls.size());
    size_t covered = 0;
    for (const Call& c : f.calls) covered += c.nodes.size();
    EXPECT_EQ(back.nodes.size(), f.nodes.size() - covered + f.calls.size());
    // The original's outputs come out the same: the calls are inlined in the flat graph.
    TensorMap inputs = generate_inputs(g, seed, nullptr);
    TensorMap a = evaluate(g, inputs), b = evaluate(f, inputs);
    for (const auto& o : g.outputs) EXPECT_EQ(a.at(o), b.at(o)) << o;
  }
  EXPECT_GT(with_calls, 50u);
  EXPECT_GT(extra_calls, 10u);
}

TEST(FunctionsGen, RewritesWrapInEachFormAndChain) {
  Graph g = generate_graph(small(), 7);
  Rng rng(7);
  ASSERT_TRUE(add_function(g, rng));
  std::string body = g.calls[0].function;
  auto w1 = rewrite_function(g, rng, FunctionForm::Forward, body);
  ASSERT_TRUE(w1);
  // Calls go through the wrapper now; the wrapped function cannot be rewritten directly.
  EXPECT_EQ(g.calls[0].function, *w1);
  EXPECT_THROW(rewrite_function(g, rng, FunctionForm::Closure, body), Error);
  auto w2 = rewrite_function(g, rng, FunctionForm::Closure, *w1);
  auto w3 = rewrite_function(g, rng, FunctionForm::Returns, *w2);
  ASSERT_TRUE(w2 && w3);
  EXPECT_EQ(body_function(g, *w3).name, body);
  EXPECT_EQ(find_function(g, *w3)->target, *w2);
  EXPECT_THROW(rewrite_function(g, rng, FunctionForm::Body), Error);
  EXPECT_THROW(rewrite_function(g, rng, std::nullopt, "nope"), Error);
  // Each wrapper is one more local function the model calls through (scripts/backends tests
  // check the forms the Python workers read from them).
  Graph back = import_onnx(export_onnx(g));
  ASSERT_EQ(back.nodes.size(), g.nodes.size() - g.calls[0].nodes.size() + 1);
}

TEST(FunctionsGen, AGraphWithoutFreeNodesGetsNoMoreFunctions) {
  Graph g = parse_rtg("input x : f32[2]\ny = neg(x)\noutput y\n");
  Rng rng(1);
  ASSERT_TRUE(add_function(g, rng));
  EXPECT_FALSE(add_function(g, rng));
  Graph none = parse_rtg("input x : f32[2]\ny = neg(x)\noutput y\n");
  EXPECT_FALSE(rewrite_function(none, rng));
}

}  // namespace
}  // namespace retort
