#include "core/io/json_graph.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "core/base/rng.h"
#include "core/io/base64.h"
#include "core/io/graph_files.h"
#include "core/io/json_reader.h"
#include "core/io/rtg.h"
#include "core/tensor/random_tensor.h"
#include "tests/core/io/graph_test_util.h"

namespace retort {
namespace {

using nlohmann::json;
using testing::error_of;
using testing::expect_same_graph;

void expect_json_round_trip(const Graph& g) {
  json j = graph_to_json(g);
  expect_same_graph(g, graph_from_json(j));
  expect_same_graph(g, parse_json_graph(j.dump(2)));
  EXPECT_EQ(graph_to_json(parse_json_graph(j.dump())), j);
}

TEST(Base64, EncodesAndDecodesEveryLengthMod3) {
  const uint8_t bytes[] = {0x00, 0xff, 0x10, 0x80, 0x7f};
  EXPECT_EQ(base64_encode(bytes, 0), "");
  EXPECT_EQ(base64_encode(bytes, 1), "AA==");
  EXPECT_EQ(base64_encode(bytes, 2), "AP8=");
  EXPECT_EQ(base64_encode(bytes, 3), "AP8Q");
  EXPECT_EQ(base64_encode(bytes, 5), "AP8QgH8=");
  for (size_t n = 0; n <= 5; ++n)
    EXPECT_EQ(base64_decode(base64_encode(bytes, n)), std::vector<uint8_t>(bytes, bytes + n));
  EXPECT_EQ(error_of([] { base64_decode("AP8"); }),
            "base64 text has length 3, not a multiple of 4");
  EXPECT_EQ(error_of([] { base64_decode("AP*Q"); }), "invalid base64 character at position 2");
  EXPECT_EQ(error_of([] { base64_decode("A=8Q"); }), "invalid base64 character at position 1");
  EXPECT_EQ(error_of([] { base64_decode("AA=A"); }), "invalid base64 character at position 2");
}

TEST(JsonGraph, WritesTheDocumentedSchema) {
  Graph g = parse_rtg(
      "input x : f32[2]\nconst c : i8[2] = [1, -1]\ny = leaky_relu(x, alpha=0.5)\noutput y\n");
  json j = graph_to_json(g);
  EXPECT_EQ(j["format"], "retort-graph");
  EXPECT_EQ(j["version"], 1);
  EXPECT_EQ(j["name"], "main");
  EXPECT_EQ(j["inputs"], json::parse(R"([{"name":"x","dtype":"f32","shape":[2]}])"));
  EXPECT_EQ(j["constants"],
            json::parse(R"([{"name":"c","dtype":"i8","shape":[2],"data":"Af8="}])"));
  EXPECT_EQ(j["nodes"], json::parse(R"([{"name":"y","op":"leaky_relu","inputs":["x"],
      "outputs":["y"],"attrs":{"alpha":{"float":0.5}}}])"));
  EXPECT_EQ(j["outputs"], json::parse(R"(["y"])"));
}

TEST(JsonGraph, RoundTripsLosslessly) {
  Graph g;
  g.name = "everything";
  Rng rng(7);
  for (DType t : kAllDTypes) {
    std::string n(dtype_name(t));
    g.inputs.push_back({"in_" + n, {t, {2, 1, 3}}});
    g.constants.push_back({"c_" + n, random_tensor({t, {3, 2}}, rng), ""});
    g.outputs.push_back("c_" + n);
  }
  g.constants.push_back({"seeded", {}, "random(seed=4)"});
  Rng seeded(4);
  g.constants.back().value = random_tensor({DType::f32, {4}}, seeded);
  g.constants.push_back({"odd_floats",
                         Tensor::from_doubles(DType::f64, {4},
                                              {std::numeric_limits<double>::quiet_NaN(), -0.0,
                                               5e-324, -std::numeric_limits<double>::infinity()}),
                         ""});
  // A node whose name is not its first output, and every attribute kind.
  g.nodes.push_back({"the_cast", "cast", {"in_f32"}, {"h"}, {{"to", std::string("f16")}}, {}});
  g.nodes.push_back({"pieces", "split", {"in_f32"}, {"p", "q", "r"}, {{"axis", int64_t{2}}}, {}});
  OpaqueInfo info{"com.example", 3, {{DType::f32, {2}}, {DType::i64, {}}}};
  g.nodes.push_back({"op",
                     "Custom",
                     {"h", "", "p"},
                     {"o1", "o2"},
                     {{"i", int64_t{-3}},
                      {"f", 0.1},
                      {"nan", std::numeric_limits<double>::quiet_NaN()},
                      {"inf", std::numeric_limits<double>::infinity()},
                      {"s", std::string("a\"b\n")},
                      {"is", std::vector<int64_t>{1, -2, INT64_MAX}},
                      {"fs", std::vector<double>{1e-300, -std::numeric_limits<double>::infinity(),
                                                 0.30000000000000004}},
                      {"ss", std::vector<std::string>{"x", ""}},
                      {"empty", std::vector<double>{}}},
                     info});
  g.outputs.insert(g.outputs.end(), {"h", "q", "o1", "o2"});
  infer_graph(g);

  json j = graph_to_json(g);
  Graph back = parse_json_graph(j.dump(2));
  // NaN never equals itself, so compare the NaN attributes apart from the rest.
  EXPECT_TRUE(std::isnan(std::get<double>(back.find_node("op")->attrs.at("nan"))));
  for (Graph* each : {&g, &back}) each->nodes[2].attrs.erase("nan");
  expect_same_graph(g, back);
  EXPECT_EQ(std::get<std::vector<double>>(back.find_node("op")->attrs.at("fs"))[2],
            0.30000000000000004);
}

TEST(JsonGraph, RoundTripsParsedGraphs) {
  expect_json_round_trip(parse_rtg(R"(graph g
input x : f16[2,3]
const c : f16[3] = random(seed=2, low=-4, high=4)
t = add(x, c)
a, b = split(t, axis=1, split=[1,2])
u = cast(b, to=i64)
output a, u
)"));
}

std::string json_error(const std::string& text) {
  return error_of([&] { parse_json_graph(text, "g.json"); });
}

// A valid document with one part replaced.
std::string doc(const std::string& nodes, const std::string& extra = "") {
  return R"({"format":"retort-graph","version":1,"inputs":[{"name":"x","dtype":"f32","shape":[2,3]}],)" +
         extra + R"("nodes":)" + nodes + R"(,"outputs":["y"]})";
}

TEST(JsonGraph, ErrorsNameTheJsonPath) {
  EXPECT_EQ(json_error(R"({"format":"retort-graph","version":2,"outputs":[]})"),
            "g.json: version: this Retort reads retort-graph version 1 only, found 2");
  EXPECT_EQ(json_error(R"({"format":"onnx","version":1,"outputs":[]})"),
            "g.json: format: expected \"retort-graph\", found \"onnx\"");
  EXPECT_EQ(json_error(R"({"version":1,"outputs":[]})"), "g.json: (top): missing field 'format'");
  EXPECT_EQ(json_error(R"([1,2])"), "g.json: (top): expected an object, found array");
  EXPECT_EQ(json_error(doc(R"([{"name":"y","op":"transpose","inputs":["x"],"outputs":["y"],
      "attrs":{"perm":{"int":3}}}])")),
            "g.json: nodes[0].attrs.perm: expected ints for attribute 'perm' of op 'transpose', "
            "found int 3");
  EXPECT_EQ(json_error(doc(R"([{"name":"y","op":"concat","inputs":["x"],"outputs":["y"],
      "attrs":{"axis":{"int":"1"}}}])")),
            "g.json: nodes[0].attrs.axis.int: expected a 64-bit integer, found \"1\"");
  EXPECT_EQ(json_error(doc(R"([{"name":"y","op":"concat","inputs":["x"],"outputs":["y"],
      "attrs":{"axis":{"int":1.5}}}])")),
            "g.json: nodes[0].attrs.axis.int: expected a 64-bit integer, found 1.5");
  EXPECT_EQ(json_error(doc(R"([{"name":"y","op":"concat","inputs":["x"],"outputs":["y"],
      "attrs":{"axs":{"int":1}}}])")),
            "g.json: nodes[0].attrs.axs: op 'concat' has no attribute 'axs' (it has: axis)");
  EXPECT_EQ(json_error(doc(R"([{"name":"y","op":"concat","inputs":["x"],"outputs":["y"],
      "attrs":{"axis":{"number":1}}}])")),
            "g.json: nodes[0].attrs.axis: unknown attribute kind 'number' (known: int, float, "
            "string, ints, floats, strings)");
  EXPECT_EQ(json_error(doc(R"([{"name":"y","op":"concatt","inputs":["x"],"outputs":["y"]}])")),
            "g.json: nodes[0].op: unknown op 'concatt'; did you mean concat?");
  EXPECT_EQ(
      json_error(doc(R"([{"name":"y","op":"relu","inputs":["x"],"outputs":["y"],"atrs":{}}])")),
      "g.json: nodes[0]: unknown field 'atrs' (known: name, op, inputs, outputs, attrs, "
      "opaque)");
  EXPECT_EQ(json_error(doc(R"([{"name":"y","op":"relu","inputs":["x"]}])")),
            "g.json: nodes[0]: missing field 'outputs'");
  EXPECT_EQ(json_error(doc(R"([{"name":"y","op":"relu","inputs":[3],"outputs":["y"]}])")),
            "g.json: nodes[0].inputs[0]: expected a string, found number");
  EXPECT_EQ(
      json_error(doc(R"([{"name":"y","op":"relu","inputs":["x"],"outputs":["y"]}])",
                     R"("constants":[{"name":"c","dtype":"f32","shape":[2],"data":"AAAA"}],)")),
      "g.json: constants[0].data: expected 8 bytes for f32[2], found 3");
  EXPECT_EQ(json_error(doc(R"([{"name":"y","op":"relu","inputs":["x"],"outputs":["y"]}])",
                           R"("constants":[{"name":"c","dtype":"f31","shape":[2],"data":""}],)")),
            "g.json: constants[0].dtype: unknown dtype 'f31' (known: f32, f64, f16, bf16, i8, u8, "
            "i16, i32, i64, bool)");
  EXPECT_EQ(json_error(doc(R"([{"name":"y","op":"relu","inputs":["x"],"outputs":["y"]}])",
                           R"("constants":[{"name":"c","dtype":"f32","shape":[-2],"data":""}],)")),
            "g.json: constants[0].shape: dimension -2 is negative");
  EXPECT_EQ(
      json_error(doc(R"([{"name":"y","op":"relu","inputs":["x"],"outputs":["y"]}])",
                     R"("constants":[{"name":"c","dtype":"f32","shape":[1],"data":"AA*A"}],)")),
      "g.json: constants[0].data: invalid base64 character at position 2");
}

