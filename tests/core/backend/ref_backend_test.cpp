#include "core/backend/ref_backend.h"

#include <gtest/gtest.h>

#include "core/io/rtg.h"

namespace retort {
namespace {

Graph parse(const char* text) {
  Graph g = parse_rtg(text, "test.rtg");
  infer_graph(g);
  return g;
}

TEST(RefBackend, RunsTheGraphOutputsByDefault) {
  Graph g = parse("input x : f32[2]\nt = neg(x)\ny = add(t, x)\noutput y\n");
  RefBackend ref;
  RunRequest request{.graph = &g,
                     .onnx = {},
                     .inputs = {{"x", Tensor::from_doubles(DType::f32, {2}, {1, 2})}},
                     .outputs = {}};
  RunResult r = ref.run(request);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs.at("y").get(1), 0.0);
}

TEST(RefBackend, ReturnsRequestedIntermediates) {
  Graph g = parse("input x : f32[2]\nt = neg(x)\ny = add(t, x)\noutput y\n");
  RefBackend ref;
  RunRequest request{.graph = &g,
                     .onnx = {},
                     .inputs = {{"x", Tensor::from_doubles(DType::f32, {2}, {1, 2})}},
                     .outputs = {"t"}};
  RunResult r = ref.run(request);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_EQ(r.outputs.at("t").get(0), -1.0);
  EXPECT_EQ(r.outputs.count("y"), 0u);
}

TEST(RefBackend, AMissingInputIsAnErrorResultNotAnException) {
  Graph g = parse("input x : f32[2]\ny = neg(x)\noutput y\n");
  RefBackend ref;
  RunResult r = ref.run({.graph = &g, .onnx = {}, .inputs = {}, .outputs = {}});
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_NE(r.message.find("x"), std::string::npos);
  EXPECT_EQ(run_status_name(r.status), "error");
}

}  // namespace
}  // namespace retort
