// Soundness of the shipped rules, tested rather than assumed: for every rule of samples/rules/,
// many random well-typed terms that the rule matches (seeded), one application, the new term
// extracted from the e-graph and run by the reference interpreter next to the original term.
// Results are compared as tests/support/tensor_close.h says.
#include <cmath>
#include <map>

#include <fmt/format.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "core/egraph/convert.h"
#include "core/egraph/extract.h"
#include "core/egraph/render.h"
#include "core/exec/interpreter.h"
#include "core/ops/registry.h"
#include "core/rules/apply.h"
#include "core/tensor/random_tensor.h"
#include "tests/support/tensor_close.h"

namespace retort {
namespace {

constexpr int kChecksPerRule = 40;     // applications compared per rule
constexpr int kMinChecksPerRule = 15;  // fewer means the generator cannot exercise the rule
constexpr int kAttemptsPerRule = 20000;

// Why two tensors differ, or "" when they agree.
std::string compare(const Tensor& want, const Tensor& got) {
  return testing::tensor_difference(want, got);
}

// Random shapes that often fit together: each new operand's shape is, with some probability,
// derived from an earlier one (equal, a broadcastable suffix, ones put in, matmul-compatible,
// matrix-transposed, one dim changed), so that the rules' left-hand sides type often.
class ShapeSource {
 public:
  explicit ShapeSource(Rng& rng) : rng_(rng) {}

  Shape next() {
    Shape s = pool_.empty() || rng_.coin(0.35) ? fresh() : derived();
    pool_.push_back(s);
    return s;
  }

 private:
  int64_t dim() { return rng_.coin(0.15) ? 1 : rng_.uniform_int(2, 3); }

  Shape fresh() {
    static const int64_t ranks[] = {0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4};
    Shape s(ranks[rng_.uniform_int(0, 11)]);
    for (auto& d : s) d = dim();
    return s;
  }

  Shape derived() {
    Shape s = pool_[rng_.uniform_int(0, static_cast<int64_t>(pool_.size()) - 1)];
    int64_t r = static_cast<int64_t>(s.size());
    switch (rng_.uniform_int(0, 6)) {
      case 0:
      case 1:
        return s;
      case 2:
        return Shape(s.begin() + rng_.uniform_int(0, r), s.end());
      case 3:
        for (auto& d : s)
          if (rng_.coin(0.4)) d = 1;
        return s;
      case 4:  // a right operand for matmul(s, .)
        if (r == 0) return s;
        return r == 1 ? Shape{s[0], dim()} : [&] {
          Shape m(s.begin(), s.end() - 2);
          m.push_back(s[r - 1]);
          m.push_back(dim());
          return m;
        }();
      case 5:
        if (r >= 2) std::swap(s[r - 1], s[r - 2]);
        return s;
      default:
        if (r > 0) s[rng_.uniform_int(0, r - 1)] = dim();
        return s;
    }
  }

  Rng& rng_;
  std::vector<Shape> pool_;
};

// A graph whose one output is a random instance of the rule's left-hand side.
class TermGenerator {
 public:
  TermGenerator(const Rule& rule, Rng& rng) : rule_(rule), rng_(rng) {}

  std::optional<Graph> attempt() {
    static const DType dtypes[] = {DType::f32, DType::f32, DType::f32, DType::f64,
                                   DType::i32, DType::i64, DType::i8,  DType::f16};
    DType dtype = dtypes[rng_.uniform_int(0, 7)];
    ShapeSource shapes(rng_);
    graph_ = Graph();
    types_.clear();
    attrs_.assign(rule_.vars.attrs.size(), std::nullopt);
    std::vector<std::string> values(rule_.lhs.nodes.size());
    std::vector<std::string> var_value(rule_.vars.classes.size());
    for (size_t i = 0; i < rule_.lhs.nodes.size(); ++i) {
      const PatternNode& p = rule_.lhs.nodes[i];
      if (p.kind == PatternNode::Kind::Leaf) return std::nullopt;  // no shipped rule has one
      if (p.kind == PatternNode::Kind::Var) {
        std::string& v = var_value[p.var];
        if (v.empty()) {
          v = rule_.vars.classes[p.var];
          TensorType t{dtype, shapes.next()};
          graph_.inputs.push_back({v, t});
          types_[v] = t;
        }
        values[i] = v;
        continue;
      }
      values[i] = op_node(p, values);
      if (values[i].empty()) return std::nullopt;
    }
    graph_.outputs = {values.back()};
    try {
      infer_graph(graph_);
    } catch (const Error&) {
      return std::nullopt;
    }
    return graph_;
  }