TEST(JsonGraph, InferenceErrorsNameTheNodeAndItsIndex) {
  EXPECT_EQ(json_error(doc(R"([{"name":"z","op":"relu","inputs":["x"],"outputs":["z"]},
      {"name":"y","op":"transpose","inputs":["z"],"outputs":["y"],"attrs":{"perm":{"ints":[0]}}}])")),
            "g.json: node 'y': nodes[1]: attribute 'perm' [0] has 1 entries, but the input has "
            "rank 2");
  EXPECT_EQ(json_error(doc(R"([{"name":"y","op":"relu","inputs":["q"],"outputs":["y"]}])")),
            "g.json: node 'y': nodes[0]: input 'q' is not defined");
}

TEST(JsonGraph, TheDocumentedExampleLoads) {
  std::string doc = read_file(std::string(RETORT_SOURCE_DIR) + "/docs/formats.md");
  size_t start = doc.find("```json\n");
  ASSERT_NE(start, std::string::npos);
  start += 8;
  Graph g = parse_json_graph(doc.substr(start, doc.find("```", start) - start), "formats.md");
  EXPECT_EQ(g.name, "demo");
  EXPECT_TRUE(g.find_constant("c")->value == Tensor::from_doubles(DType::f32, {3}, {1, 2, 3}));
  EXPECT_EQ(print_rtg(g, {.show_types = false}), R"(graph demo
input x : f32[2,3]
const c : f32[3] = [1.0, 2.0, 3.0]
const r : f32[2] = random(seed=3)
t = add(x, c)
l = leaky_relu(t, alpha=0.5)
o = opaque "com.example::MyOp@1"(l, _, mode="fast", sizes=[1,2]) : f32[2,3]
output l, o
)");
}

