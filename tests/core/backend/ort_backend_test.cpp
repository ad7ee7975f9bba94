// The built-in ONNX Runtime backends against the reference interpreter. Needs the Node packages
// of scripts/backends (scripts/setup.sh installs them); skipped only when they are missing.
#include <gtest/gtest.h>

#include <filesystem>
#include <limits>

#include "core/backend/backend_set.h"
#include "core/backend/family_env.h"
#include "core/backend/ref_backend.h"
#include "core/exec/inputs.h"
#include "core/io/rtg.h"
#include "tests/support/double_holds.h"

namespace retort {
namespace {

// Small integers in f32: every op here is exact, so ONNX Runtime must match bit for bit.
const char* kGraph =
    "input x : f32[2,3]\n"
    "input w : f32[3,2]\n"
    "a = matmul(x, w)\n"
    "b = relu(a)\n"
    "c = add(b, b)\n"
    "y = neg(c)\n"
    "z = greater(a, b)\n"
    "output y\n"
    "output z\n";

class OrtBackendTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(scripts_dir() + "/backends/node_modules/onnxruntime-node"))
      GTEST_SKIP() << "scripts/backends/node_modules is missing; run scripts/setup.sh";
    graph_ = parse_rtg(kGraph, "test.rtg");
    infer_graph(graph_);
    request_ = {.graph = &graph_,
                .onnx = {},
                .inputs = {{"x", Tensor::from_doubles(DType::f32, {2, 3}, {1, -2, 3, 0, 4, -1})},
                           {"w", Tensor::from_doubles(DType::f32, {3, 2}, {2, -1, 1, 0, -3, 5})}},
                .outputs = {}};
  }
  Graph graph_;
  RunRequest request_;
};

TEST_P(OrtBackendTest, GivesTheReferenceOutputs) {
  BackendSet set;
  Backend& ort = set.get(GetParam());
  RunResult r = ort.run(request_);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message << "\n" << r.stderr_tail;
  RunResult ref = RefBackend().run(request_);
  ASSERT_EQ(r.outputs.size(), 2u);
  EXPECT_EQ(r.outputs.at("y"), ref.outputs.at("y"));
  EXPECT_EQ(r.outputs.at("z"), ref.outputs.at("z"));
  EXPECT_EQ(r.outputs.at("z").dtype(), DType::boolean);
  BackendInfo info = ort.info();
  EXPECT_EQ(info.state, "ready");
  // The release the lock pins (scripts/backends/package.json), as the worker reports it.
  EXPECT_EQ(info.version, "onnxruntime " + default_version(*find_family("ort")));
  ASSERT_TRUE(r.compile_ms && r.run_ms);  // the worker times itself (docs/backend-protocol.md)
  EXPECT_GE(*r.compile_ms, 0);
  EXPECT_GT(*r.run_ms, 0);

  // An intermediate value, marked as an output for the worker, and asked for twice (`inspect`
  // does when two values share an e-class): the model lists it once.
  request_.outputs = {"a", "y", "a"};
  r = ort.run(request_);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  ref = RefBackend().run(request_);
  EXPECT_EQ(r.outputs.at("a"), ref.outputs.at("a"));
  EXPECT_EQ(r.outputs.at("y"), ref.outputs.at("y"));
}

INSTANTIATE_TEST_SUITE_P(Levels, OrtBackendTest, ::testing::Values("ort:O0", "ort:O3"),
                         [](const auto& info) { return std::string(info.param).substr(4); });

// Clip's bounds as ONNX Runtime receives them: an absent bound must not clip infinities to the
// largest float (ONNX's default), and integer bounds are ceil(min), floor(max) held in the dtype,
// not truncated (-1.625 -> -1) or wrapped (-1000 in i8 -> 24). Both were campaign findings.
TEST(OrtBackend, ClipBoundsMeanWhatTheReferenceSays) {
  if (!std::filesystem::exists(scripts_dir() + "/backends/node_modules/onnxruntime-node"))
    GTEST_SKIP() << "scripts/backends/node_modules is missing; run scripts/setup.sh";
  Graph g = parse_rtg(
      "input h : f16[4]\ninput f : f32[4]\ninput i : i64[4]\ninput b : i8[4]\n"
      "y1 = clip(h, min=0.75)\ny2 = clip(f, max=-0.5)\n"
      "y3 = clip(i, min=-1.25, max=-1.625)\ny4 = clip(b, min=-1000, max=2.5)\n"
      "output y1, y2, y3, y4\n",
      "clip.rtg");
  infer_graph(g);
  double inf = std::numeric_limits<double>::infinity();
  RunRequest req{.graph = &g,
                 .onnx = {},
                 .inputs = {{"h", Tensor::from_doubles(DType::f16, {4}, {inf, -inf, 1, 0})},
                            {"f", Tensor::from_doubles(DType::f32, {4}, {-inf, inf, -1, 0})},
                            {"i", Tensor::from_ints(DType::i64, {4}, {-5, -1, 0, 7})},
                            {"b", Tensor::from_ints(DType::i8, {4}, {-128, -1, 3, 127})}},
                 .outputs = {}};
  RunResult ref = RefBackend().run(req);
  ASSERT_EQ(ref.status, RunStatus::Ok) << ref.message;
  EXPECT_EQ(ref.outputs.at("y1").get(0), inf);
  EXPECT_EQ(ref.outputs.at("y3").get(0), -2);
  EXPECT_EQ(ref.outputs.at("y4").get(0), -128);
  BackendSet set;
  for (const char* level : {"ort:O0", "ort:O3"}) {
    RunResult r = set.get(level).run(req);
    ASSERT_EQ(r.status, RunStatus::Ok) << level << ": " << r.message;
    for (const char* y : {"y1", "y2", "y3", "y4"})
      EXPECT_EQ(r.outputs.at(y), ref.outputs.at(y)) << level << " " << y;
  }
}

