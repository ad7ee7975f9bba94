#include "core/compare/reduce.h"

#include <gtest/gtest.h>

#include "core/backend/worker_backend.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

bool has_op(const Graph& g, const std::string& op) {
  for (const Node& n : g.nodes)
    if (n.op == op) return true;
  return false;
}

// The reference and a worker whose mul kernel is wrong (a real process).
struct Backends {
  RefBackend ref;
  WorkerBackend bad{{.name = "bad",
                     .argv = {RETORT_FAULT_WORKER, "--fault", "perturb", "--perturb-op", "mul"},
                     .timeout_s = 30,
                     .options = {}}};
  BackendLookup lookup() {
    return [this](const std::string& name) -> Backend& {
      if (name == "ref") return ref;
      if (name == "bad") return bad;
      throw Error("unknown backend " + name);
    };
  }
};

ReduceTarget mul_target(Oracle oracle) {
  return {.oracle = oracle,
          .backend_a = "bad",
          .backend_b = oracle == Oracle::Reference ? "ref" : "bad",
          .signature = {"bad", std::string(oracle_name(oracle)), "mismatch", "mul", "f32", "", ""},
          .seed = 1,
          .tolerances = {},
          .inputs = {}};
}

const char* kChain = R"(graph g
input x : f32[4,3]
input y : f32[4,3]
const k : f32[4,3] = random(seed=2)
e = exp(x)
s = sub(e, k)
m = mul(s, y)
n = neg(m)
t = tanh(n)
out = add(t, y)
output out, e
)";

TEST(Reduce, AChainShrinksToTheWrongKernelWithTheSameSignature) {
  Backends b;
  ReduceCase start{parse_rtg(kChain), std::nullopt, {}};
  std::vector<std::string> changes;
  ReduceOptions options;
  options.progress = [&](const ReduceProgress& p) { changes.push_back(p.change); };
  ReduceResult r = reduce_case(start, mul_target(Oracle::Reference), b.lookup(), options);
  EXPECT_TRUE(r.stopped.empty());
  EXPECT_EQ(r.start_nodes, 6u);
  EXPECT_EQ(r.smallest.a.op_count(), 1u) << print_rtg(r.smallest.a);
  EXPECT_TRUE(has_op(r.smallest.a, "mul"));
  EXPECT_FALSE(changes.empty());
  // Inputs shrink to the fewest elements that still show the wrong element 0.
  for (const auto& in : r.smallest.a.inputs) EXPECT_EQ(numel(in.type.shape), 1) << in.name;
  EXPECT_EQ(check_case(r.smallest, mul_target(Oracle::Reference), b.lookup()),
            CheckOutcome::SameFailure);
  // A failure of another kind is not this one.
  ReduceTarget other = mul_target(Oracle::Reference);
  other.signature.op = "add";
  EXPECT_EQ(check_case(r.smallest, other, b.lookup()), CheckOutcome::Other);
}

TEST(Reduce, UndefinedBehaviourIsNeverTheSameFailure) {
  Backends b;
  // y / (x - x): division by zero on the reference, whatever the mul does after it.
  ReduceCase c{parse_rtg(R"(graph g
input x : f32[4]
input y : f32[4]
z = sub(x, x)
d = div(y, z)
m = mul(d, y)
output m
)"),
               std::nullopt,
               {}};
  EXPECT_EQ(check_case(c, mul_target(Oracle::Reference), b.lookup()), CheckOutcome::Other);
}

TEST(Reduce, InterruptedOrOutOfTimeKeepsTheSmallestSoFar) {
  Backends b;
  ReduceCase start{parse_rtg(kChain), std::nullopt, {}};
  std::atomic<bool> cancel{true};
  ReduceOptions options;
  options.cancel = &cancel;
  ReduceResult r = reduce_case(start, mul_target(Oracle::Reference), b.lookup(), options);
  EXPECT_EQ(r.stopped, "interrupted");
  EXPECT_EQ(r.smallest.a.op_count(), 6u);
  ReduceOptions timed;
  timed.time_limit_s = 1e-9;
  EXPECT_EQ(reduce_case(start, mul_target(Oracle::Reference), b.lookup(), timed).stopped,
            "time limit");
  // A passing graph is no start for a reduction.
  ReduceCase passing{
      parse_rtg("graph g\ninput x : f32[2]\nn = neg(x)\noutput n\n"), std::nullopt, {}};
  EXPECT_THROW(reduce_case(passing, mul_target(Oracle::Reference), b.lookup(), {}), Error);
}

// An equivalence pair: the original doubles with add, the variant with mul. Changes go to both
// graphs on paired values, so the pair stays equivalent while it shrinks.
TEST(Reduce, AnEquivalencePairShrinksTogether) {
  Backends b;
  ReduceCase start{parse_rtg(R"(graph g
input x : f32[3,2]
input y : f32[3,2]
const two : f32[3,2] = fill(2)
m = mul(x, two)
e = neg(m)
f = tanh(e)
out = add(f, y)
output out
)"),
                   parse_rtg(R"(graph g
input x : f32[3,2]
input y : f32[3,2]
const two : f32[3,2] = fill(2)
d = add(x, x)
e = neg(d)
f = tanh(e)
out = add(f, y)
output out
)"),
                   {{"m", "d"}, {"e", "e"}, {"f", "f"}, {"out", "out"}}};
  ReduceResult r = reduce_case(start, mul_target(Oracle::Equivalence), b.lookup(), {});
  EXPECT_EQ(r.smallest.a.op_count(), 1u) << print_rtg(r.smallest.a);
  ASSERT_TRUE(r.smallest.b);
  EXPECT_EQ(r.smallest.b->op_count(), 1u) << print_rtg(*r.smallest.b);
  EXPECT_TRUE(has_op(r.smallest.a, "mul"));
  EXPECT_TRUE(has_op(*r.smallest.b, "add"));
  EXPECT_EQ(check_case(r.smallest, mul_target(Oracle::Equivalence), b.lookup()),
            CheckOutcome::SameFailure);
}

}  // namespace
}  // namespace retort
