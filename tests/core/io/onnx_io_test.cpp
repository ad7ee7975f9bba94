#include "core/io/onnx_io.h"
#include "core/io/rtg.h"

#include <cstring>
#include <filesystem>
#include <limits>

#include <gtest/gtest.h>

#include "core/base/rng.h"

namespace retort {
namespace {

// A minimal protobuf writer, so that tests can build TensorProtos with the typed fields that
// Retort itself never writes.
class ProtoWriter {
 public:
  ProtoWriter& varint(int field, uint64_t v) {
    key(field, 0);
    put_varint(v);
    return *this;
  }
  ProtoWriter& fixed32(int field, float f) {
    key(field, 5);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>(bits >> (8 * i)));
    return *this;
  }
  ProtoWriter& fixed64(int field, double d) {
    key(field, 1);
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>(bits >> (8 * i)));
    return *this;
  }
  ProtoWriter& bytes(int field, const std::string& s) {
    key(field, 2);
    put_varint(s.size());
    out_ += s;
    return *this;
  }
  const std::string& str() const { return out_; }

 private:
  void key(int field, int wire) { put_varint(static_cast<uint64_t>(field) << 3 | wire); }
  void put_varint(uint64_t v) {
    do {
      char byte = static_cast<char>(v & 0x7f);
      v >>= 7;
      if (v) byte = static_cast<char>(byte | 0x80);
      out_.push_back(byte);
    } while (v);
  }
  std::string out_;
};

// TensorProto field numbers (onnx.proto).
enum {
  kDims = 1,
  kDataType = 2,
  kFloatData = 4,
  kInt32Data = 5,
  kInt64Data = 7,
  kName = 8,
  kDoubleData = 10
};

TEST(OnnxTensor, RoundTripsEveryDType) {
  for (DType t : kAllDTypes) {
    Tensor x = Tensor::from_doubles(t, {2, 3}, {0, 1, -1, 2.5, 100, 7});
    std::string name;
    Tensor back = read_tensor_proto(write_tensor_proto(x, "x"), &name);
    EXPECT_EQ(back, x) << dtype_name(t);
    EXPECT_EQ(name, "x");
  }
}

TEST(OnnxTensor, ReadsTypedFields) {
  ProtoWriter f32;
  f32.varint(kDims, 2).varint(kDataType, 1).fixed32(kFloatData, 1.5f).fixed32(kFloatData, -2.0f);
  EXPECT_EQ(read_tensor_proto(f32.str()), Tensor::from_doubles(DType::f32, {2}, {1.5, -2.0}));

  ProtoWriter f64;
  f64.varint(kDataType, 11).fixed64(kDoubleData, 0.1);
  EXPECT_EQ(read_tensor_proto(f64.str()), Tensor::scalar(DType::f64, 0.1));

  ProtoWriter i64;
  i64.varint(kDims, 2)
      .varint(kDataType, 7)
      .varint(kInt64Data, 5)
      .varint(kInt64Data, static_cast<uint64_t>(-3));
  EXPECT_EQ(read_tensor_proto(i64.str()), Tensor::from_ints(DType::i64, {2}, {5, -3}));

  // int32_data also carries i8 (sign-extended), bool and the bits of f16 values.
  ProtoWriter i8;
  i8.varint(kDims, 2)
      .varint(kDataType, 3)
      .varint(kInt32Data, static_cast<uint64_t>(-7))
      .varint(kInt32Data, 100);
  EXPECT_EQ(read_tensor_proto(i8.str()), Tensor::from_ints(DType::i8, {2}, {-7, 100}));
  ProtoWriter b;
  b.varint(kDims, 3)
      .varint(kDataType, 9)
      .varint(kInt32Data, 1)
      .varint(kInt32Data, 0)
      .varint(kInt32Data, 1);
  EXPECT_EQ(read_tensor_proto(b.str()), Tensor::from_ints(DType::boolean, {3}, {1, 0, 1}));
  ProtoWriter f16;
  f16.varint(kDataType, 10).varint(kInt32Data, 0x3e00).bytes(kName, "h");  // 1.5 in half
  std::string name;
  EXPECT_EQ(read_tensor_proto(f16.str(), &name), Tensor::scalar(DType::f16, 1.5));
  EXPECT_EQ(name, "h");
  ProtoWriter bf16;
  bf16.varint(kDataType, 16).varint(kInt32Data, 0x3fc0);  // 1.5 in bfloat16
  EXPECT_EQ(read_tensor_proto(bf16.str()), Tensor::scalar(DType::bf16, 1.5));
}

