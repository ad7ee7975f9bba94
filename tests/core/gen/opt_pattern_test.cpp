// OATest's patterns: every built-in one parses and types, names what its pass removes, and a
// malformed pattern file is an error at the line that is wrong.
#include "core/gen/opt_pattern.h"

#include <gtest/gtest.h>

#include "core/base/error.h"

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

// The library draws on two compilers' own tests: ONNX Runtime's optimizer tests and TVM's Relax
// transform tests (those patterns named tvm_*).
TEST(OptPattern, BuiltinsComeFromOnnxRuntimeAndTvmTests) {
  size_t ort = 0, tvm = 0;
  for (const OptPattern& p : builtin_opt_patterns()) {
    SCOPED_TRACE(p.name);
    bool from_tvm = p.source.starts_with(
        "https://github.com/apache/tvm/blob/main/tests/python/relax/test_transform_");
    bool from_ort = p.source.starts_with(
        "https://github.com/microsoft/onnxruntime/blob/main/onnxruntime/test/optimizer/");
    EXPECT_NE(from_tvm, from_ort);
    EXPECT_EQ(p.name.starts_with("tvm_"), from_tvm);
    ort += from_ort;
    tvm += from_tvm;
  }
  EXPECT_GE(ort, 15u);
  EXPECT_GE(tvm, 7u);
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
