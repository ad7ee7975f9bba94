#include "app/commands.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include <gtest/gtest.h>

#include "app/completion.h"
#include "app/shell.h"
#include "tests/app/shell_fixture.h"

namespace retort {
namespace {

TEST(BuiltinCommands, AreRegisteredOnceWithHelpAndHandler) {
  const CommandRegistry& r = app_commands();
  EXPECT_EQ(r.names(),
            (std::vector<std::string>{
                "load",    "new",     "def",       "show",        "info",     "export",  "eval",
                "input",   "inputs",  "seed",      "conformance", "egraph",   "rules",   "match",
                "apply",   "step",    "saturate",  "extract",     "variants", "explain", "undo",
                "redo",    "render",  "save",      "open",        "history",  "log",     "replay",
                "backend", "compare", "tolerance", "inspect",     "bisect",   "reduce",  "sweep",
                "variant", "equiv",   "gen",       "fuzz",        "findings", "einsum",  "oatest",
                "hirfuzz", "program", "help",      "quit"}));
  for (const CommandSpec& c : r.all()) {
    EXPECT_FALSE(c.summary.empty()) << c.name;
    EXPECT_EQ(c.summary.back(), '.') << c.name;
    EXPECT_EQ(static_cast<bool>(c.run), c.actions.empty()) << c.name;
    for (const ActionSpec& a : c.actions) {
      EXPECT_FALSE(a.summary.empty()) << c.name << " " << a.name;
      EXPECT_TRUE(static_cast<bool>(a.run)) << c.name << " " << a.name;
    }
  }
}

TEST(BuiltinCommands, ArgumentsCompleteByKind) {
  const CommandRegistry& r = app_commands();
  Session s;
  s.set_variant("max", Graph{});
  EXPECT_TRUE(complete_word(r, s, "load ", "").file_path);
  EXPECT_TRUE(complete_word(r, s, "export ", "x").file_path);
  EXPECT_TRUE(complete_word(r, s, "conformance ", "").file_path);
  EXPECT_EQ(complete_word(r, s, "show ", "").candidates, (std::vector<std::string>{"max"}));
  EXPECT_EQ(complete_word(r, s, "eval --seed 3 ", "m").candidates,
            (std::vector<std::string>{"max"}));
  EXPECT_EQ(complete_word(r, s, "help ", "con").candidates,
            (std::vector<std::string>{"conformance"}));
  EXPECT_EQ(complete_word(r, s, "export a.rtg ", "--").candidates,
            (std::vector<std::string>{"--finding", "--force", "--full", "--issue"}));
}

class BuiltinShell : public testing::ShellTest {};

TEST_F(BuiltinShell, DefBuildsAGraphThatEvalRunsDeterministically) {
  EXPECT_EQ(run_ok("def input x : f32[3]"), "x: f32[3]\n");
  EXPECT_EQ(run_ok("def y = log(x)"), "y: f32[3]\n");
  run_ok("def output y");
  std::string first = run_ok("eval");
  EXPECT_EQ(first.rfind("note: x: positive values (log needs them)\ny: f32[3] min=", 0), 0u)
      << first;
  EXPECT_EQ(run_ok("eval"), first);
  EXPECT_EQ(run_ok("eval --seed 1"), first);
  EXPECT_NE(run_ok("eval --seed 2"), first);
  run_ok("seed 2");
  EXPECT_NE(run_ok("eval"), first);
}

TEST_F(BuiltinShell, FailedDefLeavesTheGraphUnchanged) {
  run_ok("def input x : f32[3]");
  EXPECT_EQ(shell.run("def y = log(nosuch)"), LineStatus::Failed);
  EXPECT_EQ(session.graph().nodes.size(), 0u);
  EXPECT_EQ(session.graph().inputs.size(), 1u);
  EXPECT_EQ(err.text().rfind("error: ", 0), 0u) << err.text();
}

// Graphviz crashing (dot 2.43 aborts on some large e-graphs) fails the command, not the session.
TEST_F(BuiltinShell, AGraphvizCrashInRenderLeavesTheSessionAlive) {
  run_ok("def input x : f32[3]");
  run_ok("def y = abs(x)");
  run_ok("def output y");
  std::string path = (std::filesystem::temp_directory_path() /
                      fmt::format("retort_render_crash_{}.svg", ::getpid()))
                         .string();
  ::setenv("RETORT_TEST_CHILD_CRASH", "1", 1);
  std::string error = run_failing("render graph -o " + path);
  ::unsetenv("RETORT_TEST_CHILD_CRASH");
  EXPECT_NE(error.find("was killed by signal 6 (Aborted)"), std::string::npos) << error;
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_EQ(run_ok("render graph -o " + path), "wrote " + path + "\n");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace retort
