// The POLYJUICE figure samples load, evaluate to what the figures compute, and malformed
// versions of them give Errors, never crashes.
#include <filesystem>

#include <gtest/gtest.h>

#include "core/base/rng.h"
#include "core/exec/interpreter.h"
#include "core/io/graph_files.h"
#include "core/io/rtg.h"
#include "core/tensor/random_tensor.h"
#include "tests/core/io/graph_test_util.h"

namespace retort {
namespace {

std::string sample_path(const std::string& name) {
  return (std::filesystem::path(RETORT_SOURCE_DIR) / "samples" / "polyjuice" / name).string();
}

TensorMap random_inputs(const Graph& g, uint64_t seed) {
  Rng rng(seed);
  TensorMap in;
  for (const auto& i : g.inputs) in[i.name] = random_tensor(i.type, rng);
  return in;
}

TensorMap run(const Graph& g, const TensorMap& in) {
  TensorMap out = evaluate(g, in);
  for (const auto& o : g.outputs) EXPECT_EQ(out.at(o).type(), g.type_of(o)) << o;
  return out;
}

TEST(PolyjuiceSamples, Fig3) {
  Graph g = load_graph_file(sample_path("fig3.rtg"));
  EXPECT_EQ(g.type_of("y"), (TensorType{DType::f32, {1, 2, 30, 50}}));
  TensorMap out = run(g, random_inputs(g, 1));
  const Tensor& y = out.at("y");
  for (int64_t i = 0; i < y.numel(); ++i) ASSERT_TRUE(std::isfinite(y.get(i))) << i;
}

TEST(PolyjuiceSamples, Fig4) {
  Graph g = load_graph_file(sample_path("fig4.rtg"));
  EXPECT_EQ(g.outputs, (std::vector<std::string>{"O1", "O2"}));
  EXPECT_EQ(g.type_of("O1"), (TensorType{DType::f32, {3, 1, 8, 8}}));
  EXPECT_EQ(g.type_of("O2"), (TensorType{DType::f32, {1, 2, 6, 6}}));
  run(g, random_inputs(g, 2));
}

TEST(PolyjuiceSamples, Fig6ComputesI1PlusTransposedI2PlusTransposedI3) {
  Graph g = load_graph_file(sample_path("fig6.rtg"));
  TensorMap in = random_inputs(g, 3);
  Tensor out = run(g, in).at("out");
  for (int64_t r = 0; r < 3; ++r)
    for (int64_t c = 0; c < 4; ++c) {
      float expected =
          static_cast<float>(static_cast<float>(in["I1"].get(r * 4 + c) + in["I2"].get(c * 3 + r)) +
                             in["I3"].get(c * 3 + r));
      EXPECT_EQ(out.get(r * 4 + c), expected);
    }
}

TEST(PolyjuiceSamples, Fig7WrapsModulo256) {
  Graph g = load_graph_file(sample_path("fig7_uint8_mul_order.rtg"));
  TensorMap in;
  in["a"] = Tensor::from_ints(DType::u8, {4, 4}, std::vector<int64_t>(16, 200));
  in["b"] = Tensor::from_ints(DType::u8, {4, 4}, std::vector<int64_t>(16, 250));
  in["c"] = Tensor::from_ints(DType::u8, {4, 4}, std::vector<int64_t>(16, 10));
  Tensor y = run(g, in).at("y");
  EXPECT_EQ(y.get_int(0), (200 * ((250 + 10) % 256)) % 256);
}

TEST(PolyjuiceSamples, Fig8ArgminOfNegatedSum) {
  Graph g = load_graph_file(sample_path("fig8_add_neg_argmin.rtg"));
  TensorMap in = random_inputs(g, 4);
  Tensor y = run(g, in).at("y");
  for (int64_t r = 0; r < 4; ++r) {
    int64_t best = 0;
    for (int64_t c = 1; c < 5; ++c)
      if (-(in["x1"].get_int(r * 5 + c) + in["x2"].get_int(c)) <
          -(in["x1"].get_int(r * 5 + best) + in["x2"].get_int(best)))
        best = c;
    EXPECT_EQ(y.get_int(r), best) << r;
  }
}

TEST(PolyjuiceSamples, Fig9ExtraOutputDoesNotChangeY) {
  Graph plain = load_graph_file(sample_path("fig9_abs.rtg"));
  Graph extra = load_graph_file(sample_path("fig9_abs_extra_output.rtg"));
  EXPECT_EQ(extra.outputs, (std::vector<std::string>{"y", "z"}));
  TensorMap in = random_inputs(plain, 5);
  TensorMap a = run(plain, in), b = run(extra, in);
  EXPECT_TRUE(a.at("y") == b.at("y"));
  for (int64_t i = 0; i < in["x"].numel(); ++i)
    EXPECT_EQ(b.at("z").get(i), std::fabs(in["x"].get(i)));
}

// Every prefix and many one-byte corruptions of every sample parse or fail with an Error.
TEST(PolyjuiceSamples, MalformedTextGivesErrorsNotCrashes) {
  Rng rng(2024);
  const std::string junk = "()[],=:#\"`_-.0123456789eafx \n\t\\\x01\xff";
  for (const auto& entry : std::filesystem::directory_iterator(sample_path(""))) {
    std::string text = read_file(entry.path().string());
    SCOPED_TRACE(entry.path().string());
    auto attempt = [&](const std::string& t) {
      try {
        parse_rtg(t, "fuzz.rtg");
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("fuzz.rtg"), std::string::npos) << e.what();
      }
    };
    for (size_t cut = 0; cut <= text.size(); ++cut) attempt(text.substr(0, cut));
    for (int i = 0; i < 300; ++i) {
      std::string t = text;
      size_t at = static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(t.size()) - 1));
      char c = junk[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(junk.size()) - 1))];
      if (rng.coin())
        t[at] = c;
      else
        t.insert(at, 1, c);
      attempt(t);
    }
  }
}

}  // namespace
}  // namespace retort
