#include "app/command.h"

#include <gtest/gtest.h>

#include <sstream>

#include "core/base/error.h"

namespace retort {
namespace {

CommandSpec eval_like() {
  return {.name = "eval",
          .args = {{"NAME", Completion::VariantName, true}},
          .options = {{"--seed", "S", "the seed"}, {"--quiet", "", "say less"}},
          .summary = "Run it.",
          .run = [](Session&, const Args&, Output&) {}};
}

std::string error_of(const CommandSpec& spec, std::string_view rest) {
  try {
    spec.parse(rest);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(CommandSpec, OneLetterOptionsOnlyWhereDeclared) {
  CommandSpec render{.name = "render",
                     .args = {{"WHAT", Completion::None, true}},
                     .options = {{"-o", "FILE", "output"}}};
  Args a = render.parse("egraph -o e.svg");
  EXPECT_EQ(a.positional, (std::vector<std::string>{"egraph"}));
  EXPECT_EQ(a.option("-o"), "e.svg");
  // Without a declared -x, "-x" is a positional word (a negative number, say).
  a = render.parse("-x");
  EXPECT_EQ(a.positional, (std::vector<std::string>{"-x"}));
}

TEST(CommandSpec, SynopsisListsArgumentsAndOptions) {
  EXPECT_EQ(eval_like().synopsis(), "eval [NAME] [--seed S] [--quiet]");
  CommandSpec load{.name = "load", .args = {{"FILE", Completion::FilePath}}};
  EXPECT_EQ(load.synopsis(), "load FILE");
}

TEST(CommandSpec, ParsesPositionalsAndOptions) {
  Args a = eval_like().parse("max --seed 3 --quiet");
  EXPECT_EQ(a.positional, (std::vector<std::string>{"max"}));
  EXPECT_EQ(a.option("--seed"), "3");
  EXPECT_TRUE(a.has("--quiet"));
  a = eval_like().parse("--seed=9");
  EXPECT_EQ(a.arg(0), nullptr);
  EXPECT_EQ(a.option("--seed"), "9");
  a = eval_like().parse("-- --odd-name");
  EXPECT_EQ(a.positional, (std::vector<std::string>{"--odd-name"}));
}

TEST(CommandSpec, BadArgumentsGiveUsage) {
  CommandSpec e = eval_like();
  EXPECT_EQ(error_of(e, "a b"), "unexpected argument 'b'; usage: eval [NAME] [--seed S] [--quiet]");
  EXPECT_EQ(error_of(e, "--sed 3"),
            "unknown option --sed; did you mean --seed?; usage: eval [NAME] [--seed S] [--quiet]");
  EXPECT_EQ(error_of(e, "--seed"),
            "--seed needs a value S; usage: eval [NAME] [--seed S] [--quiet]");
  EXPECT_EQ(error_of(e, "--quiet=1"),
            "--quiet takes no value; usage: eval [NAME] [--seed S] [--quiet]");
  CommandSpec load{.name = "load", .args = {{"FILE", Completion::FilePath}}};
  EXPECT_EQ(error_of(load, ""), "missing FILE; usage: load FILE");
  EXPECT_EQ(error_of(load, "'a.rtg"), "unterminated single quote at 'a.rtg");
}

TEST(CommandSpec, RawTextIsKeptVerbatim) {
  CommandSpec def{.name = "def", .args = {{"STATEMENT"}}, .raw_text = true};
  Args a = def.parse("  y = f(x, \"a  'b\")  ");
  EXPECT_EQ(a.raw, "y = f(x, \"a  'b\")");
  EXPECT_TRUE(a.positional.empty());
  EXPECT_EQ(error_of(def, "   "), "missing STATEMENT; usage: def STATEMENT");
}

TEST(CommandRegistry, FindsCommandsAndSuggestsOnTypos) {
  CommandRegistry r;
  r.add(eval_like());
  r.add({.name = "seed", .summary = "Seed."});
  EXPECT_EQ(r.names(), (std::vector<std::string>{"eval", "seed"}));
  EXPECT_NE(r.find("seed"), nullptr);
  EXPECT_EQ(r.find("sed"), nullptr);
  EXPECT_THROW(r.add({.name = "seed"}), Error);
  try {
    r.get("evl");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "unknown command 'evl'; did you mean eval?");
  }
  try {
    r.get("frobnicate");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "unknown command 'frobnicate' (try `help`)");
  }
}

TEST(CommandRegistry, HelpAndMarkdownComeFromTheSpecs) {
  CommandRegistry r;
  r.add(eval_like());
  EXPECT_EQ(r.all()[0].help_text(),
            "eval [NAME] [--seed S] [--quiet]\n  Run it.\noptions:\n  --seed S  the seed\n"
            "  --quiet  say less\n");
  EXPECT_NE(r.overview().find("  eval [NAME] [options]   Run it.\n"), std::string::npos);
  // Every line of the overview fits 80 columns: a long synopsis takes its own line and a long
  // summary wraps (help was cut off in the workbench's log pane below ~220 columns).
  CommandSpec wide = eval_like();
  wide.name = "a-command-with-a-long-name";
  wide.summary = std::string(50, 'x') + " " + std::string(30, 'y');
  r.add(wide);
  std::string overview = r.overview();
  EXPECT_NE(overview.find("  a-command-with-a-long-name [NAME] [options]\n" + std::string(26, ' ') +
                          std::string(50, 'x') + "\n" + std::string(26, ' ') +
                          std::string(30, 'y') + "\n"),
            std::string::npos)
      << overview;
  std::istringstream lines(overview);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 80u) << line;
  std::string md = r.markdown();
  EXPECT_NE(md.find("## eval\n\n```\neval [NAME] [--seed S] [--quiet]\n```\n\nRun it.\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("- `--seed S`: the seed\n"), std::string::npos) << md;
}

// A command with subcommands: `findings show N`, `findings` alone lists.
CommandSpec findings_like(std::vector<std::string>* ran) {
  auto record = [ran](Session&, const Args& a, Output&) { ran->push_back(a.positional.at(0)); };
  return {.name = "findings",
          .options = {{"--db", "FILE", "the database"}},
          .summary = "Look at findings.",
          .actions = {{"list", {}, "Lists them.", record},
                      {"show", {{"N"}}, "Shows one.", record},
                      {"report", {{"N"}, {"DIR", Completion::FilePath, true}}, "Reports.", record},
                      {"merge", {{"DB...", Completion::FilePath, false, true}}, "Merges.", record}},
          .default_action = "list"};
}

TEST(CommandSpec, ActionsDispatchAndCheckTheirOwnArguments) {
  std::vector<std::string> ran;
  CommandSpec spec = findings_like(&ran);
  Session session;
  StringOutput out;
  Args a = spec.parse("--db f.db");
  EXPECT_EQ(a.positional, (std::vector<std::string>{"list"}));  // the default action
  spec.invoke(session, a, out);
  spec.invoke(session, spec.parse("show 3"), out);
  spec.invoke(session, spec.parse("merge a.db b.db c.db"), out);
  EXPECT_EQ(ran, (std::vector<std::string>{"list", "show", "merge"}));
  EXPECT_EQ(error_of(spec, "shw 3"),
            "unknown findings action 'shw'; did you mean show? (findings actions: list, show, "
            "report, merge)");
  EXPECT_EQ(error_of(spec, "show"), "missing N; usage: findings show N");
  EXPECT_EQ(error_of(spec, "report 1 d extra"),
            "unexpected argument 'extra'; usage: findings report N [DIR]");
  EXPECT_EQ(error_of(spec, "merge"), "missing DB...; usage: findings merge DB...");
  spec.default_action.clear();
  EXPECT_EQ(error_of(spec, ""),
            "missing ACTION (one of list, show, report, merge); usage: "
            "findings ACTION [--db FILE]");
}

TEST(CommandSpec, ActionsAreInHelpMarkdownAndTheRegistryChecksThem) {
  std::vector<std::string> ran;
  CommandSpec spec = findings_like(&ran);
  EXPECT_EQ(spec.synopsis(), "findings [ACTION] [--db FILE]");
  std::string help = spec.help_text();
  EXPECT_NE(help.find("  findings list  (the default)\n      Lists them.\n"), std::string::npos)
      << help;
  EXPECT_NE(help.find("  findings report N [DIR]\n      Reports.\n"), std::string::npos) << help;
  EXPECT_NE(spec.markdown().find("- `findings merge DB...`: Merges."), std::string::npos);
  CommandRegistry r;
  CommandSpec both = spec;
  both.args = {{"X"}};
  EXPECT_THROW(r.add(both), Error);  // arguments belong to the actions
  CommandSpec no_default = spec;
  no_default.default_action = "lst";
  EXPECT_THROW(r.add(no_default), Error);
  r.add(spec);
  EXPECT_NE(r.man("retort").find("findings show N"), std::string::npos);
}

TEST(ParseU64, AcceptsWholeNumbersOnly) {
  EXPECT_EQ(parse_u64("0", "n"), 0u);
  EXPECT_EQ(parse_u64("18446744073709551615", "n"), UINT64_MAX);
  EXPECT_THROW(parse_u64("18446744073709551616", "n"), Error);
  EXPECT_THROW(parse_u64("-1", "n"), Error);
  EXPECT_THROW(parse_u64("3x", "n"), Error);
  EXPECT_THROW(parse_u64("", "n"), Error);
}

}  // namespace
}  // namespace retort
