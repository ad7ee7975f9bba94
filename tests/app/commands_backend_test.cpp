#include <gtest/gtest.h>

#include "tests/app/shell_fixture.h"

namespace retort {
namespace {

class BackendCommands : public testing::ShellTest {};

TEST_F(BackendCommands, ListShowsTheBuiltIns) {
  std::string text = run_ok("backend list");
  EXPECT_EQ(text.substr(0, text.find('\n')), "NAME                 STATE        VERSION  OPTIONS");
  EXPECT_NE(text.find("\nref                  ready        retort   -\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\nort:O1               not started  -        "
                      "execution_mode=sequential intra_op_threads=1 opt_level=basic\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("torch:script-te      not started  -        freeze=0 fuser=1 mode=script"),
            std::string::npos)
      << text;
  EXPECT_EQ(run_ok("backend"), text);
}

TEST_F(BackendCommands, AttachSplitsTheCommandLineAndDetachRemoves) {
  std::string text =
      run_ok(R"(backend attach mine --cmd "/bin/sh 'a b' c\ d" --timeout 2.5 --option k=v,x=1)");
  EXPECT_EQ(text, "attached mine: /bin/sh a b c d (timeout 2.5 s; it starts on its first run)\n");
  ASSERT_EQ(session.backends().attached().size(), 1u);
  BackendSpec spec = session.backends().attached()[0];
  EXPECT_EQ(spec.argv, (std::vector<std::string>{"/bin/sh", "a b", "c d"}));
  EXPECT_EQ(spec.timeout_s, 2.5);
  EXPECT_EQ(spec.options, (std::map<std::string, std::string>{{"k", "v"}, {"x", "1"}}));
  EXPECT_NE(run_ok("backend list").find("\nmine "), std::string::npos);
  EXPECT_EQ(run_ok("backend detach mine"), "detached mine\n");
  EXPECT_TRUE(session.backends().attached().empty());
}

TEST_F(BackendCommands, MistakesAreErrors) {
  EXPECT_NE(run_failing("backend attach x").find("needs --cmd"), std::string::npos);
  EXPECT_NE(run_failing("backend attach x --cmd \"a 'b\"").find("unterminated single quote"),
            std::string::npos);
  EXPECT_NE(run_failing("backend attach x --cmd w --timeout soon").find("--timeout takes seconds"),
            std::string::npos);
  EXPECT_NE(run_failing("backend attach x --cmd w --option k").find("K=V pairs"),
            std::string::npos);
  EXPECT_NE(run_failing("backend attach ref --cmd sh").find("built-in"), std::string::npos);
  EXPECT_NE(run_failing("backend attach x --cmd ./no-such-worker").find("not an executable file"),
            std::string::npos);
  EXPECT_NE(run_failing("backend attach x --cmd no-such-worker").find("cannot find the program"),
            std::string::npos);
  EXPECT_NE(run_failing("backend detach ort:O3").find("built-in"), std::string::npos);
  EXPECT_NE(run_failing("backend detach ort:03").find("did you mean ort:O3"), std::string::npos);
  EXPECT_NE(run_failing("backend frobnicate").find("unknown backend action"), std::string::npos);
  EXPECT_NE(run_failing("backend detach").find("needs a NAME"), std::string::npos);
}

}  // namespace
}  // namespace retort
