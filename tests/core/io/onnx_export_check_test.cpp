// Every model Retort exports must pass the ONNX checker's full check (the checker and ONNX's
// strict shape inference with type checks, as onnx.checker.check_model(m, full_check=True)), and
// follow the spec where the checker does not look (no pads beside auto_pad).
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/gen/graph_gen.h"
#include "core/io/onnx_io.h"
#include "core/io/rtg.h"
#include "core/ops/registry.h"

namespace retort {
namespace {

bool pads_beside_auto_pad(const Graph& g) {
  for (const Node& n : g.nodes) {
    auto mode = n.attrs.find("auto_pad");
    if (mode != n.attrs.end() && std::get<std::string>(mode->second) != "NOTSET" &&
        n.attrs.count("pads"))
      return true;
  }
  return false;
}

// The reference reads zero pads beside SAME_UPPER as none; ONNX forbids writing both.
TEST(OnnxExportCheck, PadsBesideAutoPadAreLeftOut) {
  Graph g = parse_rtg(
      "input x : f32[1,1,5,5]\ninput w : f32[1,1,3,3]\n"
      "y = conv(x, w, auto_pad=\"SAME_UPPER\", pads=[0,0,0,0])\n"
      "z = max_pool(x, kernel_shape=[2,2], auto_pad=\"SAME_LOWER\", pads=[0,0,0,0])\n"
      "output y, z\n",
      "t.rtg");
  infer_graph(g);
  ASSERT_TRUE(pads_beside_auto_pad(g));
  Graph back = import_onnx(export_onnx(g));
  EXPECT_FALSE(pads_beside_auto_pad(back));
  EXPECT_EQ(back.types.at("y").str(), "f32[1,1,5,5]");
  EXPECT_EQ(back.types.at("z").str(), "f32[1,1,5,5]");
}

// Graphs generated from each registry op alone, with every dtype: all of them export and pass the
// full check, with no pads beside auto_pad.
TEST(OnnxExportCheck, GeneratedGraphsOfEveryOpPassTheFullCheck) {
  size_t exported = 0;
  for (const OpDef* op : OpRegistry::instance().all()) {
    if (op->onnx.op_type.empty() || op->onnx.since_opset > kOnnxExportOpset) continue;
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      GenOptions options;
      options.min_nodes = 1;
      options.max_nodes = 3;
      options.ops = {op->name};
      Graph g;
      try {
        g = generate_graph(options, seed);
      } catch (const Error&) {
        break;  // the op cannot stand alone (it needs an input only another op makes)
      }
      std::string bytes;
      try {
        bytes = export_onnx(g);
      } catch (const Error& e) {
        ADD_FAILURE() << op->name << " seed " << seed << ": " << e.what() << "\n" << print_rtg(g);
        continue;
      }
      ++exported;
      EXPECT_FALSE(pads_beside_auto_pad(import_onnx(bytes))) << op->name << " seed " << seed;
    }
  }
  EXPECT_GT(exported, 500u);
}

}  // namespace
}  // namespace retort