TEST(OnnxTensor, RejectsMalformedData) {
  EXPECT_THROW(read_tensor_proto("\xff\xff\xff\xff"), Error);
  ProtoWriter short_data;
  short_data.varint(kDims, 3).varint(kDataType, 1).fixed32(kFloatData, 1.0f);
  EXPECT_THROW(read_tensor_proto(short_data.str()), Error);
  ProtoWriter negative_dim;
  negative_dim.varint(kDims, static_cast<uint64_t>(-2)).varint(kDataType, 1);
  EXPECT_THROW(read_tensor_proto(negative_dim.str()), Error);
  ProtoWriter huge;  // dims promising far more data than the file holds
  huge.varint(kDims, 1 << 30).varint(kDims, 1 << 30).varint(kDataType, 1).fixed32(kFloatData, 1.0f);
  EXPECT_THROW(read_tensor_proto(huge.str()), Error);
  ProtoWriter strings;
  strings.varint(kDataType, 8);
  EXPECT_THROW(read_tensor_proto(strings.str()), OnnxUnsupported);
}

// Two custom-domain ops and a constant: nothing here depends on which registry ops exist.
Graph opaque_graph() {
  Graph g;
  g.name = "opaque";
  g.inputs = {{"x", {DType::f32, {2, 3}}}};
  g.constants = {{"w", Tensor::from_doubles(DType::f32, {3}, {0.5, -1, 2}), ""}};
  Node mix;
  mix.name = "mix";
  mix.op = "Mix";
  mix.inputs = {"x", "w"};
  mix.outputs = {"y", "idx"};
  mix.attrs = {{"alpha", 0.5},
               {"mode", std::string("fast")},
               {"axes", std::vector<int64_t>{1, -2}},
               {"scales", std::vector<double>{0.25, 2.0}},
               {"names", std::vector<std::string>{"a", "b"}},
               {"count", int64_t{3}}};
  mix.opaque = OpaqueInfo{"com.example", 2, {{DType::f32, {3, 2}}, {DType::i64, {2}}}};
  Node post;
  post.name = "post";
  post.op = "Squash";
  post.inputs = {"y"};
  post.outputs = {"out"};
  post.opaque = OpaqueInfo{"com.example", 2, {{DType::f16, {6}}}};
  g.nodes = {post, mix};  // out of order on purpose: export sorts
  g.outputs = {"out", "idx"};
  infer_graph(g);
  return g;
}

void expect_same_graph(const Graph& a, const Graph& b) {
  ASSERT_EQ(a.inputs.size(), b.inputs.size());
  for (size_t i = 0; i < a.inputs.size(); ++i) {
    EXPECT_EQ(a.inputs[i].name, b.inputs[i].name);
    EXPECT_EQ(a.inputs[i].type, b.inputs[i].type);
  }
  ASSERT_EQ(a.constants.size(), b.constants.size());
  for (size_t i = 0; i < a.constants.size(); ++i) {
    EXPECT_EQ(a.constants[i].name, b.constants[i].name);
    EXPECT_EQ(a.constants[i].value, b.constants[i].value);
  }
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    const Node& x = a.nodes[i];
    const Node& y = b.nodes[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.op, y.op);
    EXPECT_EQ(x.inputs, y.inputs);
    EXPECT_EQ(x.outputs, y.outputs);
    EXPECT_EQ(x.attrs, y.attrs) << x.name;
    ASSERT_EQ(x.is_opaque(), y.is_opaque());
    if (x.is_opaque()) {
      EXPECT_EQ(x.opaque->domain, y.opaque->domain);
      EXPECT_EQ(x.opaque->version, y.opaque->version);
      EXPECT_EQ(x.opaque->output_types, y.opaque->output_types);
    }
  }
  EXPECT_EQ(a.outputs, b.outputs);
  EXPECT_EQ(a.types, b.types);
}

// ONNX cannot carry an empty list attribute: the transpose of a scalar (perm = []) is written
// without its perm, which means the same, and passes the checker (campaigns generate it).
TEST(OnnxIo, AnEmptyListAttributeIsLeftOut) {
  Graph g = parse_rtg("input x : f32[]\ny = transpose(x, perm=[])\noutput y\n");
  Graph back = import_onnx(export_onnx(g));
  EXPECT_EQ(back.nodes.at(0).op, "transpose");
  EXPECT_EQ(back.types.at("y").str(), "f32[]");
}

