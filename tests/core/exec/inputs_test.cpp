#include "core/exec/inputs.h"

#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/io/rtg.h"
#include "core/ops/registry.h"
#include "core/tensor/value_domain.h"
#include "tests/support/double_holds.h"

namespace retort {
namespace {

// generate_inputs reads the inputs, which nodes consume them and, where a consumer's domain
// depends on the node, the types of that node's inputs; these graphs need no other inference.
Graph graph_with_inputs(const std::vector<std::string>& names, TensorType type) {
  Graph g;
  for (const auto& n : names) g.inputs.push_back({n, type});
  return g;
}

TEST(GenerateInputs, SameSeedSameValuesOtherSeedOtherValues) {
  Graph g = graph_with_inputs({"a", "b"}, {DType::f32, {4, 4}});
  TensorMap x = generate_inputs(g, 5, nullptr);
  TensorMap y = generate_inputs(g, 5, nullptr);
  TensorMap z = generate_inputs(g, 6, nullptr);
  ASSERT_EQ(x.size(), 2u);
  EXPECT_EQ(x.at("a"), y.at("a"));
  EXPECT_EQ(x.at("b"), y.at("b"));
  EXPECT_FALSE(x.at("a") == z.at("a"));
  EXPECT_FALSE(x.at("a") == x.at("b"));
  EXPECT_EQ(x.at("a").type(), (TensorType{DType::f32, {4, 4}}));
}

TEST(GenerateInputs, AddingAnInputLeavesTheOthersUnchanged) {
  TensorMap before = generate_inputs(graph_with_inputs({"a", "b"}, {DType::i32, {8}}), 3, nullptr);
  TensorMap after =
      generate_inputs(graph_with_inputs({"new", "a", "b"}, {DType::i32, {8}}), 3, nullptr);
  EXPECT_EQ(before.at("a"), after.at("a"));
  EXPECT_EQ(before.at("b"), after.at("b"));
}

TEST(GenerateInputs, NoNotesWithoutDomainNeeds) {
  std::vector<std::string> notes;
  generate_inputs(graph_with_inputs({"a"}, {DType::f64, {3}}), 1, &notes);
  EXPECT_TRUE(notes.empty());
}

// Every registered op input with a domain: a graph input read there gets values in the domain,
// and a note naming the op.
TEST(GenerateInputs, HonoursEveryRegisteredInputDomain) {
  int checked = 0;
  for (const OpDef* op : OpRegistry::instance().all()) {
    for (size_t i = 0; i < op->input_names.size(); ++i) {
      ValueDomain d = op->domain_of_input(i);
      if (d == ValueDomain::Any) continue;
      for (DType dtype : {DType::f32, DType::i64}) {
        TensorType type{dtype, {256}};
        Graph g = graph_with_inputs({"x"}, type);
        Node node;
        node.name = "n";
        node.op = op->name;
        node.inputs.assign(i + 1, "other");
        node.inputs[i] = "x";
        node.outputs = {"y"};
        // A domain may depend on the node (gather's indices on the size of the gathered axis,
        // cast's input on its integer target, which takes a narrow one here).
        Attrs given;
        if (d == ValueDomain::IntegerTarget) given["to"] = std::string("i8");
        if (op->name == "einsum") given["equation"] = std::string("i->i");     // required
        if (op->name == "topk") given["k"] = int64_t{1};                       // required
        if (op->name == "resize") given["sizes"] = std::vector<int64_t>{256};  // required
        if (op->name == "group_norm") given["num_groups"] = int64_t{1};        // required
        if (op->find_attr("kernel_shape") && op->find_attr("kernel_shape")->required)
          given["kernel_shape"] = std::vector<int64_t>{1};
        node.attrs = OpRegistry::instance().normalize_attrs(*op, given);
        g.types = {{"x", type}, {"other", type}};
        g.nodes.push_back(node);
        InputDomain domain = op->domain_of_input(i, input_types(g, node), node.attrs);
        if (domain.kind == ValueDomain::Any) continue;  // cast from an integer: any value
        std::vector<std::string> notes;
        Tensor x = generate_inputs(g, 11, &notes).at("x");
        for (int64_t k = 0; k < x.numel(); ++k)
          ASSERT_TRUE(in_domain(x.get(k), domain))
              << op->name << " input " << i << " value " << x.get(k);
        // sin's and fmod's bounds lie beyond every plain draw: drawn as Any, without a note.
        ASSERT_EQ(notes.size(), drawn_as_any(domain.kind) ? 0u : 1u) << op->name;
        if (notes.empty()) continue;
        EXPECT_EQ(notes[0].rfind("x: ", 0), 0u) << notes[0];
        EXPECT_NE(notes[0].find(op->name + " needs them"), std::string::npos) << notes[0];
        ++checked;
      }
    }
  }
  if (checked == 0) GTEST_SKIP() << "no registered op declares an input domain yet";
}

// gather reads its indices from a graph input: the generated indices lie in the gathered axis
// (negative ones included), so the graph evaluates for every seed.
TEST(GenerateInputs, GatherIndicesFromAnInputStayInTheGatheredAxis) {
  Graph g = parse_rtg(R"(graph g
input data : f32[3,5]
input idx : i64[16]
y = gather(data, idx, axis=1)
output y
)");
  std::set<int64_t> seen;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    std::vector<std::string> notes;
    TensorMap inputs = generate_inputs(g, seed, &notes);
    EXPECT_EQ(inputs, generate_inputs(g, seed, nullptr)) << "seed " << seed;
    EXPECT_EQ(notes, std::vector<std::string>{"idx: values in [-5, 4] (gather needs them)"});
    const Tensor& idx = inputs.at("idx");
    for (int64_t k = 0; k < idx.numel(); ++k) {
      ASSERT_GE(idx.get_int(k), -5) << "seed " << seed;
      ASSERT_LE(idx.get_int(k), 4) << "seed " << seed;
      seen.insert(idx.get_int(k));
    }
    EXPECT_NO_THROW(evaluate(g, inputs)) << "seed " << seed;
  }
  EXPECT_EQ(seen.size(), 10u);
}

// Indices read along two axes of different sizes must be valid for the shorter one.
TEST(GenerateInputs, IndicesOfTwoGathersFitTheShorterAxis) {
  Graph g = parse_rtg(R"(graph g
input a : f32[8]
input b : f32[2,3]
input idx : i32[32]
p = gather(a, idx)
q = gather(b, idx, axis=-1)
output p, q
)");
  std::vector<std::string> notes;
  TensorMap inputs = generate_inputs(g, 4, &notes);
  EXPECT_EQ(notes, std::vector<std::string>{"idx: values in [-3, 2] (gather needs them)"});
  const Tensor& idx = inputs.at("idx");
  for (int64_t k = 0; k < idx.numel(); ++k)
    ASSERT_TRUE(idx.get_int(k) >= -3 && idx.get_int(k) <= 2);
  EXPECT_NO_THROW(evaluate(g, inputs));
}

// The ranges a person (or a campaign) picks: seeded, within the dtype, and the domains still win.
TEST(InputPlan, RangesParseAndDrawWithinTheirBounds) {
  EXPECT_EQ(parse_input_range("full")->range, InputRange::Full);
  EXPECT_EQ(parse_input_range("special")->range, InputRange::Special);
  EXPECT_EQ(parse_input_range("standard")->range, InputRange::Standard);
  auto interval = parse_input_range("-1.5..200");
  ASSERT_TRUE(interval);
  EXPECT_EQ(interval->lo, -1.5);
  EXPECT_EQ(interval->hi, 200);
  EXPECT_EQ(interval->str(), "-1.5..200.0");
  EXPECT_FALSE(parse_input_range("3..1"));
  EXPECT_EQ(parse_input_range("wide")->range, InputRange::Wide);
  EXPECT_EQ(parse_input_range("wide")->str(), "wide");
  EXPECT_FALSE(parse_input_range("widest"));
  EXPECT_FALSE(parse_input_range("1..inf"));

  Graph g = graph_with_inputs({"a"}, {DType::i8, {256}});
  InputPlan full = *parse_input_range("full");
  TensorMap x = generate_inputs(g, 3, nullptr, full);
  EXPECT_EQ(x.at("a").get_int(0), generate_inputs(g, 3, nullptr, full).at("a").get_int(0));
  int64_t lo = 0, hi = 0;
  for (int64_t i = 0; i < 256; ++i) {
    lo = std::min(lo, x.at("a").get_int(i));
    hi = std::max(hi, x.at("a").get_int(i));
  }
  EXPECT_LT(lo, -64);  // the standard range stops at -8 and 8
  EXPECT_GT(hi, 64);

  Graph f = graph_with_inputs({"a"}, {DType::f32, {400}});
  TensorMap sp = generate_inputs(f, 1, nullptr, *parse_input_range("special"));
  bool nan = false, inf = false, neg_zero = false;
  for (int64_t i = 0; i < 400; ++i) {
    double v = sp.at("a").get(i);
    nan |= std::isnan(v);
    inf |= std::isinf(v);
    neg_zero |= v == 0 && std::signbit(v);
  }
  EXPECT_TRUE(nan && inf && neg_zero);
  TensorMap in = generate_inputs(f, 1, nullptr, *interval);
  for (int64_t i = 0; i < 400; ++i) {
    EXPECT_GE(in.at("a").get(i), -1.5);
    EXPECT_LE(in.at("a").get(i), 200);
  }

  // log needs positive values: its input keeps them under any range, and a note says so.
  Graph l = parse_rtg("graph l\ninput x : f32[64]\ny = log(x)\noutput y\n");
  std::vector<std::string> notes;
  TensorMap pos = generate_inputs(l, 1, &notes, *parse_input_range("special"));
  for (int64_t i = 0; i < 64; ++i) EXPECT_GT(pos.at("x").get(i), 0);
  EXPECT_NE(notes.back().find("kept to its domain, not the special range"), std::string::npos);
}

TEST(InputPlan, FixedInputsWinAndMustHaveTheInputsType) {
  Graph g = graph_with_inputs({"a", "b"}, {DType::f32, {2}});
  InputPlan plan;
  plan.fixed["a"] = Tensor::from_doubles(DType::f32, {2}, {7, 8});
  TensorMap x = generate_inputs(g, 1, nullptr, plan);
  EXPECT_EQ(x.at("a").get(1), 8);
  EXPECT_EQ(x.at("b").get(0), generate_inputs(g, 1, nullptr).at("b").get(0));
  EXPECT_EQ(plan.str(), "standard (fixed: a)");
  plan.fixed["a"] = Tensor::from_doubles(DType::f32, {3}, {1, 2, 3});
  EXPECT_THROW(generate_inputs(g, 1, nullptr, plan), Error);
}

TEST(InputPlan, CampaignsDrawEveryRangeFromTheCaseSeed) {
  std::set<InputRange> seen;
  for (uint64_t seed = 0; seed < 64; ++seed) {
    InputPlan p = campaign_input_plan(seed, 0.25);
    EXPECT_EQ(p.str(), campaign_input_plan(seed, 0.25).str());
    EXPECT_TRUE(p.fixed.empty());
    seen.insert(p.range);
    // The wide coin has its own stream: any other plan is the one drawn without it.
    if (p.range != InputRange::Wide) {
      EXPECT_EQ(p.str(), campaign_input_plan(seed).str());
    }
    EXPECT_NE(campaign_input_plan(seed).range, InputRange::Wide);
    EXPECT_EQ(campaign_input_plan(seed, 1).range, InputRange::Wide);
  }
  EXPECT_EQ(seen.size(), 5u);
}

// i64 values near and past 2^31, 2^32, 2^53 and at its ends, drawn exactly: values a double
// cannot hold come out as they were drawn.
TEST(InputPlan, WideDrawsI64PastTwoToThe53Exactly) {
  Graph g = graph_with_inputs({"a"}, {DType::i64, {4096}});
  InputPlan wide = *parse_input_range("wide");
  Tensor a = generate_inputs(g, 7, nullptr, wide).at("a");
  EXPECT_EQ(a, generate_inputs(g, 7, nullptr, wide).at("a"));
  const int64_t two31 = int64_t{1} << 31;
  int not_double = 0, near31 = 0, past31 = 0, past_neg31 = 0, spread = 0, small = 0;
  bool max = false, min = false;
  // |v| as unsigned: std::abs(INT64_MIN) overflows.
  auto magnitude = [](int64_t v) {
    return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  };
  for (int64_t i = 0; i < a.numel(); ++i) {
    int64_t v = a.get_int(i);
    uint64_t m = magnitude(v);
    not_double += !double_holds(v);
    near31 += v >= two31 - 2 && v <= two31 + 2;
    past31 += v == two31 || v == two31 + 1;
    past_neg31 += v == -two31 - 1;
    spread += m > (uint64_t{1} << 32) && m < (uint64_t{1} << 52);
    small += m <= 8;
    max |= v == INT64_MAX;
    min |= v == INT64_MIN;
  }
  EXPECT_GT(not_double, 100);
  EXPECT_GT(near31, 10);
  EXPECT_GT(past31, 0);
  EXPECT_GT(past_neg31, 0);
  EXPECT_GT(spread, 100);
  EXPECT_GT(small, 500);  // a quarter stays standard, so products still have small factors
  EXPECT_TRUE(max);
  EXPECT_TRUE(min);
}

// Narrow integers get their ends and the values whose sums and products wrap.
TEST(InputPlan, WideDrawsNarrowIntegersAtTheirWrapPoints) {
  auto values = [](DType t) {
    Graph g = graph_with_inputs({"a"}, {t, {2048}});
    Tensor a = generate_inputs(g, 3, nullptr, *parse_input_range("wide")).at("a");
    std::set<int64_t> out;
    for (int64_t i = 0; i < a.numel(); ++i) out.insert(a.get_int(i));
    return out;
  };
  std::set<int64_t> i8 = values(DType::i8), u8 = values(DType::u8), i32 = values(DType::i32);
  for (int64_t v : {-128, -127, 126, 127, 64, 65, -64, 16, 17}) EXPECT_TRUE(i8.count(v)) << v;
  for (int64_t v : {0, 1, 254, 255, 128, 129, 16}) EXPECT_TRUE(u8.count(v)) << v;
  for (int64_t v : {int64_t{INT32_MIN}, int64_t{INT32_MAX}, int64_t{1} << 30, int64_t{65536}})
    EXPECT_TRUE(i32.count(v)) << v;
  EXPECT_GE(*i8.begin(), -128);
  EXPECT_LE(*u8.rbegin(), 255);
  EXPECT_GE(*u8.begin(), 0);
}

}  // namespace
}  // namespace retort