// Every prefix and many one-character corruptions of a document give an Error, nothing else.
TEST(JsonGraph, MalformedDocumentsGiveErrorsNotCrashes) {
  std::string text = graph_to_json(parse_rtg(R"(graph g
input x : f16[2,3]
const c : f16[3] = random(seed=2)
a, b = split(x, axis=1, split=[1,2])
u = cast(b, to=i64)
t = transpose(u, perm=[1,0])
output a, t
)"))
                         .dump();
  const std::string junk = "{}[]:,\"0123456789-.eE tfn\\x";
  Rng rng(99);
  auto attempt = [](const std::string& t) {
    try {
      parse_json_graph(t, "fuzz.json");
    } catch (const Error&) {
    }
  };
  for (size_t cut = 0; cut < text.size(); ++cut) attempt(text.substr(0, cut));
  for (int i = 0; i < 3000; ++i) {
    std::string t = text;
    size_t at = static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(t.size()) - 1));
    t[at] = junk[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(junk.size()) - 1))];
    attempt(t);
  }
}

TEST(JsonGraph, InvalidJsonGivesLineAndColumn) {
  EXPECT_EQ(json_error("{\n  \"format\": \"retort-graph\",\n  \"version\" 1\n}"),
            "g.json:3:13: invalid JSON: syntax error while parsing object separator - "
            "unexpected number literal; expected ':'");
}