// The wide plan's i64 values (past 2^53, at the ends) and the shape classes' sizes (a size-0 dim,
// a length of 65) reach the worker and come back unchanged, and its i64 add is exact past 2^53.
TEST(OrtBackend, WideValuesAndClassShapesReachTheWorkerUnchanged) {
  if (!std::filesystem::exists(scripts_dir() + "/backends/node_modules/onnxruntime-node"))
    GTEST_SKIP() << "scripts/backends/node_modules is missing; run scripts/setup.sh";
  Graph g = parse_rtg(
      "input a : i64[64]\ninput e : f32[0,3]\ninput v : f32[65]\n"
      "ya = identity(a)\nys = add(a, a)\nye = identity(e)\nyv = neg(v)\n"
      "output ya, ys, ye, yv\n",
      "wide.rtg");
  infer_graph(g);
  TensorMap in = generate_inputs(g, 11, nullptr, *parse_input_range("wide"));
  int past_double = 0;
  for (int64_t i = 0; i < 64; ++i) {
    int64_t v = in.at("a").get_int(i);
    past_double += !double_holds(v);
  }
  ASSERT_GT(past_double, 0);  // values a double cannot hold, so a trip through one would show
  RunRequest req{.graph = &g, .onnx = {}, .inputs = in, .outputs = {}};
  RunResult ref = RefBackend().run(req);
  ASSERT_EQ(ref.status, RunStatus::Ok) << ref.message;
  RunResult r = BackendSet().get("ort:O0").run(req);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_EQ(r.outputs.at("ya"), in.at("a"));
  EXPECT_EQ(r.outputs.at("ys"), ref.outputs.at("ys"));
  EXPECT_EQ(r.outputs.at("ye").type(), (TensorType{DType::f32, {0, 3}}));
  EXPECT_EQ(r.outputs.at("yv"), ref.outputs.at("yv"));
}

TEST(OrtBackend, ABadOptionIsAnErrorResult) {
  if (!std::filesystem::exists(scripts_dir() + "/backends/node_modules/onnxruntime-node"))
    GTEST_SKIP() << "scripts/backends/node_modules is missing; run scripts/setup.sh";
  BackendSet set;
  set.attach("bad-options", {"node", scripts_dir() + "/backends/ort_worker.js"}, 30,
             {{"opt_level", "maximal"}});
  Graph g = parse_rtg("input x : f32[2]\ny = neg(x)\noutput y\n", "t.rtg");
  infer_graph(g);
  RunResult r =
      set.get("bad-options")
          .run(
              {.graph = &g, .onnx = {}, .inputs = {{"x", Tensor(DType::f32, {2})}}, .outputs = {}});
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_NE(r.message.find("opt_level must be one of"), std::string::npos) << r.message;
}

// Models ONNX Runtime refuses on purpose, each on the model's own node: reflect padding beyond the
// axis, Slice of a scalar. They are outside what it implements (unsupported, never a finding),
// not errors.
TEST(OrtBackend, WhatItRefusesOnPurposeIsUnsupported) {
  if (!std::filesystem::exists(scripts_dir() + "/backends/node_modules/onnxruntime-node"))
    GTEST_SKIP() << "scripts/backends/node_modules is missing; run scripts/setup.sh";
  BackendSet set;
  for (const char* text : {"input x : f32[3,2]\ny = pad(x, mode=\"reflect\", pads=[0,0,0,2])\n"
                           "output y\n",
                           "input x : f32[]\ny = slice(x, starts=[], ends=[])\noutput y\n"}) {
    Graph g = parse_rtg(text, "t.rtg");
    infer_graph(g);
    TensorMap inputs{{"x", Tensor(g.inputs[0].type.dtype, g.inputs[0].type.shape)}};
    RunResult r = set.get("ort:O0").run({.graph = &g, .onnx = {}, .inputs = inputs, .outputs = {}});
    EXPECT_EQ(r.status, RunStatus::Unsupported) << text << r.message;
  }
}

// ONNX Runtime names the failing node by its name in the exported model (a generated graph's n0);
// the message reads it as the graph pane does, by the values it writes.
TEST(OrtBackend, ItsMessagesNameTheNodeAsThePanesDo) {
  if (!std::filesystem::exists(scripts_dir() + "/backends/node_modules/onnxruntime-node"))
    GTEST_SKIP() << "scripts/backends/node_modules is missing; run scripts/setup.sh";
  Graph g = parse_rtg("input x : f32[]\nv0 = slice(x, starts=[], ends=[])\noutput v0\n", "t.rtg");
  g.nodes[0].name = "n0";
  infer_graph(g);
  TensorMap inputs{{"x", Tensor(DType::f32, {})}};
  BackendSet set;
  RunResult r = set.get("ort:O0").run({.graph = &g, .onnx = {}, .inputs = inputs, .outputs = {}});
  ASSERT_NE(r.status, RunStatus::Ok);
  EXPECT_NE(r.message.find("Name:'v0'"), std::string::npos) << r.message;
  EXPECT_EQ(r.message.find("n0"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace retort
