// Outputs matched by name, then value, then position; extras paired between variants by value.
#include "core/compare/output_match.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

const char* const kOriginal = R"(graph g
input x : f32[2,3]
input y : f32[2,3]
s = add(x, y)
m = mul(s, x)
o = exp(m)
output o, s
)";

TEST(OutputMatch, ByNameInAnyOrder) {
  Graph g = parse_rtg(kOriginal);
  Graph v = parse_rtg(R"(graph v
input x : f32[2,3]
input y : f32[2,3]
s = add(y, x)
m = mul(x, s)
o = exp(m)
output s, o
)");
  OutputMatch m = match_outputs(g, v, "v");
  EXPECT_EQ(m.of_original, (std::vector<size_t>{1, 0}));
  EXPECT_TRUE(m.extra.empty());
}

// Renamed outputs with the original's structure are found by value; the exposed intermediate is
// extra.
TEST(OutputMatch, ByValueWithExtras) {
  Graph g = parse_rtg(kOriginal);
  Graph v = parse_rtg(R"(graph v
input x : f32[2,3]
input y : f32[2,3]
a = add(x, y)
b = mul(a, x)
c = exp(b)
output b, a, c
)");
  OutputMatch m = match_outputs(g, v, "v");
  EXPECT_EQ(m.of_original, (std::vector<size_t>{2, 1}));
  EXPECT_EQ(m.extra, std::vector<size_t>{0});
}

// Nothing to go by but the position: a value the e-graph cannot tell equal without rules.
TEST(OutputMatch, ByPositionAndItsErrors) {
  Graph g = parse_rtg(kOriginal);
  Graph v = parse_rtg(R"(graph v
input x : f32[2,3]
input y : f32[2,3]
a = add(y, x)
b = mul(x, a)
c = exp(b)
output c, a
)");
  EXPECT_EQ(match_outputs(g, v, "v").of_original, (std::vector<size_t>{0, 1}));
  Graph one =
      parse_rtg("graph v\ninput x : f32[2,3]\ninput y : f32[2,3]\nz = sub(x, y)\noutput z\n");
  try {
    match_outputs(g, one, "v");
    FAIL() << "a missing output was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no output for the original's output 1 ('s'"),
              std::string::npos)
        << e.what();
  }
  Graph typed = parse_rtg(
      "graph v\ninput x : f32[2,3]\ninput y : f32[2,3]\nz = reduce_sum(x, axes=[0])\n"
      "s = add(x, y)\noutput z, s\n");
  EXPECT_THROW(match_outputs(g, typed, "v"), Error);
}

// Two variants exposing the same intermediate (by structure, or named after the original's
// value) pair those extras; their other extras stay unpaired.
TEST(OutputMatch, ExtrasPairBetweenVariantsByValue) {
  Graph g = parse_rtg(kOriginal);
  Graph v1 = parse_rtg(R"(graph v1
input x : f32[2,3]
input y : f32[2,3]
s = add(x, y)
m = mul(s, x)
o = exp(m)
r = relu(x)
output o, s, m, r
)");
  Graph v2 = parse_rtg(R"(graph v2
input x : f32[2,3]
input y : f32[2,3]
s = add(y, x)
k = mul(x, s)
o = exp(k)
m = neg(k)
q = neg(m)
output q, m, s, o
)");
  std::vector<const Graph*> graphs{&g, &v1, &v2};
  std::vector<OutputMatch> matches{{}, match_outputs(g, v1, "v1"), match_outputs(g, v2, "v2")};
  EXPECT_EQ(matches[2].of_original, (std::vector<size_t>{3, 2}));
  auto values = output_values(graphs);
  // v2's m is named after the original's m but is neg(k): its type fits, so the name says it
  // denotes m; v2's q has no name of the original and no equal structure.
  OutputPairs extras = output_pairs(graphs, matches, values, 2, 1);
  EXPECT_EQ(extras, (OutputPairs{{"m", "m"}}));
  EXPECT_EQ(output_pairs(graphs, matches, values, 1, 0), (OutputPairs{{"o", "o"}, {"s", "s"}}));
  EXPECT_EQ(output_pairs(graphs, matches, values, 2, 0), (OutputPairs{{"o", "o"}, {"s", "s"}}));
  EXPECT_EQ(output_pairs(graphs, matches, values, 1, 1).size(), 4u);
  EXPECT_NE(values[2][0], values[1][3]);  // q and r
}

}  // namespace
}  // namespace retort
