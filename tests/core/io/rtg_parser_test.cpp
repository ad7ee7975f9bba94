#include <gtest/gtest.h>

#include "core/base/rng.h"
#include "core/io/rtg.h"
#include "core/tensor/random_tensor.h"
#include "tests/core/io/graph_test_util.h"

namespace retort {
namespace {

using testing::error_of;

std::string parse_error(const std::string& text) {
  return error_of([&] { parse_rtg(text, "t.rtg"); });
}

TEST(RtgParser, ReadsInputsConstantsNodesAndOutputs) {
  Graph g = parse_rtg(R"(graph demo
# a comment line, then a blank line

input x : f32[1,2,30,40]   # trailing comment
const c : f32[40] = random(seed=3)
t = add(x, c)
a, b = split(t, axis=1, parts=2)
y = reshape(a, shape=[2,-1])
output t, a
output y
)",
                      "t.rtg");
  EXPECT_EQ(g.name, "demo");
  ASSERT_EQ(g.inputs.size(), 1u);
  EXPECT_EQ(g.inputs[0].type, (TensorType{DType::f32, {1, 2, 30, 40}}));
  ASSERT_EQ(g.constants.size(), 1u);
  Rng rng(3);
  EXPECT_TRUE(g.constants[0].value == random_tensor({DType::f32, {40}}, rng));
  EXPECT_EQ(g.constants[0].init_text, "random(seed=3)");
  ASSERT_EQ(g.nodes.size(), 3u);
  EXPECT_EQ(g.nodes[1].name, "a");
  EXPECT_EQ(g.nodes[1].outputs, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(attr_int(g.nodes[1].attrs, "parts"), 2);
  EXPECT_EQ(attr_ints(g.nodes[2].attrs, "shape"), (std::vector<int64_t>{2, -1}));
  EXPECT_EQ(g.outputs, (std::vector<std::string>{"t", "a", "y"}));
  EXPECT_EQ(g.type_of("y"), (TensorType{DType::f32, {2, 600}}));
}

TEST(RtgParser, ConstantInitialisers) {
  Graph g = parse_rtg(R"(
const r : f32[2,3] = random(seed=3, low=-2, high=2)
const f : i32[4] = fill(7)
const flat : f64[2,2] = [1.0, 2, -0.5, 1e-3]
const nested : f64[2,2] = [[1.0, 2], [-0.5, 1e-3]]
const s : f32[] = 2.5
const h : f16[3] = [0.1, inf, -inf]
const b : bool[3] = [true, false, 1]
const n : i8[2] = [-128, 127]
output r, f, flat, nested, s, h, b, n
)");
  Rng rng(3);
  EXPECT_TRUE(g.find_constant("r")->value == random_tensor_in({DType::f32, {2, 3}}, rng, -2, 2));
  EXPECT_EQ(g.find_constant("r")->init_text, "random(seed=3, low=-2, high=2)");
  EXPECT_TRUE(g.find_constant("f")->value == Tensor::from_ints(DType::i32, {4}, {7, 7, 7, 7}));
  EXPECT_EQ(g.find_constant("f")->init_text, "fill(7)");
  EXPECT_TRUE(g.find_constant("flat")->value == g.find_constant("nested")->value);
  EXPECT_EQ(g.find_constant("flat")->value.get(3), 1e-3);
  EXPECT_EQ(g.find_constant("flat")->init_text, "");
  EXPECT_EQ(g.find_constant("s")->value.get(0), 2.5);
  EXPECT_EQ(g.find_constant("s")->value.rank(), 0);
  const Tensor& h = g.find_constant("h")->value;
  EXPECT_EQ(h.get(0), 0.0999755859375);  // the f16 nearest 0.1
  EXPECT_EQ(h.get(1), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(g.find_constant("b")->value == Tensor::from_ints(DType::boolean, {3}, {1, 0, 1}));
  EXPECT_TRUE(g.find_constant("n")->value == Tensor::from_ints(DType::i8, {2}, {-128, 127}));
}

TEST(RtgParser, AttributeKinds) {
  Graph g = parse_rtg(R"(input x : f32[2,3]
t = transpose(x, perm=[1,0])
h = cast(t, to=f16)
l = leaky_relu(x, alpha=0.5)
e = elu(x, alpha=1)
output h, l, e
)");
  EXPECT_EQ(attr_ints(g.find_node("t")->attrs, "perm"), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(attr_dtype(g.find_node("h")->attrs, "to"), DType::f16);
  EXPECT_EQ(g.type_of("h"), (TensorType{DType::f16, {3, 2}}));
  EXPECT_EQ(attr_float(g.find_node("l")->attrs, "alpha"), 0.5);
  // An int literal is accepted where a float is expected and stored as a float.
  EXPECT_TRUE(std::holds_alternative<double>(g.find_node("e")->attrs.at("alpha")));
}

TEST(RtgParser, OptionalInputsAndStringAttributes) {
  Graph g = parse_rtg(R"(input a : f32[2,3]
input b : f32[3,4]
y = gemm(a, b, _, alpha=2.0)
z = einsum(a, b, equation="ij,jk->ik")
output y, z
)");
  EXPECT_EQ(g.find_node("y")->inputs, (std::vector<std::string>{"a", "b", ""}));
  EXPECT_EQ(attr_float(g.find_node("y")->attrs, "alpha"), 2.0);
  EXPECT_EQ(attr_string(g.find_node("z")->attrs, "equation"), "ij,jk->ik");
  EXPECT_EQ(g.type_of("y"), (TensorType{DType::f32, {2, 4}}));
  EXPECT_EQ(g.type_of("z"), (TensorType{DType::f32, {2, 4}}));
  EXPECT_EQ(print_rtg(g, {.show_types = false}), R"(input a : f32[2,3]
input b : f32[3,4]
y = gemm(a, b, _, alpha=2.0)
z = einsum(a, b, equation="ij,jk->ik")
output y, z
)");
}

TEST(RtgParser, StatementsMaySpanLinesInsideBrackets) {
  Graph g = parse_rtg("const c : i32[2,2] = [\n  [1, 2],\n  [3, 4]\n]\noutput c\n");
  EXPECT_TRUE(g.find_constant("c")->value == Tensor::from_ints(DType::i32, {2, 2}, {1, 2, 3, 4}));
}

TEST(RtgParser, KeywordsAndQuotedNamesAreValueNames) {
  Graph g = parse_rtg(R"(input input : f32[2]
output = relu(input)
`onnx::Add_3`, `2` = split(output, parts=2)
output output, `onnx::Add_3`
)");
  EXPECT_EQ(g.inputs[0].name, "input");
  EXPECT_EQ(g.nodes[0].name, "output");
  EXPECT_EQ(g.nodes[1].outputs, (std::vector<std::string>{"onnx::Add_3", "2"}));
  EXPECT_EQ(g.outputs, (std::vector<std::string>{"output", "onnx::Add_3"}));
}

TEST(RtgParser, OpaqueOpsDeclareTheirOutputTypes) {
  Graph g = parse_rtg(R"(input x : f32[2,3]
y, k = opaque "com.example::MyOp@4"(x, _, alpha=1, beta=0.5, mode="fast", sizes=[1,2], scales=[1, 2.5], tags=["a"]) : f32[2,3], i64[]
z = opaque "Plain"(y) : f32[6]
output y, k, z
)");
  const Node* n = g.find_node("y");
  ASSERT_TRUE(n && n->is_opaque());
  EXPECT_EQ(n->op, "MyOp");
  EXPECT_EQ(n->opaque->domain, "com.example");
  EXPECT_EQ(n->opaque->version, 4);
  EXPECT_EQ(g.find_node("z")->opaque->version, 0);
  EXPECT_EQ(n->inputs, (std::vector<std::string>{"x", ""}));
  EXPECT_EQ(n->opaque->output_types[1], (TensorType{DType::i64, {}}));
  EXPECT_EQ(std::get<int64_t>(n->attrs.at("alpha")), 1);
  EXPECT_EQ(std::get<double>(n->attrs.at("beta")), 0.5);
  EXPECT_EQ(std::get<std::string>(n->attrs.at("mode")), "fast");
  EXPECT_EQ(std::get<std::vector<int64_t>>(n->attrs.at("sizes")), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(std::get<std::vector<double>>(n->attrs.at("scales")), (std::vector<double>{1.0, 2.5}));
  EXPECT_EQ(std::get<std::vector<std::string>>(n->attrs.at("tags")),
            (std::vector<std::string>{"a"}));
  EXPECT_EQ(g.find_node("z")->opaque->domain, "");
  EXPECT_EQ(g.type_of("z"), (TensorType{DType::f32, {6}}));
}

TEST(RtgParser, SyntaxErrorsSayWhereAndWhatWasExpected) {
  EXPECT_EQ(parse_error("input x : f32[2,3]\ny = relu(x x)\noutput y\n"),
            "t.rtg:2:12: expected ')' after the arguments of 'relu', found 'x'");
  EXPECT_EQ(parse_error("input x f32[2]\n"),
            "t.rtg:1:9: expected ':' after input name 'x', found 'f32'");
  EXPECT_EQ(parse_error("input x : f32\n"),
            "t.rtg:1:14: expected '[' after dtype 'f32' (a scalar is f32[]), found end of line");
  EXPECT_EQ(parse_error("input x : f33[2]\n"),
            "t.rtg:1:11: unknown dtype 'f33' (known: f32, f64, f16, bf16, i8, u8, i16, i32, i64, "
            "bool)");
  EXPECT_EQ(parse_error("input x : f32[2,-3]\n"), "t.rtg:1:17: dimension -3 is negative");
  EXPECT_EQ(parse_error("input x : f32[1,1,1,1,1,1,1]\n"),
            "t.rtg:1:11: f32[1,1,1,1,1,1,1]: rank 7 is above the maximum rank 6");
  EXPECT_EQ(parse_error("input x : f32[2] extra\n"),
            "t.rtg:1:18: expected end of line after the statement, found 'extra'");
  EXPECT_EQ(parse_error("input x : f32[2]\ny = relu(x\noutput y\n"),
            "t.rtg:3:1: expected ')' after the arguments of 'relu', found 'output'");
  EXPECT_EQ(parse_error("y relu(x)\n"),
            "t.rtg:1:3: expected '=' after the output names, found 'relu'");
  EXPECT_EQ(parse_error("input x : f32[2]\ny = leaky_relu(x, alpha=1, x)\noutput y\n"),
            "t.rtg:2:28: inputs come before attributes in the arguments of 'leaky_relu', found 'x' "
            "after an attribute");
  EXPECT_EQ(parse_error("input x : f32[2] $\n"), "t.rtg:1:18: unexpected character '$'");
  EXPECT_EQ(parse_error("y = opaque \"My\n"),
            "t.rtg:1:12: unterminated string (a string must end with \" on the same line)");
  EXPECT_EQ(parse_error("const c : i64[] = 99999999999999999999\n"),
            "t.rtg:1:19: integer '99999999999999999999' is out of range for 64 bits");
  EXPECT_EQ(parse_error("const c : f64[] = 1e999\n"),
            "t.rtg:1:19: number '1e999' is out of range for f64");
  EXPECT_EQ(parse_error("const c : f64[] = 2x\n"), "t.rtg:1:19: malformed number '2x'");
  EXPECT_EQ(parse_error("input x : f32[2]\n"),
            "t.rtg:2:1: the graph has no `output` statement (write e.g. `output y`)");
  EXPECT_EQ(parse_error("input x : f32[2]\ngraph g\noutput x\n"),
            "t.rtg:2:7: `graph NAME` must be the first statement");
}

TEST(RtgParser, NameErrors) {
  EXPECT_EQ(parse_error("input x : f32[2]\ny = add(x, q)\noutput y\n"),
            "t.rtg:2:12: undefined value 'q' (define it with input, const or an earlier "
            "statement)");
  EXPECT_EQ(parse_error("input x : f32[2]\nx = relu(x)\noutput x\n"),
            "t.rtg:2:1: 'x' is already defined (at line 1)");
  EXPECT_EQ(parse_error("input x : f32[2]\nconst x : f32[2] = fill(1)\noutput x\n"),
            "t.rtg:2:7: 'x' is already defined (at line 1)");
  EXPECT_EQ(parse_error("input x : f32[4]\na, a = split(x, parts=2)\noutput a\n"),
            "t.rtg:2:4: 'a' is already defined (at line 2)");
  EXPECT_EQ(parse_error("input x : f32[2]\ny = relu(y)\noutput y\n"),
            "t.rtg:2:10: undefined value 'y' (define it with input, const or an earlier "
            "statement)");
  EXPECT_EQ(parse_error("input x : f32[2]\noutput x, q\n"),
            "t.rtg:2:11: undefined value 'q' (define it with input, const or an earlier "
            "statement)");
  EXPECT_EQ(parse_error("input x : f32[2]\noutput x\noutput x\n"),
            "t.rtg:3:8: 'x' is already an output");
  EXPECT_EQ(parse_error("input _ : f32[2]\n"),
            "t.rtg:1:7: expected a value name after 'input', found '_'");
}

TEST(RtgParser, OpAndAttributeErrorsComeFromTheRegistry) {
  EXPECT_EQ(parse_error("input x : f32[2]\ny = addd(x, x)\noutput y\n"),
            "t.rtg:2:5: unknown op 'addd'; did you mean add?");
  EXPECT_EQ(parse_error("input x : f32[2,3]\ny = transpose(x, prem=[1,0])\noutput y\n"),
            "t.rtg:2:18: op 'transpose' has no attribute 'prem' (it has: perm)");
  EXPECT_EQ(parse_error("input x : f32[2]\ny = relu(x, alpha=1)\noutput y\n"),
            "t.rtg:2:13: op 'relu' takes no attribute, got 'alpha'");
  EXPECT_EQ(parse_error("input x : f32[2,3]\ny = transpose(x, perm=1)\noutput y\n"),
            "t.rtg:2:23: attribute 'perm' of op 'transpose' expects a list of ints such as "
            "[0,2,1], found 1");
  EXPECT_EQ(parse_error("input x : f32[2,3]\ny = concat(x, x, axis=0.5)\noutput y\n"),
            "t.rtg:2:23: attribute 'axis' of op 'concat' expects an int, found 0.5");
  EXPECT_EQ(parse_error("input x : f32[2,3]\ny = cast(x, to=f17)\noutput y\n"),
            "t.rtg:2:16: attribute 'to' of op 'cast' expects a dtype (f32, f64, f16, bf16, i8, "
            "u8, i16, i32, i64, bool), found f17");
  EXPECT_EQ(parse_error("input x : f32[2,3]\ny = concat(x, axis=0, axis=1)\noutput y\n"),
            "t.rtg:2:23: attribute 'axis' is given twice");
}

TEST(RtgParser, InferenceErrorsPointAtTheStatement) {
  EXPECT_EQ(parse_error("input x : f32[2,3]\nconst c : f32[4] = fill(1)\n\ny = add(x, c)\n"
                        "output y\n"),
            "t.rtg:4:5: node 'y': shapes [2,3] and [4] do not broadcast");
  EXPECT_EQ(parse_error("input x : f32[2]\n  y = relu(x, x)\noutput y\n"),
            "t.rtg:2:7: node 'y': op 'relu' takes 1 input(s), got 2");
  EXPECT_EQ(parse_error("input x : f32[2]\ny = relu(_)\noutput y\n"),
            "t.rtg:2:5: node 'y': required input 0 of op 'relu' is missing");
  EXPECT_EQ(parse_error("input x : f32[2,3]\ny = concat(x, x)\noutput y\n"),
            "t.rtg:2:5: node 'y': op 'concat' needs attribute 'axis' (the axis to join along, "
            "in [-rank, rank-1])");
  EXPECT_EQ(parse_error("input x : f32[2]\na, b = relu(x)\noutput a\n"),
            "t.rtg:2:8: node 'a, b': op 'relu' has 1 output(s), but 2 name(s) were given");
}

TEST(RtgParser, ConstantErrors) {
  EXPECT_EQ(parse_error("const c : u8[2] = [1, 300]\n"),
            "t.rtg:1:23: constant 'c' is u8: 300 is out of its range");
  EXPECT_EQ(parse_error("const c : i32[2] = [1, 2.5]\n"),
            "t.rtg:1:24: constant 'c' is i32: expected an integer, found 2.5");
  EXPECT_EQ(parse_error("const c : f32[3] = [1, 2]\n"),
            "t.rtg:1:20: constant 'c' has type f32[3]: expected 3 value(s), found 2");
  EXPECT_EQ(parse_error("const c : f32[2,2] = [[1,2],[3]]\n"),
            "t.rtg:1:29: constant 'c' has type f32[2,2]: expected a list of 2 at depth 2, found "
            "1 item(s)");
  EXPECT_EQ(parse_error("const c : f32[2] = [[[1]]]\n"),
            "t.rtg:1:21: lists are not nested this deep in the values of constant 'c'");
  EXPECT_EQ(parse_error("const c : f32[2] = 1.5\n"),
            "t.rtg:1:20: constant 'c' has type f32[2]: a single value fills one element; write "
            "fill(1.5) to fill all 2");
  EXPECT_EQ(parse_error("const c : bool[1] = fill(2)\n"),
            "t.rtg:1:26: constant 'c' is bool: expected true, false, 0 or 1, found 2");
  EXPECT_EQ(parse_error("const c : f32[2] = random(low=0, high=1)\n"),
            "t.rtg:1:20: random() needs seed=N (an integer >= 0)");
  EXPECT_EQ(parse_error("const c : f32[2] = random(seed=1, low=0)\n"),
            "t.rtg:1:20: random() takes low= and high= together");
  EXPECT_EQ(parse_error("const c : i32[2] = random(seed=1, low=0.2, high=0.8)\n"),
            "t.rtg:1:39: random() range [0.2, 0.8] holds no i32 value");
  EXPECT_EQ(parse_error("const c : f32[2] = random(seed=-1)\n"),
            "t.rtg:1:32: seed must be an integer >= 0, found -1");
  EXPECT_EQ(parse_error("const c : f32[2] = random(sed=1)\n"),
            "t.rtg:1:27: random() takes seed=, low= and high=, not 'sed'");
  EXPECT_EQ(parse_error("const c : f32[2] = zeros\n"),
            "t.rtg:1:20: expected random(seed=N), fill(V), a [list] or a number for constant "
            "'c', found 'zeros'");
  EXPECT_EQ(parse_error("const c : f32[100000,100000] = fill(0)\n"),
            "t.rtg:1:11: f32[100000,100000]: shape [100000,100000] has more than 16777216 "
            "elements");
}

TEST(RtgParser, OpaqueErrors) {
  EXPECT_EQ(parse_error("input x : f32[2]\ny = opaque \"d::Op\"(x)\noutput y\n"),
            "t.rtg:2:22: expected ':' and the output types after the arguments of opaque op "
            "'Op', found end of line");
  EXPECT_EQ(parse_error("input x : f32[2]\ny = opaque \"d::Op\"(x) : f32[2], f32[2]\noutput y\n"),
            "t.rtg:2:23: opaque op 'Op' declares 2 output type(s) for 1 output name(s)");
  EXPECT_EQ(parse_error("input x : f32[2]\ny = opaque \"d::\"(x) : f32[2]\noutput y\n"),
            "t.rtg:2:12: an opaque op needs a name: \"domain::OpType@version\" or \"OpType\"");
  EXPECT_EQ(parse_error("input x : f32[2]\ny = opaque \"d::Op@x\"(x) : f32[2]\noutput y\n"),
            "t.rtg:2:12: opaque op version '@x' must be a positive integer");
  EXPECT_EQ(parse_error("input x : f32[2]\ny = opaque \"Op\"(x, a=f16) : f32[2]\noutput y\n"),
            "t.rtg:2:22: attribute 'a' of an opaque op must be a number, a string or a list of "
            "one of them, found f16");
}

}  // namespace
}  // namespace retort
