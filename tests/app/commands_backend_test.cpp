#include <gtest/gtest.h>

#include "app/backend_names.h"
#include "core/backend/family_env.h"
#include "core/base/error.h"
#include "tests/app/shell_fixture.h"

namespace retort {
namespace {

class BackendCommands : public testing::ShellTest {};

// The line of `backend list` that names `backend`, with its columns squeezed to one space.
std::string row_of(const std::string& text, const std::string& backend) {
  size_t at = text.find("\n" + backend + " ");
  if (at == std::string::npos) return "";
  std::string line = text.substr(at + 1, text.find('\n', at + 1) - at - 1), out;
  for (char c : line)
    if (c != ' ' || (!out.empty() && out.back() != ' ')) out += c;
  return out;
}

TEST_F(BackendCommands, ListShowsTheBuiltInsWithTheirReleases) {
  std::string text = run_ok("backend list");
  EXPECT_EQ(row_of("\n" + text, "NAME"), "NAME STATE VERSION OPTIONS");
  EXPECT_EQ(row_of(text, "ref"), "ref ready retort -");
  std::string ort = default_version(*find_family("ort"));
  ASSERT_FALSE(ort.empty());
  EXPECT_EQ(
      row_of(text, "ort:O1"),
      "ort:O1 not started " + ort + " execution_mode=sequential intra_op_threads=1 opt_level=basic")
      << text;
  std::string torch = default_version(*find_family("torch"));
  if (!torch.empty()) {
    EXPECT_EQ(row_of(text, "torch:script-te"),
              "torch:script-te not started " + torch + " freeze=0 fuser=1 mode=script");
  }
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
  EXPECT_NE(run_failing("backend detach").find("missing NAME; usage: backend detach NAME"),
            std::string::npos);
}

// `--backends` words: spaces and commas, families (their default mode), `all`, no repeats.
TEST_F(BackendCommands, BackendWordsResolveToBackends) {
  EXPECT_EQ(split_backend_words("ref, ort:O0  ort\tinductor"),
            (std::vector<std::string>{"ref", "ort:O0", "ort", "inductor"}));
  EXPECT_EQ(resolve_backends(session, {"ref", "ort", "ort:O3", "ort:O0"}, out),
            (std::vector<std::string>{"ref", "ort:O3", "ort:O0"}));
  std::vector<std::string> all = resolve_backends(session, {"all"}, out);
  ASSERT_GE(all.size(), 2u);
  EXPECT_EQ(all[0], "ref");
  EXPECT_EQ(all[1], "ort:O3");  // the default mode, as every family that is installed
  for (const auto& name : all) EXPECT_TRUE(session.backends().has(name)) << name;
  EXPECT_TRUE(is_backend_word(session, "inductor@2.1.0"));
  EXPECT_TRUE(is_backend_word(session, "ort:O9"));  // a family's: its error comes from resolving
  EXPECT_FALSE(is_backend_word(session, "max"));
  EXPECT_THROW(resolve_backends(session, {"ref", "ort:O9"}, out), Error);
}

}  // namespace
}  // namespace retort