 private:
  // Adds the node for pattern node p (children already made) and returns its value name, or ""
  // when it cannot type (found out by infer_graph as a whole, or here for attributes).
  std::string op_node(const PatternNode& p, const std::vector<std::string>& values) {
    Node n;
    n.name = fmt::format("n{}", graph_.nodes.size());
    n.op = p.op;
    for (int c : p.children) n.inputs.push_back(values[c]);
    int64_t rank = rank_of(n.inputs.empty() ? "" : n.inputs[0]);
    for (const AttrPattern& a : p.attrs) {
      if (a.kind == AttrPattern::Kind::Literal) {
        n.attrs[a.name] = a.literal;
        continue;
      }
      if (!attrs_[a.var]) attrs_[a.var] = random_attr(a.name, rank);
      if (!attrs_[a.var]) return "";
      n.attrs[a.name] = *attrs_[a.var];
    }
    int n_out = p.n_out ? p.n_out : (OpRegistry::instance().get(p.op).num_outputs < 0 ? 2 : 1);
    for (int k = 0; k < n_out; ++k) n.outputs.push_back(fmt::format("{}_{}", n.name, k));
    std::string out = n.outputs[p.out];
    // Types of the new values are needed by later attributes (a perm's length).
    try {
      std::vector<TensorType> in;
      for (const auto& v : n.inputs) in.push_back(types_.at(v));
      const OpDef& def = OpRegistry::instance().get(n.op);
      auto outs =
          def.infer(in, OpRegistry::instance().normalize_attrs(def, n.attrs), n.outputs.size());
      for (size_t k = 0; k < outs.size(); ++k) types_[n.outputs[k]] = outs[k];
    } catch (const Error&) {
      return "";
    }
    graph_.nodes.push_back(std::move(n));
    return out;
  }

  int64_t rank_of(const std::string& v) const {
    auto it = types_.find(v);
    return it == types_.end() ? 0 : static_cast<int64_t>(it->second.shape.size());
  }

  // A value for an attribute variable: a perm for `perm` (often the inverse of a perm already
  // drawn, so that involution rules match), an axis for `axis`.
  std::optional<AttrValue> random_attr(const std::string& name, int64_t rank) {
    if (name == "perm") {
      for (const auto& other : attrs_)
        if (other && rng_.coin(0.6)) {
          const auto& q = std::get<std::vector<int64_t>>(*other);
          if (static_cast<int64_t>(q.size()) != rank) continue;
          std::vector<int64_t> inv(q.size());
          for (size_t i = 0; i < q.size(); ++i) inv[q[i]] = static_cast<int64_t>(i);
          return inv;
        }
      std::vector<int64_t> p(rank);
      for (int64_t i = 0; i < rank; ++i) p[i] = i;
      for (int64_t i = rank - 1; i > 0; --i) std::swap(p[i], p[rng_.uniform_int(0, i)]);
      return p;
    }
    if (name == "axis") {
      if (rank == 0) return std::nullopt;
      return rng_.uniform_int(-rank, rank - 1);
    }
    return std::nullopt;
  }