// ONNX reads an absent Clip bound as the dtype's limit; import writes it out so that the
// reference clips +inf to the largest float as ONNX does, and a round trip keeps that meaning.
TEST(OnnxIo, AnAbsentClipBoundIsTheDtypesLimit) {
  Graph g = parse_rtg(
      "input x : f16[2]\ninput n : i32[2]\ny = clip(x, min=0.5)\n"
      "z = clip(n, max=3)\noutput y, z\n",
      "t.rtg");
  infer_graph(g);
  Graph back = import_onnx(export_onnx(g));
  const Node& y = back.nodes[0];
  EXPECT_EQ(attr_float(y.attrs, "min"), 0.5);
  // Export wrote +inf for the absent max, so nothing is clipped at 65504.
  EXPECT_EQ(attr_float(y.attrs, "max"), std::numeric_limits<double>::infinity());
  // An integer bound is exported as the dtype's limit, which clips nothing.
  EXPECT_EQ(attr_float(back.nodes[1].attrs, "min"), -2147483648.0);
}

TEST(OnnxIo, OpaqueNodesSurviveARoundTrip) {
  Graph g = opaque_graph();
  OnnxImport back = import_onnx_model(export_onnx(g), "opaque.onnx");
  expect_same_graph(g, back.graph);
  EXPECT_EQ(back.opaque_reasons.count("mix"), 1u);
}

TEST(OnnxIo, UnnamedNodesGetFreshNames) {
  Graph g = opaque_graph();
  g.nodes[1].name = "";
  Graph back = import_onnx(export_onnx(g));
  EXPECT_NE(back.find_node("Squash_0"), nullptr);
  EXPECT_NE(back.find_node("mix"), nullptr);
}

TEST(OnnxIo, ExportRejectsClashingDomainVersions) {
  Graph g = opaque_graph();
  g.nodes[0].opaque->version = 3;
  try {
    export_onnx(g);
    FAIL() << "export accepted two versions of one domain";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("com.example"), std::string::npos) << e.what();
  }
}

TEST(OnnxIo, BrokenModelsGiveLocatedErrors) {
  try {
    import_onnx("this is not a model", "broken.onnx");
    FAIL() << "garbage was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("broken.onnx"), std::string::npos) << e.what();
  }
  EXPECT_THROW(import_onnx_file("/nonexistent/model.onnx"), Error);
}

TEST(OnnxIo, TruncatedAndCorruptedModelsNeverCrash) {
  const std::string bytes = export_onnx(opaque_graph());
  int rejected = 0;
  auto try_import = [&](const std::string& b) {
    try {
      import_onnx(b, "m.onnx");
    } catch (const Error&) {
      ++rejected;
    }
  };
  for (size_t n = 0; n < bytes.size(); n += 3) try_import(bytes.substr(0, n));
  Rng rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    std::string b = bytes;
    for (int k = 0; k < 3; ++k)
      b[rng.uniform_int(0, b.size() - 1)] = static_cast<char>(rng.uniform_int(0, 255));
    try_import(b);
  }
  EXPECT_GT(rejected, 0);
}

// A float tensor ValueInfoProto; a dimension below 0 is written as the symbolic dimension "n".
std::string value_info(const std::string& name, const std::vector<int64_t>& dims) {
  ProtoWriter shape;
  for (int64_t d : dims) {
    ProtoWriter dim;
    if (d < 0)
      dim.bytes(2, "n");
    else
      dim.varint(1, static_cast<uint64_t>(d));
    shape.bytes(1, dim.str());
  }
  ProtoWriter tensor;
  tensor.varint(1, 1);  // FLOAT
  if (!dims.empty()) tensor.bytes(2, shape.str());
  ProtoWriter type;
  type.bytes(1, tensor.str());
  return ProtoWriter().bytes(1, name).bytes(2, type.str()).str();
}

std::string node(const std::string& op, const std::vector<std::string>& inputs,
                 const std::string& output) {
  ProtoWriter n;
  for (const auto& in : inputs) n.bytes(1, in);
  return n.bytes(2, output).bytes(4, op).str();
}

