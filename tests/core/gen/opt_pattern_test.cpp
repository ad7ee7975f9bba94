// OATest's patterns: every built-in one parses and types, names what its pass removes, and a
// malformed pattern file is an error at the line that is wrong.
#include "core/gen/opt_pattern.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/ops/attrs.h"

namespace retort {
namespace {

const char* kBody =
    "graph p\n"
    "input x : f32[2,3]\n"
    "y = relu(x)\n"
    "z = neg(y)\n"
    "output z\n";

std::string with_front(const std::string& fires) {
  return "# A test pattern.\n# pass: P\n# test: T\n# source: S\n# fires: " + fires + "\n" + kBody;
}

TEST(OptPattern, BuiltinsParseAndNameWhatTheirPassRemoves) {
  const auto& all = builtin_opt_patterns();
  EXPECT_GE(all.size(), 22u);
  for (const OptPattern& p : all) {
    SCOPED_TRACE(p.name);
    EXPECT_FALSE(p.pass.empty());
    EXPECT_FALSE(p.test.empty());
    EXPECT_NE(p.source.find("https://"), std::string::npos);
    ASSERT_FALSE(p.fires.empty());
    EXPECT_FALSE(p.graph.inputs.empty());
    EXPECT_FALSE(p.graph.types.empty());  // typed
    EXPECT_EQ(&get_opt_pattern(p.name), &p);
  }
}

// The library draws on compilers' own tests: ONNX Runtime's optimizer tests, TVM's Relax
// transform tests (those patterns named tvm_*) and Inductor's fused-attention tests (sdpa, the
// attention-shaped subgraph of its scaled-dot-product rewrite).
TEST(OptPattern, BuiltinsComeFromCompilerTests) {
  size_t ort = 0, tvm = 0, inductor = 0;
  for (const OptPattern& p : builtin_opt_patterns()) {
    SCOPED_TRACE(p.name);
    bool from_tvm = p.source.starts_with(
        "https://github.com/apache/tvm/blob/main/tests/python/relax/test_transform_");
    bool from_ort = p.source.starts_with(
        "https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/test/optimizer/");
    bool from_inductor = p.source.starts_with(
        "https://github.com/pytorch/pytorch/blob/main/test/inductor/test_fused_attention.py");
    EXPECT_EQ(from_tvm + from_ort + from_inductor, 1);
    EXPECT_EQ(p.name.starts_with("tvm_"), from_tvm);
    ort += from_ort;
    tvm += from_tvm;
    inductor += from_inductor;
  }
  EXPECT_GE(ort, 15u);
  EXPECT_GE(tvm, 7u);
  EXPECT_EQ(inductor, 1u);
}

// The sdpa pattern is attention written out over [batch, heads, seq, d]: the key transposed on
// its last two axes, Q K^T divided by sqrt(d), softmax along the last axis, times V.
TEST(OptPattern, SdpaIsAttentionShaped) {
  const OptPattern& p = get_opt_pattern("sdpa");
  std::vector<std::string> ops;
  for (const Node& n : p.graph.nodes) ops.push_back(n.op);
  EXPECT_EQ(ops, (std::vector<std::string>{"transpose", "matmul", "div", "softmax", "matmul"}));
  EXPECT_EQ(attr_ints(p.graph.nodes[0].attrs, "perm"), (std::vector<int64_t>{0, 1, 3, 2}));
  EXPECT_EQ(attr_int(p.graph.nodes[3].attrs, "axis"), -1);
  EXPECT_EQ(p.graph.type_of("y"), (TensorType{DType::f32, {2, 3, 5, 4}}));
  EXPECT_EQ(p.fires, (std::vector<std::string>{"transpose", "div"}));
}

TEST(OptPattern, FrontMatterIsRead) {
  OptPattern p = parse_opt_pattern(with_front("relu, neg"), "t.rtg");
  EXPECT_EQ(p.name, "p");
  EXPECT_EQ(p.pass, "P");
  EXPECT_EQ(p.test, "T");
  EXPECT_EQ(p.source, "S");
  EXPECT_EQ(p.fires, (std::vector<std::string>{"relu", "neg"}));
}

TEST(OptPattern, ErrorsNameTheLine) {
  auto line_of = [](const std::string& text) {
    try {
      parse_opt_pattern(text, "t.rtg");
    } catch (const Error& e) {
      EXPECT_EQ(e.loc().file, "t.rtg");
      return e.loc().line;
    }
    ADD_FAILURE() << "no error for:\n" << text;
    return -1;
  };
  EXPECT_EQ(line_of(with_front("nosuchop")), 5);
  EXPECT_EQ(line_of(with_front("add")), 5);  // an op the pattern does not use
  EXPECT_EQ(line_of(with_front(",")), 5);
  EXPECT_EQ(line_of(std::string("# pass: P\n") + kBody), 1);  // no test, source, fires
  EXPECT_EQ(line_of(with_front("relu") + "w = bogus(z)\n"), 11);
  EXPECT_THROW(get_opt_pattern("nope"), Error);
}

}  // namespace
}  // namespace retort