  const Rule& rule_;
  Rng& rng_;
  Graph graph_;
  std::map<std::string, TensorType> types_;
  std::vector<std::optional<AttrValue>> attrs_;
};

// Copies the term `t` of `from` (an exact term: the right-hand side as the rule built it, over
// the original terms) into `to`.
EClassId copy_term(const EGraph& from, EClassId t, EGraph& to) {
  const ENode& n = from.term(t);
  if (n.op == special_ops::kInput)
    return to.add_input(leaf_name(n), from.inputs().at(leaf_name(n)));
  if (n.op == special_ops::kConst) return to.add_const(*from.find_constant(leaf_name(n)));
  ENode c = n;
  for (EClassId& ch : c.children) ch = copy_term(from, ch, to);
  return to.add(c);
}

// The graph of exactly the term `t`, through the engine's extraction and restore.
Graph graph_of_term(const EGraph& eg, EClassId t, const Graph& original) {
  EGraph single;
  GraphMeta meta;
  meta.name = "rhs";
  for (const auto& in : original.inputs) {
    single.add_input(in.name, in.type);
    meta.input_names.push_back(in.name);
  }
  EClassId out = copy_term(eg, t, single);
  meta.output_names = {"out"};
  meta.root = single.add_graph_out({out});
  single.rebuild();
  return extract(single, meta, ExtractOptions{}).graph;
}

struct RuleOutcome {
  int checked = 0, unchanged = 0, skipped = 0, rejected = 0, unmatched = 0;
};

// Generates terms for the rule and checks one application on each; fails the test on the first
// disagreement with the term, the substitution and the parameters.
RuleOutcome check_rule(const Rule& rule, uint64_t seed) {
  Rng rng(seed);
  TermGenerator gen(rule, rng);
  RuleOutcome out;
  for (int attempt = 0; attempt < kAttemptsPerRule && out.checked < kChecksPerRule; ++attempt) {
    std::optional<Graph> g = gen.attempt();
    if (!g) continue;
    EGraph eg;
    GraphMeta meta = add_graph(eg, *g);
    eg.rebuild();
    EClassId root = eg.eclass(meta.root).nodes[0].children[0];
    std::vector<Match> ms = search_class(eg, rule, root);
    if (ms.empty()) {
      ++out.unmatched;
      continue;
    }
    RewriteTrace trace;
    ApplyResult r = apply_match(eg, rule, ms[0], rng, trace);
    if (r.outcome == ApplyOutcome::Skipped) ++out.skipped;
    if (r.outcome == ApplyOutcome::Rejected) ++out.rejected;
    if (r.outcome == ApplyOutcome::Unchanged) ++out.unchanged;
    if (r.outcome != ApplyOutcome::Applied) continue;
    Graph rhs = graph_of_term(eg, r.rhs, *g);

    TensorMap inputs;
    for (const auto& in : g->inputs) inputs[in.name] = random_tensor(in.type, rng);
    Tensor want = evaluate(*g, inputs).at(g->outputs[0]);
    Tensor got = evaluate(rhs, inputs).at(rhs.outputs[0]);
    std::string why = compare(want, got);
    if (!why.empty()) {
      StepText t = step_text(eg, rule, trace.steps[0]);
      std::string types;
      for (const auto& in : g->inputs) types += in.name + ":" + in.type.str() + " ";
      ADD_FAILURE() << "rule " << rule.name << " is not sound here: " << why << "\n  term "
                    << t.matched << "\n  " << t.subst << "\n  params " << t.params << "\n  rhs "
                    << t.rhs << "\n  inputs " << types;
      return out;
    }
    ++out.checked;
  }
  return out;
}

void check_rule_set(const std::string& name) {
  RuleSet rules = builtin_rules(name);
  for (size_t i = 0; i < rules.rules.size(); ++i) {
    const Rule& rule = rules.rules[i];
    // RulesSoundness.ExposeKeepsOutputs and ReorderKeepsOutputs
    if (rule.on_graph_out()) continue;
    SCOPED_TRACE(name + ": " + rule.name);
    RuleOutcome o = check_rule(rule, mix_seed(0x5eed, i));
    EXPECT_GE(o.checked, kMinChecksPerRule)
        << rule.name << ": only " << o.checked << " checked (" << o.unmatched << " unmatched, "
        << o.skipped << " skipped, " << o.rejected << " rejected, " << o.unchanged << " unchanged)";
  }
}

TEST(RulesSoundness, Polyjuice) {
  check_rule_set("polyjuice");
}
TEST(RulesSoundness, PolyjuiceExtra) {
  check_rule_set("polyjuice_extra");
}
TEST(RulesSoundness, Identities) {
  check_rule_set("identities");
}
TEST(RulesSoundness, Fig6) {
  check_rule_set("fig6");
}

// The check can fail: an unsound rule (right linearity of matmul without the rank condition
// that excludes a rank-1 right operand) is caught.
TEST(RulesSoundness, CatchesAnUnsoundRule) {
  RuleSet rules = parse_rules(R"(
rule bad-linear (matmul ?x (add ?y ?z)) => (add (matmul ?x ?y) (matmul ?x ?z))
)");
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    check_rule(rules.rules[0], 1);
  }
  ASSERT_EQ(failures.size(), 1);
  EXPECT_NE(std::string(failures.GetTestPartResult(0).message()).find("not sound"),
            std::string::npos);
}

// s = a + b, m = s * a, o = m + s over f32[2,3] inputs a and b, with these outputs: the graph
// the graph_out rules rewrite.
Graph add_mul_graph(std::vector<std::string> outputs) {
  Graph g;
  TensorType t{DType::f32, {2, 3}};
  g.inputs = {{"a", t}, {"b", t}};
  auto node = [&](const std::string& op, std::vector<std::string> in, const std::string& out) {
    g.nodes.push_back(Node{out + "_n", op, std::move(in), {out}, {}, std::nullopt});
  };
  node("add", {"a", "b"}, "s");
  node("mul", {"s", "a"}, "m");
  node("add", {"m", "s"}, "o");
  g.outputs = std::move(outputs);
  infer_graph(g);
  return g;
}

// graph_out(x) -> graph_out(r1, x, r2): the original outputs keep their values and each extra
// output is the intermediate tensor it names.
TEST(RulesSoundness, ExposeKeepsOutputs) {
  RuleSet rules = builtin_rules("polyjuice");
  const Rule& expose = rules.get("graph-out-expose");
  for (uint64_t seed = 0; seed < 10; ++seed) {
    Graph g = add_mul_graph({"o"});
    TensorType t = g.inputs[0].type;
    EGraph eg;
    GraphMeta meta = add_graph(eg, g);
    eg.rebuild();
    Rng rng(seed);
    RewriteTrace trace;
    ApplyResult r = apply_match(eg, expose, search(eg, expose)[0], rng, trace);
    ASSERT_EQ(r.outcome, ApplyOutcome::Applied);
    eg.rebuild();
    ExtractOptions max;
    max.mode = ExtractMode::Max;
    Graph big = extract(eg, meta, max).graph;
    const auto& exposed = trace.steps[0].exposed;
    ASSERT_EQ(big.outputs.size(), 1 + exposed.size());
    TensorMap inputs{{"a", random_tensor(t, rng)}, {"b", random_tensor(t, rng)}};
    EvalOptions all;
    all.keep_intermediates = true;
    TensorMap want = evaluate(g, inputs, all);
    TensorMap got = evaluate(big, inputs);
    EXPECT_EQ(compare(want.at("o"), got.at(big.outputs[0])), "");
    for (size_t k = 0; k < exposed.size(); ++k) {
      const OriginalValue* original = meta.original(exposed[k]);
      ASSERT_NE(original, nullptr);
      EXPECT_EQ(compare(want.at(original->value), got.at(big.outputs[1 + k])), "");
    }
  }
}

// graph_out(x, y) -> graph_out(y, x): min and max keep the graph's order, random extraction
// draws the others, and every output holds the value of the original output it is named after.
TEST(RulesSoundness, ReorderKeepsOutputs) {
  RuleSet rules = builtin_rules("polyjuice");
  const Rule& reorder = rules.get("graph-out-reorder");
  Graph g = add_mul_graph({"o", "m", "s"});
  TensorType t = g.inputs[0].type;
  size_t reordered = 0;
  for (uint64_t seed = 0; seed < 10; ++seed) {
    EGraph eg;
    GraphMeta meta = add_graph(eg, g);
    eg.rebuild();
    Rng rng(seed);
    RewriteTrace trace;
    ApplyResult r = apply_match(eg, reorder, search(eg, reorder)[0], rng, trace);
    ASSERT_EQ(r.outcome, ApplyOutcome::Applied);
    eg.rebuild();
    ASSERT_EQ(eg.eclass(eg.find(meta.root)).nodes.size(), 2u);
    ExtractOptions eo;
    for (ExtractMode mode : {ExtractMode::Min, ExtractMode::Max}) {
      eo.mode = mode;
      EXPECT_EQ(extract(eg, meta, eo).graph.outputs, g.outputs);
    }
    TensorMap inputs{{"a", random_tensor(t, rng)}, {"b", random_tensor(t, rng)}};
    TensorMap want = evaluate(g, inputs);
    for (uint64_t pick = 0; pick < 4; ++pick) {
      eo.mode = ExtractMode::Random;
      eo.seed = pick;
      Graph v = extract(eg, meta, eo).graph;
      ASSERT_EQ(v.outputs.size(), 3u);
      reordered += v.outputs != g.outputs;
      TensorMap got = evaluate(v, inputs);
      for (const auto& name : v.outputs) EXPECT_EQ(compare(want.at(name), got.at(name)), "");
    }
  }
  EXPECT_GT(reordered, 0u);
}

}  // namespace
}  // namespace retort
