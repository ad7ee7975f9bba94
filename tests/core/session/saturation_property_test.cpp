// The e-graph engine's end-to-end properties, through the Session as the console drives it:
// saturate with the built-in POLYJUICE rules, extract min and max, and check that both are valid
// graphs whose outputs equal the original's on the reference interpreter (tests/support/
// tensor_close.h), that min is no larger than the original and max larger.
#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/exec/inputs.h"
#include "core/gen/graph_gen.h"
#include "core/io/graph_files.h"
#include "core/session/session.h"
#include "tests/support/tensor_close.h"

namespace retort {
namespace {

constexpr uint64_t kInputSeed = 7;

// "" when every output of the original has an equal output in the variant (a variant may have
// more outputs: the graph_out rule exposes intermediate values).
std::string differs_from_original(const Graph& original, const Graph& variant) {
  Graph checked = variant;
  infer_graph(checked);  // a variant must be a valid graph on its own
  // restore_graph types the variant from the e-graph; inference from scratch must agree, and
  // must find the nodes already in topological order.
  if (checked.types != variant.types) return "its types differ from infer_graph's";
  for (size_t i = 0; i < checked.nodes.size(); ++i)
    if (checked.nodes[i].name != variant.nodes[i].name)
      return fmt::format("node {} is out of topological order", variant.nodes[i].name);
  TensorMap inputs = generate_inputs(original, kInputSeed, nullptr);
  TensorMap want = evaluate(original, inputs);
  TensorMap got = evaluate(checked, inputs);
  for (const auto& [name, tensor] : want) {
    auto it = got.find(name);
    if (it == got.end()) return fmt::format("output {} is missing", name);
    if (auto why = testing::tensor_difference(tensor, it->second); !why.empty())
      return fmt::format("output {}: {}", name, why);
  }
  return "";
}

struct Extracted {
  size_t original_ops, min_ops, max_ops;
  // Identities of min that copy one output to another: two outputs the e-graph found equal (a
  // generated graph's duplicate topk) each keep their name.
  size_t min_output_copies;
};

size_t output_copies(const Graph& g) {
  std::set<std::string> outputs(g.outputs.begin(), g.outputs.end());
  return static_cast<size_t>(std::count_if(g.nodes.begin(), g.nodes.end(), [&](const Node& n) {
    return n.op == "identity" && outputs.count(n.inputs[0]) && outputs.count(n.outputs[0]);
  }));
}

Extracted saturate_and_check(Session& s, RunnerOptions limits) {
  s.build_egraph();
  s.run_rules(limits, "saturate");
  s.extract_variant({}, "min", "extract min");
  ExtractOptions max;
  max.mode = ExtractMode::Max;
  s.extract_variant(max, "max", "extract max");
  for (const char* name : {"min", "max"}) {
    std::string why;
    try {
      why = differs_from_original(s.graph(), s.variant(name));
    } catch (const Error& e) {
      why = e.what();
    }
    EXPECT_EQ(why, "") << name << " of " << s.graph().name;
  }
  return {s.graph().op_count(), s.variant_info("min").ops, s.variant_info("max").ops,
          output_copies(s.variant("min"))};
}

TEST(SaturationProperties, EveryPolyjuiceSampleHasASmallerMinAndALargerMax) {
  std::filesystem::path dir = std::filesystem::path(RETORT_SOURCE_DIR) / "samples" / "polyjuice";
  int samples = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".rtg") continue;
    ++samples;
    Session s;
    s.set_graph(load_graph_file(entry.path().string()));
    Extracted e = saturate_and_check(s, {});
    EXPECT_LE(e.min_ops, e.original_ops) << entry.path();
    EXPECT_GT(e.max_ops, e.original_ops) << entry.path();
  }
  EXPECT_GE(samples, 6);
}

// 1,000 generated graphs of 10 to 30 nodes over all dtypes, at POLYJUICE's limits (2
// iterations, 100 e-nodes) so that the run stays short while every rule gets matches. Half draw
// from every registry op; half from the ops the rules rewrite, so that rewrites pile up.
TEST(SaturationProperties, ThousandRandomGraphsKeepTheirOutputs) {
  GenOptions all_ops, rule_ops;
  rule_ops.ops = {"add", "mul", "matmul", "transpose", "concat", "split", "neg", "relu", "sub"};
  RunnerOptions limits;
  limits.iter_limit = 2;
  limits.node_limit = 100;
  size_t grew = 0;
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    SCOPED_TRACE(fmt::format("generate_graph seed {}", seed));
    Session s(seed);
    s.set_graph(generate_graph(seed % 2 ? all_ops : rule_ops, seed));
    Extracted e = saturate_and_check(s, limits);
    // Max may have fewer ops than a generated graph: the e-graph shares the duplicate nodes
    // and removes the identity transposes that the generator makes.
    EXPECT_LE(e.min_ops - e.min_output_copies, e.original_ops);
    EXPECT_GE(e.max_ops, e.min_ops);
    grew += e.max_ops > e.min_ops;
    if (::testing::Test::HasFailure()) break;  // one seed's report is enough to debug
  }
  EXPECT_GT(grew, 900u);
}

}  // namespace
}  // namespace retort