// libonnx 1.12's Conv shape inference reads out of bounds when its input has rank 3 and its
// weight rank 4; Retort asks libonnx to type the unknown op before it, whose output has a
// symbolic dimension. This model crashed `load` with a segmentation fault; now the inference runs
// in a child process and its crash (it crashes here, but reading out of bounds need not) leaves an
// error.
TEST(OnnxIo, AModelThatCrashesOnnxShapeInferenceIsAnError) {
  ProtoWriter graph;
  graph.bytes(1, node("Mystery", {"x"}, "u"))
      .bytes(1, node("Conv", {"u", "w"}, "y"))
      .bytes(2, "g")
      .bytes(11, value_info("x", {1, 3, 8}))
      .bytes(11, value_info("w", {4, 3, 3, 3}))
      .bytes(12, value_info("y", {}))
      .bytes(13, value_info("u", {1, 3, -1}));
  std::string model = ProtoWriter()
                          .varint(1, 7)
                          .bytes(7, graph.str())
                          .bytes(8, ProtoWriter().bytes(1, "").varint(2, 13).str())
                          .str();
  try {
    import_onnx(model, "crash.onnx");
    FAIL() << "the model was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("crash.onnx"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Mystery"), std::string::npos) << e.what();
  }
}

TEST(OnnxIo, AClipWithoutBoundsClipsAtTheLargestFloat) {
  ProtoWriter graph;
  graph.bytes(1, node("Clip", {"x"}, "y"))
      .bytes(2, "g")
      .bytes(11, value_info("x", {2}))
      .bytes(12, value_info("y", {2}));
  std::string model = ProtoWriter()
                          .varint(1, 7)
                          .bytes(7, graph.str())
                          .bytes(8, ProtoWriter().bytes(1, "").varint(2, 13).str())
                          .str();
  Graph g = import_onnx(model, "clip.onnx");
  ASSERT_EQ(g.nodes.size(), 1u);
  double big = std::numeric_limits<float>::max();
  EXPECT_EQ(attr_float(g.nodes[0].attrs, "min"), -big);
  EXPECT_EQ(attr_float(g.nodes[0].attrs, "max"), big);
}

TEST(OnnxIo, SymbolicDimensionsAreNamed) {
  const std::string path =
      "/usr/share/libonnx-testdata/data/simple/test_sequence_model8/model.onnx";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "libonnx-testdata is not installed";
  try {
    import_onnx_file(path);
    FAIL() << "a symbolic dimension was accepted";
  } catch (const OnnxUnsupported& e) {
    EXPECT_NE(std::string(e.what()).find("dimension 'n' of input 'X' is symbolic"),
              std::string::npos)
        << e.what();
  }
}

std::string one_node_model(const std::string& node_proto, const std::string& in,
                           const std::string& out) {
  ProtoWriter graph;
  graph.bytes(1, node_proto)
      .bytes(2, "g")
      .bytes(11, value_info(in, {2, 3}))
      .bytes(12, value_info(out, {2, 3}));
  return ProtoWriter()
      .varint(1, 7)
      .bytes(7, graph.str())
      .bytes(8, ProtoWriter().bytes(1, "").varint(2, 13).str())
      .str();
}

// Issue 27: a known op with an attribute of the wrong type loaded as an unknown (opaque) op and
// failed later with a misleading error; now the load fails naming the node and the attribute.
TEST(OnnxIo, AKnownOpWithAWrongTypedAttributeFailsAtLoadNamingTheNode) {
  ProtoWriter perm;
  perm.bytes(1, "perm").fixed32(2, 1.5f).varint(20, 1);  // FLOAT, where Transpose takes INTS
  ProtoWriter n;
  n.bytes(1, "x").bytes(2, "y").bytes(3, "flip").bytes(4, "Transpose").bytes(5, perm.str());
  try {
    import_onnx(one_node_model(n.str(), "x", "y"), "typed.onnx");
    FAIL() << "a float perm was accepted";
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("typed.onnx"), std::string::npos) << what;
    EXPECT_NE(what.find("flip"), std::string::npos) << what;
    EXPECT_NE(what.find("attribute 'perm' is float; ONNX's Transpose takes ints"),
              std::string::npos)
        << what;
  }
}

