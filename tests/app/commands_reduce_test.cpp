// End to end on the fault worker: bisect names the rewrite that brings a miscompiled op in.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "core/gen/graph_gen.h"
#include "core/io/rtg.h"
#include "tests/app/shell_fixture.h"

namespace retort {
namespace {

class ReduceCommands : public testing::ShellTest {
 protected:
  void attach_bad(const std::string& op) {
    run_ok(fmt::format(R"(backend attach bad --cmd "{} --fault perturb --perturb-op {}")",
                       RETORT_FAULT_WORKER, op));
  }
  static bool has_op(const Graph& g, const std::string& op) {
    for (const Node& n : g.nodes)
      if (n.op == op) return true;
    return false;
  }

  // neg(mul(a, b)) with its min and max variants, and `bad`, a worker whose transpose is wrong:
  // only the variants the rules brought a transpose into fail.
  void mul_neg_with_bad_transpose() {
    for (const char* statement : {"input a : f32[2,3,4]", "input b : f32[2,3,4]", "m = mul(a, b)",
                                  "out = neg(m)", "output out"})
      run_ok(fmt::format("def {}", statement));
    run_ok("egraph");
    run_ok("saturate --iters 2");
    run_ok("extract min");
    run_ok("extract max");
    attach_bad("transpose");
  }
};

// The worker miscompiles transpose, which the original lacks: only rewritten variants fail, and
// bisect names the rule that brought the transpose in.
TEST_F(ReduceCommands, BisectNamesTheRuleThatBringsTheMiscompiledOpIn) {
  mul_neg_with_bad_transpose();
  std::string text = run_ok("compare --backends ref,bad");
  EXPECT_NE(text.find("bad      pass      mismatch  pass"), std::string::npos) << text;

  text = run_ok("bisect max --backend bad");
  EXPECT_NE(text.find("failure: bad reference mismatch at transpose (f32) via rule "
                      "mul-transpose-wrap"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("signature: bad|reference|mismatch|transpose|f32|mul-transpose-wrap"),
            std::string::npos);
  EXPECT_NE(text.find("mul-transpose-wrap e"), std::string::npos) << text;  // the match
  ASSERT_NE(session.find_variant("bisect_pass"), nullptr);
  ASSERT_NE(session.find_variant("bisect_fail"), nullptr);
  EXPECT_FALSE(has_op(session.variant("bisect_pass"), "transpose"));
  EXPECT_TRUE(has_op(session.variant("bisect_fail"), "transpose"));

  // The kept pair: one passes on the backend, the other fails.
  text = run_ok("compare bisect_pass bisect_fail --backends ref,bad");
  EXPECT_NE(text.find("bad      pass      pass         mismatch"), std::string::npos) << text;

  EXPECT_NE(run_failing("bisect min --backend bad").find("does not fail"), std::string::npos);
  EXPECT_NE(run_failing("bisect bisect_fail --backend bad").find("not extracted"),
            std::string::npos);
}

// Issue 42: with a reference and an equivalence finding on the variant made last, `reduce` takes
// the equivalence one and says why; reduced as a pair, the variant keeps the transposes its
// rewrite brought in (the point of the pair), and variants that no longer fit the reduced
// original go with a line saying so, so that `compare` runs on what is left.
TEST_F(ReduceCommands, ReduceTakesThePairOfTheVariantMadeLastAndKeepsItsRewrite) {
  mul_neg_with_bad_transpose();
  run_ok("compare max --backends ref,bad");
  const CompareReport& before = *session.compare_report();
  ASSERT_EQ(before.bug_count(), 2u);
  ASSERT_EQ(before.bug(1)->oracle, Oracle::Reference);
  ASSERT_EQ(before.bug(2)->oracle, Oracle::Equivalence);

  std::string text = run_ok("reduce --time 60");
  EXPECT_NE(text.find("reduce takes #2 (equivalence finding of bad on max): 'max' is the variant "
                      "made last, and its pair with 'original' keeps the rewrite that makes the "
                      "two differ; `reduce N` takes finding N"),
            std::string::npos)
      << text;
  EXPECT_TRUE(has_op(session.variant("reduced"), "transpose")) << text;
  EXPECT_FALSE(has_op(session.graph(), "transpose")) << text;
  // min and max were made from the graph before the reduction, whose inputs it shrank.
  EXPECT_NE(text.find("dropped variants max, min: made from the graph before the reduction, "
                      "their inputs or outputs no longer fit it"),
            std::string::npos)
      << text;
  EXPECT_EQ(session.variant_names(), std::vector<std::string>{"reduced"}) << text;
  run_ok("compare --backends ref,bad");

  // Asked for by number, it takes that one and says so.
  run_ok("compare reduced --backends ref,bad");
  text = run_ok("reduce 1 --time 30");
  EXPECT_NE(text.find("reduce takes #1 (reference finding of bad on reduced): as asked"),
            std::string::npos)
      << text;
}

// The issue's acceptance test: a generated 20-node graph with muls, the worker miscompiles mul;
// reduce on the first finding ends with at most 3 nodes and the same signature, and the bundle
// exported from the reduced finding reproduces it without Retort.
TEST_F(ReduceCommands, ReduceAGeneratedGraphToAFewNodesWithTheSameSignature) {
  GenOptions gen;
  gen.min_nodes = gen.max_nodes = 20;
  gen.dtypes = {DType::f32};
  gen.ops = {"add", "mul", "sub", "neg", "abs", "relu", "tanh", "transpose", "reduce_sum"};
  gen.max_rank = 3;
  // The first seed whose graph has several muls.
  Graph g;
  for (uint64_t seed = 1; seed < 100; ++seed) {
    g = generate_graph(gen, seed);
    if (std::count_if(g.nodes.begin(), g.nodes.end(),
                      [](const Node& n) { return n.op == "mul"; }) >= 3)
      break;
  }
  ASSERT_EQ(g.op_count(), 20u);
  ASSERT_TRUE(has_op(g, "mul"));
  session.set_graph(g);
  attach_bad("mul");
  std::string text = run_ok("compare --backends ref,bad");
  ASSERT_GE(session.compare_report()->bug_count(), 1u) << text;
  const std::string signature = session.compare_report()->bug(1)->signature;
  EXPECT_EQ(signature, "bad|reference|mismatch|mul|f32|");

  text = run_ok("reduce");
  EXPECT_NE(text.find("reduce #1: bad reference mismatch at mul (f32)"), std::string::npos) << text;
  EXPECT_NE(text.find("no single change keeps the failure any more"), std::string::npos) << text;
  EXPECT_LE(session.graph().op_count(), 3u) << print_rtg(session.graph());
  EXPECT_TRUE(has_op(session.graph(), "mul"));
  ASSERT_NE(session.compare_report(), nullptr);
  ASSERT_GE(session.compare_report()->bug_count(), 1u);
  EXPECT_EQ(session.compare_report()->bug(1)->signature, signature);
  EXPECT_NE(text.find("the reduced failure is finding #1"), std::string::npos) << text;

  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / fmt::format("retort_reduce_{}", ::getpid());
  fs::remove_all(dir);
  run_ok(fmt::format("export repro {}", dir.string()));
  std::string command =
      fmt::format("cd '{}' && /usr/bin/python3 repro.py > run.log 2>&1", dir.string());
  int status = std::system(command.c_str());
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 1);  // 1: reproduced
  fs::remove_all(dir);
}

}  // namespace
}  // namespace retort
