#include "app/op_help.h"

#include <algorithm>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/ops/registry.h"

namespace retort {
namespace {

// A hand-made op, so that every part of the text is checked independently of the real ops.
OpDef sample_op() {
  OpDef op;
  op.name = "frob";
  op.doc = "Frobnicates.";
  op.input_names = {"x", "scale", "bias"};
  op.min_inputs = 2;
  op.max_inputs = 3;
  op.attrs.resize(3);
  op.attrs[0].name = "axis";
  op.attrs[0].default_value = AttrValue{int64_t{-1}};
  op.attrs[0].doc = "the axis";
  op.attrs[1].name = "to";
  op.attrs[1].kind = AttrKind::DType;
  op.attrs[1].required = true;
  op.attrs[1].doc = "result dtype";
  op.attrs[2].name = "pads";
  op.attrs[2].kind = AttrKind::Ints;
  op.attrs[2].onnx = false;
  op.onnx.op_type = "Frob";
  op.onnx.since_opset = 14;
  op.onnx.attr_inputs.push_back({.attr = "pads", .index = 3});
  op.input_domains = {ValueDomain::Any, ValueDomain::Positive};
  op.tags = {"elementwise", "binary"};
  return op;
}

TEST(OpHelp, DescribesEveryPartOfTheDefinition) {
  EXPECT_EQ(op_help_text(sample_op()),
            "op frob\n"
            "  Frobnicates.\n"
            "inputs (2 to 3):\n"
            "  x\n"
            "  scale  values: positive\n"
            "  bias (optional)\n"
            "attributes:\n"
            "  axis: int = -1  the axis\n"
            "  to: dtype (required)  result dtype\n"
            "  pads: ints (optional) [not an ONNX attribute]\n"
            "outputs: 1\n"
            "onnx: Frob (opset 14); pads as input 3\n"
            "tags: elementwise, binary\n");
}

TEST(OpHelp, RetortOnlyAndVariadicOps) {
  OpDef op;
  op.name = "gather_all";
  op.input_names = {"inputs"};
  op.min_inputs = 1;
  op.max_inputs = -1;
  op.num_outputs = -1;
  EXPECT_EQ(op_help_text(op),
            "op gather_all\n"
            "inputs (1 or more):\n"
            "  inputs\n"
            "attributes: none\n"
            "outputs: as many as the node names\n"
            "onnx: none (Retort only)\n");
}

TEST(OpHelp, ListHasOneLinePerRegisteredOp) {
  std::string list = op_list_text();
  size_t n = OpRegistry::instance().all().size();
  if (n == 0) {
    EXPECT_EQ(list, "no ops are registered\n");
    return;
  }
  EXPECT_EQ(static_cast<size_t>(std::count(list.begin(), list.end(), '\n')), n + 1);
  EXPECT_EQ(list.rfind(fmt::format("{} ops:\n", n), 0), 0u);
}

}  // namespace
}  // namespace retort