// Issue 27: names from a model reached the terminal raw (info, eval, compare, hirfuzz calls);
// a graph whose names a terminal would act on is refused where every graph passes.
TEST(OnnxIo, NamesATerminalWouldActOnAreRefused) {
  for (const std::string& name : {std::string("y\x1b]2;owned\x07"), std::string("y\nforged line"),
                                  std::string("y\u202etxt.exe")}) {
    ProtoWriter n;
    n.bytes(1, "x").bytes(2, name).bytes(4, "Neg");
    try {
      import_onnx(one_node_model(n.str(), "x", name), "names.onnx");
      ADD_FAILURE() << "accepted " << name;
    } catch (const Error& e) {
      std::string what = e.what();
      EXPECT_NE(what.find("holds characters a terminal would act on"), std::string::npos) << what;
      EXPECT_EQ(what.find_first_of("\x1b\n"), std::string::npos) << what;
      EXPECT_EQ(what.find("\u202e"), std::string::npos) << what;
    }
  }
}

// GroupNormalization is above the exported opset 17: export writes a call of a function of the
// domain retort.ops whose body computes it in opset 17's ops, and import reads the call as
// group_norm again (the body's values: the transcript compare_group_norm).
TEST(OnnxIo, GroupNormTravelsAsAFunctionCall) {
  Graph g = parse_rtg(
      "input x : f32[2, 6, 3]\ninput s : f32[6]\ninput b : f32[6]\n"
      "y = group_norm(x, s, b, num_groups=3)\noutput y\n");
  infer_graph(g);
  std::string bytes = export_onnx(g);
  for (const char* expected : {"retort.ops", "GroupNormalization", "ReduceMean", "num_groups"})
    EXPECT_NE(bytes.find(expected), std::string::npos) << expected;
  Graph back = import_onnx(bytes);
  ASSERT_EQ(back.nodes.size(), 1u);
  EXPECT_EQ(back.nodes[0].op, "group_norm");
  EXPECT_EQ(attr_int(back.nodes[0].attrs, "num_groups"), 3);
  EXPECT_EQ(attr_float(back.nodes[0].attrs, "epsilon"), double{1e-5f});
}

// A ModelProto of one GroupNormalization node in ONNX's domain at `opset` (ProtoWriter's fields
// of onnx.proto): x f32[1, 4, 2], scale and bias of `params` elements, 2 groups.
std::string group_norm_model(int opset, int64_t params) {
  auto value_info = [](const std::string& name, std::vector<int64_t> dims) {
    ProtoWriter shape;
    for (int64_t d : dims) shape.bytes(1, ProtoWriter().varint(1, d).str());
    ProtoWriter tensor;
    tensor.varint(1, 1).bytes(2, shape.str());
    return ProtoWriter().bytes(1, name).bytes(2, ProtoWriter().bytes(1, tensor.str()).str()).str();
  };
  ProtoWriter node;
  node.bytes(1, "x").bytes(1, "s").bytes(1, "b").bytes(2, "y").bytes(3, "gn");
  node.bytes(4, "GroupNormalization");
  node.bytes(5, ProtoWriter().bytes(1, "num_groups").varint(3, 2).varint(20, 2).str());
  ProtoWriter graph;
  graph.bytes(1, node.str()).bytes(2, "g");
  graph.bytes(11, value_info("x", {1, 4, 2}))
      .bytes(11, value_info("s", {params}))
      .bytes(11, value_info("b", {params}))
      .bytes(12, value_info("y", {1, 4, 2}));
  ProtoWriter model;
  model.varint(1, 8).bytes(7, graph.str()).bytes(8, ProtoWriter().varint(2, opset).str());
  return model.str();
}

// Opset 21 has scale and bias per channel, as group_norm; opset 18's were per group, a meaning
// import leaves to an opaque node.
TEST(OnnxIo, GroupNormalizationImportsFromOpset21) {
  OnnxImport now = import_onnx_model(group_norm_model(21, 4), "gn21.onnx");
  ASSERT_EQ(now.graph.nodes.size(), 1u);
  EXPECT_EQ(now.graph.nodes[0].op, "group_norm");
  EXPECT_EQ(attr_int(now.graph.nodes[0].attrs, "num_groups"), 2);
  OnnxImport before = import_onnx_model(group_norm_model(18, 2), "gn18.onnx");
  ASSERT_EQ(before.graph.nodes.size(), 1u);
  EXPECT_TRUE(before.graph.nodes[0].is_opaque());
  EXPECT_EQ(before.opaque_reasons.at("gn"),
            "opset 18 predates version 21 of 'GroupNormalization', which Retort follows");
}

}  // namespace
}  // namespace retort
