// The shape ops survive an ONNX export and import: attributes that ONNX carries as inputs are
// written as initializers and folded back, and the re-imported graph computes the same values.
#include <gtest/gtest.h>

#include "core/io/onnx_io.h"
#include "tests/core/ops/op_test_util.h"

namespace retort {
namespace {

using namespace testing;
using Ints = std::vector<int64_t>;

struct Case {
  std::string op;
  Attrs attrs;
  size_t num_outputs = 1;
  std::vector<Tensor> inputs;
};

void expect_round_trip(const Case& c) {
  SCOPED_TRACE(c.op);
  Graph g = one_node_graph(c.op, types_of(c.inputs), c.attrs, c.num_outputs);
  TensorMap feed = one_node_feed(c.inputs);

  Graph back = import_onnx(export_onnx(g));
  ASSERT_EQ(back.nodes.size(), 1u);
  EXPECT_EQ(back.nodes[0].op, c.op);
  EXPECT_EQ(back.nodes[0].attrs, g.nodes[0].attrs);
  EXPECT_EQ(evaluate(back, feed), evaluate(g, feed));
}

TEST(ShapeOpsOnnx, EveryOpRoundTrips) {
  Tensor x = iota(DType::f32, {2, 3, 4});
  std::vector<Case> cases = {
      {"reshape", {{"shape", Ints{0, -1}}}, 1, {x}},
      {"reshape", {{"shape", Ints{4, 6}}, {"allowzero", int64_t{1}}}, 1, {x}},
      {"flatten", {{"axis", int64_t{-1}}}, 1, {x}},
      {"squeeze", {}, 1, {iota(DType::i64, {1, 3, 1})}},
      {"squeeze", {{"axes", Ints{-1}}}, 1, {iota(DType::i64, {1, 3, 1})}},
      {"unsqueeze", {{"axes", Ints{0, -1}}}, 1, {x}},
      {"transpose", {{"perm", Ints{0, 2, 1}}}, 1, {x}},
      {"transpose", {}, 1, {x}},
      {"concat", {{"axis", int64_t{-2}}}, 1, {x, iota(DType::f32, {2, 1, 4})}},
      {"split", {{"axis", int64_t{2}}}, 2, {x}},
      {"split", {{"axis", int64_t{1}}, {"split", Ints{1, 2}}}, 2, {x}},
      {"slice",
       {{"starts", Ints{-1, 0}},
        {"ends", Ints{INT64_MIN, 4}},
        {"axes", Ints{2, 1}},
        {"steps", Ints{-2, 2}}},
       1,
       {x}},
      {"slice", {{"starts", Ints{1}}, {"ends", Ints{2}}}, 1, {x}},
      {"pad",
       {{"pads", Ints{1, 0, -1, 0, 2, 1}}, {"constant_value", -7.0}},
       1,
       {iota(DType::i32, {2, 3, 4})}},
      {"pad", {{"pads", Ints{0, 1, 2, 0, 1, 2}}, {"mode", std::string("reflect")}}, 1, {x}},
      {"pad", {{"pads", Ints{0, 1, 2, 0, 1, 2}}, {"mode", std::string("edge")}}, 1, {x}},
      {"gather", {{"axis", int64_t{1}}}, 1, {x, ints(DType::i64, {2, 2}, {0, -1, 2, 1})}},
      {"gather_elements",
       {{"axis", int64_t{-1}}},
       1,
       {x, ints(DType::i32, {2, 2, 3}, {0, -1, 2, 1, 3, 0, 0, 0, 1, 2, 2, -4})}},
      {"scatter_elements",
       {{"axis", int64_t{1}}, {"reduction", std::string("add")}},
       1,
       {x, ints(DType::i64, {1, 2, 2}, {0, 2, 2, 2}), iota(DType::f32, {1, 2, 2})}},
      {"topk", {{"k", int64_t{2}}, {"axis", int64_t{1}}, {"largest", int64_t{0}}}, 2, {x}},
      {"expand", {{"shape", Ints{2, 1, 1, 4}}}, 1, {x}},
      {"tile", {{"repeats", Ints{1, 2, 3}}}, 1, {x}},
      {"shape", {{"start", int64_t{1}}, {"end", int64_t{-1}}}, 1, {x}},
      {"shape", {}, 1, {x}},
  };
  for (const Case& c : cases) expect_round_trip(c);
}

}  // namespace
}  // namespace retort
