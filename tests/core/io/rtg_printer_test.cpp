#include <filesystem>
#include <limits>

#include <gtest/gtest.h>

#include "core/base/rng.h"
#include "core/io/graph_files.h"
#include "core/io/rtg.h"
#include "core/tensor/random_tensor.h"
#include "tests/core/io/graph_test_util.h"

namespace retort {
namespace {

using testing::expect_same_graph;

void expect_round_trip(const Graph& g) {
  std::string text = print_rtg(g);
  Graph back = parse_rtg(text, "printed.rtg");
  expect_same_graph(g, back);
  EXPECT_EQ(print_rtg(back), text);
}

TEST(RtgPrinter, PrintsInputsConstantsNodesAndOutputsInOrder) {
  Graph g = parse_rtg(R"(graph demo
input x : f32[2,3]
const c : f32[3] = random(seed=3)
const k : i32[2,2] = [[1, 2], [3, 4]]
t = add(x, c)
l = leaky_relu(t)
m = leaky_relu(t, alpha=0.5)
a, b = split(m, axis=1, split=[1,2])
h = cast(b, to=f16)
output l, a
output h
)");
  EXPECT_EQ(print_rtg(g), R"(graph demo
input x : f32[2,3]
const c : f32[3] = random(seed=3)
const k : i32[2,2] = [[1, 2], [3, 4]]
t = add(x, c)  # f32[2,3]
l = leaky_relu(t)  # f32[2,3]
m = leaky_relu(t, alpha=0.5)  # f32[2,3]
a, b = split(m, axis=1, split=[1,2])  # f32[2,1], f32[2,2]
h = cast(b, to=f16)  # f16[2,2]
output l, a, h
)");
  EXPECT_EQ(print_rtg(g, {.show_types = false}).find('#'), std::string::npos);
}

TEST(RtgPrinter, NodesComeInTopologicalOrder) {
  Graph g;
  g.inputs.push_back({"x", {DType::f32, {2}}});
  g.nodes.push_back({"b", "relu", {"a"}, {"b"}, {}, {}});
  g.nodes.push_back({"a", "neg", {"x"}, {"a"}, {}, {}});
  g.outputs = {"b"};
  infer_graph(g);
  EXPECT_EQ(print_rtg(g, {.show_types = false}),
            "input x : f32[2]\na = neg(x)\nb = relu(a)\noutput b\n");
}

TEST(RtgPrinter, FloatsUseTheShortestTextThatReadsBack) {
  Graph g = parse_rtg(R"(const a : f32[4] = [0.1, 1e-30, -0.0, 3.4028235e38]
const b : f16[3] = [0.1, 65504, 6e-08]
const c : f64[2] = [0.1, 5e-324]
const d : f32[3] = [nan, inf, -inf]
output a, b, c, d
)");
  EXPECT_EQ(print_rtg(g), R"(const a : f32[4] = [0.1, 1e-30, -0.0, 3.4028235e+38]
const b : f16[3] = [0.1, 65504.0, 6e-08]
const c : f64[2] = [0.1, 5e-324]
const d : f32[3] = [nan, inf, -inf]
output a, b, c, d
)");
  expect_round_trip(g);
}

TEST(RtgPrinter, InitTextIsKeptOnlyWhileItReproducesTheValues) {
  Graph g =
      parse_rtg("const c : f32[3] = random(seed=1)\nconst f : i8[2] = fill(-3)\noutput c, f\n");
  EXPECT_EQ(print_rtg(g),
            "const c : f32[3] = random(seed=1)\nconst f : i8[2] = fill(-3)\n"
            "output c, f\n");
  g.constants[0].value = Tensor::from_doubles(DType::f32, {3}, {1, 2, 3});
  g.constants[1].value = Tensor::from_ints(DType::i8, {2}, {-3, 4});
  EXPECT_EQ(print_rtg(g),
            "const c : f32[3] = [1.0, 2.0, 3.0]\nconst f : i8[2] = [-3, 4]\n"
            "output c, f\n");
}

TEST(RtgPrinter, LongLiteralsAreElidedOnlyWhenAsked) {
  Graph g = parse_rtg("const c : i32[2,3] = [[1, 2, 3], [4, 5, 6]]\noutput c\n");
  RtgPrintOptions display;
  display.max_literal_elements = 4;
  EXPECT_EQ(print_rtg(g, display), "const c : i32[2,3] = [1, 2, 3, 4, ... 6 values]\noutput c\n");
  EXPECT_EQ(print_rtg(g), "const c : i32[2,3] = [[1, 2, 3], [4, 5, 6]]\noutput c\n");
}

TEST(RtgPrinter, QuotesNamesThatAreNotIdentifiers) {
  Graph g = parse_rtg(
      "input `input.0/x` : f32[2]\n`1` = relu(`input.0/x`)\n_x = neg(`1`)\noutput `1`, _x\n");
  EXPECT_EQ(print_rtg(g, {.show_types = false}),
            "input `input.0/x` : f32[2]\n`1` = relu(`input.0/x`)\n_x = neg(`1`)\n"
            "output `1`, _x\n");
  expect_round_trip(g);
}

TEST(RtgPrinter, OpaqueNodesRoundTrip) {
  Graph g = parse_rtg(R"(input x : f32[2,3]
y, k = opaque "com.example::MyOp@2"(x, _, alpha=1, beta=0.5, s="a\"b", v=[1.0,2.0], w=[1,2]) : f32[2,3], i64[]
z = opaque "Plain"(y) : f32[6]
output z, k
)");
  EXPECT_EQ(print_rtg(g, {.show_types = false}),
            R"(input x : f32[2,3]
y, k = opaque "com.example::MyOp@2"(x, _, alpha=1, beta=0.5, s="a\"b", v=[1.0,2.0], w=[1,2]) : f32[2,3], i64[]
z = opaque "Plain"(y) : f32[6]
output z, k
)");
  expect_round_trip(g);
}

// Every dtype, as inputs, random and literal constants, and node outputs (f16 included).
TEST(RtgPrinter, RoundTripsEveryDType) {
  Graph g;
  Rng rng(11);
  for (DType t : kAllDTypes) {
    std::string n(dtype_name(t));
    g.inputs.push_back({"in_" + n, {t, {2, 3}}});
    g.constants.push_back({"lit_" + n, random_tensor({t, {2, 3}}, rng), ""});
    Constant r{"rnd_" + n, {}, "random(seed=5, low=-100, high=100)"};
    Rng seeded(5);
    r.value = random_tensor_in({t, {4}}, seeded, -100, 100);
    g.constants.push_back(r);
    g.constants.push_back({"scalar_" + n, Tensor::scalar(t, 1), ""});
    g.nodes.push_back({"id_" + n, "identity", {"lit_" + n}, {"id_" + n}, {}, {}});
    g.nodes.push_back({"to_" + n, "cast", {"in_f32"}, {"to_" + n}, {{"to", n}}, {}});
    g.outputs.push_back("id_" + n);
    g.outputs.push_back("to_" + n);
  }
  // f16 values across the whole range, subnormals and extremes included.
  Tensor halves(DType::f16, {64});
  for (int64_t i = 0; i < 64; ++i) halves.data<uint16_t>()[i] = static_cast<uint16_t>(i * 1021 + 1);
  for (int64_t i = 0; i < 64; ++i)
    if (std::isnan(halves.get(i))) halves.data<uint16_t>()[i] = 0x7bff;
  g.constants.push_back({"halves", halves, ""});
  g.outputs.push_back("halves");
  infer_graph(g);
  expect_round_trip(g);
}

std::vector<std::filesystem::path> sample_files() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(
           std::filesystem::path(RETORT_SOURCE_DIR) / "samples"))
    if (e.path().extension() == ".rtg") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(RtgPrinter, RoundTripsEverySample) {
  auto files = sample_files();
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    Graph g = load_graph_file(f.string());
    expect_round_trip(g);
  }
}

}  // namespace
}  // namespace retort
