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
};

// The worker miscompiles transpose, which the original lacks: only rewritten variants fail, and
// bisect names the rule that brought the transpose in.
TEST_F(ReduceCommands, BisectNamesTheRuleThatBringsTheMiscompiledOpIn) {
  for (const char* statement : {"input a : f32[2,3,4]", "input b : f32[2,3,4]", "m = mul(a, b)",
                                "out = neg(m)", "output out"})
    run_ok(fmt::format("def {}", statement));
  run_ok("egraph");
  run_ok("saturate --iters 2");
  run_ok("extract min");
  run_ok("extract max");
  attach_bad("transpose");
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