TEST(JsonGraph, ANumberOutOfRangeIsALocatedError) {
  EXPECT_EQ(json_error("{\n  \"format\": \"retort-graph\",\n  \"version\": 1e400\n}"),
            "g.json:3:14: invalid JSON: number overflow parsing '1e400'");
}

// Parsing builds one value per bracket: a document nested deeper than the bound is refused at
// the bracket that goes too deep, before anything is built (16 MB of `[` once took 974 MB).
TEST(JsonGraph, NestingDeeperThanTheBoundIsALocatedError) {
  EXPECT_EQ(json_error("{\"a\":\n" + std::string(10 << 20, '[')),
            fmt::format("g.json:2:{}: invalid JSON: nested deeper than {} levels", kMaxJsonDepth,
                        kMaxJsonDepth));
  // Brackets inside strings, escaped quotes among them, are text, not nesting.
  std::string quoted = R"({"a": ")" + std::string(1000, '[') + R"(\"[[", "b": [[1]]})";
  EXPECT_EQ(parse_json_text(quoted, "q.json")["b"][0][0], 1);
  EXPECT_TRUE(parse_json_or_discarded(std::string(kMaxJsonDepth + 1, '[')).is_discarded());
  EXPECT_EQ(
      parse_json_or_discarded(std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']'))
          .size(),
      1u);
}

}  // namespace
}  // namespace retort
