#include "app/completion.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "app/commands.h"
#include "core/backend/family.h"
#include "core/backend/family_env.h"
#include "core/ops/registry.h"

namespace retort {
namespace {

using Names = std::vector<std::string>;

class CompletionTest : public ::testing::Test {
 protected:
  CompletionTest() {
    auto nothing = [](Session&, const Args&, Output&) {};
    commands.add({.name = "load", .args = {{"FILE", Completion::FilePath}}, .run = nothing});
    commands.add({.name = "eval",
                  .args = {{"NAME", Completion::VariantName, true}},
                  .options = {{"--seed", "S", "seed"}, {"--force", "", "force"}},
                  .run = nothing});
    commands.add(
        {.name = "help",
         .args = {{"TOPIC", Completion::Command, true}, {"NAME", Completion::OpName, true}},
         .run = nothing});
    commands.add({.name = "def",
                  .args = {{"STATEMENT", Completion::NodeName}},
                  .run = nothing,
                  .raw_text = true});
    session.set_variant("max", Graph{});
    session.set_variant("min", Graph{});
    session.set_variant("orig", Graph{});
    Graph g;
    g.inputs.push_back({"x", {DType::f32, {2}}});
    g.types["x"] = {DType::f32, {2}};
    g.types["y"] = {DType::f32, {2}};
    g.types["v_exp"] = {DType::f32, {2}};
    g.nodes.push_back(Node{});
    g.nodes.back().name = "n0";
    g.nodes.back().outputs = {"v_exp"};
    session.set_graph(g);
  }
  CompletionResult complete(std::string_view before, std::string_view word) {
    return complete_word(commands, session, before, word);
  }
  CommandRegistry commands;
  Session session;
};

TEST_F(CompletionTest, FirstWordIsACommand) {
  EXPECT_EQ(complete("", "").candidates, (Names{"def", "eval", "help", "load"}));
  EXPECT_EQ(complete("", "e").candidates, (Names{"eval"}));
  EXPECT_EQ(complete("  ", "l").candidates, (Names{"load"}));
}

TEST_F(CompletionTest, ArgumentsFollowTheirKind) {
  CompletionResult file = complete("load ", "sa");
  EXPECT_TRUE(file.file_path);
  EXPECT_TRUE(file.candidates.empty());
  EXPECT_EQ(complete("eval ", "m").candidates, (Names{"max", "min"}));
  EXPECT_EQ(complete("help ", "lo").candidates, (Names{"load"}));
  EXPECT_EQ(complete("eval max ", "").candidates, Names{});
  EXPECT_EQ(complete("nosuch ", "").candidates, Names{});
}

TEST_F(CompletionTest, OptionsAndTheirValuesAreSkipped) {
  EXPECT_EQ(complete("eval ", "--").candidates, (Names{"--force", "--seed"}));
  EXPECT_EQ(complete("eval --seed ", "").candidates, Names{});
  EXPECT_EQ(complete("eval --seed 3 ", "o").candidates, (Names{"orig"}));
  EXPECT_EQ(complete("eval --force ", "o").candidates, (Names{"orig"}));
}

// Statements name values; a node's internal name (n0) is not one.
TEST_F(CompletionTest, ValueNamesForRawStatements) {
  EXPECT_EQ(complete("def z = f(", "").candidates, (Names{"v_exp", "x", "y"}));
  EXPECT_EQ(complete("def z = ", "v").candidates, (Names{"v_exp"}));
  EXPECT_EQ(complete("def z = ", "n").candidates, (Names{}));
}

TEST_F(CompletionTest, OpNamesComeFromTheRegistry) {
  EXPECT_EQ(complete("help op ", "").candidates, OpRegistry::instance().names());
}

// The workbench's own commands: actions, modes, keywords, rule and backend names complete.
TEST(AppCompletion, RulesModesBackendsAndKeywords) {
  Session session;
  auto complete = [&](std::string_view before, std::string_view word) {
    return complete_word(app_commands(), session, before, word);
  };
  EXPECT_EQ(complete("rules ", "d").candidates, (Names{"disable"}));
  CompletionResult rule = complete("rules disable ", "poly");
  EXPECT_FALSE(rule.file_path);
  ASSERT_FALSE(rule.candidates.empty());
  EXPECT_EQ(rule.candidates.front(), "polyjuice");
  std::string one = builtin_rules("polyjuice").rules.front().name;
  EXPECT_EQ(complete("rules enable ", one).candidates.front(), one);
  EXPECT_TRUE(complete("rules load ", "").file_path);
  EXPECT_EQ(complete("extract ", "m").candidates, (Names{"max", "min"}));
  EXPECT_EQ(complete("render ", "e").candidates, (Names{"egraph"}));
  EXPECT_EQ(complete("backend ", "s").candidates, (Names{"support"}));
  EXPECT_EQ(complete("backend support ", "ort:O").candidates,
            (Names{"ort:O0", "ort:O1", "ort:O2", "ort:O3"}));
  EXPECT_EQ(complete("oatest ", "").candidates, (Names{"patterns", "trigger", "weave"}));
  EXPECT_EQ(complete("oatest weave ", "conv_").candidates,
            (Names{"conv_add", "conv_bn", "conv_mul", "conv_relu"}));
  EXPECT_EQ(complete("oatest trigger 10 --backend ", "ort:O1").candidates, (Names{"ort:O1"}));
  // Actions complete, then each action's own arguments.
  EXPECT_EQ(complete("findings ", "").candidates,
            (Names{"blame", "export", "known", "list", "merge", "open", "report", "show"}));
  EXPECT_EQ(complete("findings --db x.db ", "me").candidates, (Names{"merge"}));
  EXPECT_TRUE(complete("findings merge a.db ", "").file_path);  // DB... repeats
  EXPECT_FALSE(complete("findings show ", "").file_path);
  EXPECT_EQ(complete("program mutate ", "tc").candidates, (Names{"tcb"}));
  EXPECT_TRUE(complete("history save ", "").file_path);
}

// Backends complete as the commands take them: families and their modes in backend lists,
// FAMILY@ and then its releases (installed, and those the registry offered last time) where a
// release is needed.
TEST(AppCompletion, BackendsFamiliesAndReleases) {
  namespace fs = std::filesystem;
  fs::path cache = fs::temp_directory_path() / fmt::format("retort_completion_{}", getpid());
  const FamilyDef& env = environment_family(get_family("inductor"));
  fs::create_directories(cache / "retort" / "releases");
  std::ofstream(cache / "retort" / "releases" / (env.name + ".txt")) << "2.4.1\n2.5.0\n";
  const char* old = std::getenv("XDG_CACHE_HOME");
  std::string saved = old ? old : "";
  setenv("XDG_CACHE_HOME", cache.c_str(), 1);
  Session session;
  auto complete = [&](std::string_view before, std::string_view word) {
    return complete_word(app_commands(), session, before, word).candidates;
  };
  EXPECT_EQ(complete("compare --backends ", "induc"),
            (Names{"inductor", "inductor:cpp-wrapper", "inductor:cuda", "inductor:default",
                   "inductor:freezing", "inductor:max-autotune-no-cudagraphs"}));
  EXPECT_EQ(complete("compare --backends ref ", "induc"),
            (Names{"inductor", "inductor:cpp-wrapper", "inductor:cuda", "inductor:default",
                   "inductor:freezing", "inductor:max-autotune-no-cudagraphs"}));
  EXPECT_EQ(complete("fuzz --backends ", "al"), (Names{"all"}));
  EXPECT_EQ(complete("backend install ", "induc"), (Names{"inductor@"}));
  // readline breaks the word at '@': the version is the word being typed.
  EXPECT_EQ(complete("backend install inductor@", ""), (Names{"2.4.1", "2.5.0"}));
  EXPECT_EQ(complete("backend install inductor@", "2.5"), (Names{"2.5.0"}));
  EXPECT_EQ(complete("compare --backends inductor@", "2.4"), (Names{"2.4.1"}));
  EXPECT_EQ(complete("backend versions ", "induc"), (Names{"inductor"}));
  if (old)
    setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else
    unsetenv("XDG_CACHE_HOME");
  fs::remove_all(cache);
}

}  // namespace
}  // namespace retort
