// HirFuzz's constraint level 0: a valid graph with named constraints broken, which inference
// rejects and the unchecked export still writes, and the same seed breaks the same ones.
#include "core/gen/relax.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/gen/graph_gen.h"
#include "core/io/onnx_io.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

TEST(Relax, BrokenGraphsFailInferenceButExport) {
  size_t rejected = 0, exported = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    Graph g = generate_graph(GenOptions{}, seed);
    Rng rng(seed);
    RelaxedGraph r = relax_constraints(g, rng, 2);
    ASSERT_EQ(r.broken.size(), 2u) << print_rtg(g);
    Graph copy = r.graph;
    try {
      infer_graph(copy);
    } catch (const Error&) {
      ++rejected;
    }
    try {
      export_onnx_unchecked(r.graph);
      ++exported;
    } catch (const Error&) {
    }
    Rng again(seed);
    EXPECT_EQ(relax_constraints(g, again, 2).broken, r.broken);
  }
  // Some breakages still type (an attribute the op ignores for this input, a retyped input only
  // a cast reads), so not all are rejected; most are.
  EXPECT_GT(rejected, 70u);
  EXPECT_GT(exported, 90u);
}

TEST(Relax, EachBreakageIsNamed) {
  Graph g = parse_rtg("input x : f32[2,3]\ny = sqrt(x)\noutput y\n");
  Rng rng(3);
  RelaxedGraph r = relax_constraints(g, rng, 3);
  ASSERT_EQ(r.broken.size(), 3u);
  for (const auto& line : r.broken)
    EXPECT_TRUE(line.find("input 'x'") != std::string::npos ||
                line.find("node 'y'") != std::string::npos)
        << line;
}

}  // namespace
}  // namespace retort
