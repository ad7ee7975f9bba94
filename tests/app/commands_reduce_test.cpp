// End to end on the fault worker: bisect names the rewrite that brings a miscompiled op in.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace retort
