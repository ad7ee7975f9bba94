#include "app/shell.h"

#include <stdexcept>

#include <gtest/gtest.h>

#include "core/base/error.h"

namespace retort {
namespace {

class ShellTest : public ::testing::Test {
 protected:
  ShellTest() {
    commands.add({.name = "echo",
                  .args = {{"WORD"}},
                  .summary = "Print WORD.",
                  .run = [](Session&, const Args& a, Output& o) { o.line(*a.arg(0)); }});
    commands.add({.name = "boom",
                  .summary = "Fail like user input does.",
                  .run = [](Session&, const Args&, Output&) {
                    throw Error("bad shape", SourceLoc{"g.rtg", 3, 7}, "n1");
                  }});
    commands.add(
        {.name = "bug",
         .summary = "Fail like a bug does.",
         .run = [](Session&, const Args&, Output&) { throw std::out_of_range("map::at"); }});
    commands.add({.name = "bye",
                  .summary = "End.",
                  .run = [](Session&, const Args&, Output&) {},
                  .ends_session = true});
  }
  CommandRegistry commands;
  Session session;
  StringOutput out, err;
  Shell shell{session, commands, out, err};
};

TEST_F(ShellTest, RunsCommandsAndJournalsThem) {
  EXPECT_EQ(shell.run("  echo 'hello world'  "), LineStatus::Ok);
  EXPECT_EQ(out.text(), "hello world\n");
  EXPECT_EQ(err.text(), "");
  ASSERT_EQ(session.journal().size(), 1u);
  EXPECT_EQ(session.journal()[0].command, "echo 'hello world'");
  EXPECT_TRUE(session.journal()[0].ok);
}

TEST_F(ShellTest, BlankLinesAndCommentsDoNothing) {
  EXPECT_EQ(shell.run(""), LineStatus::Ok);
  EXPECT_EQ(shell.run("   # echo x"), LineStatus::Ok);
  EXPECT_EQ(out.text(), "");
  EXPECT_TRUE(session.journal().empty());
}

TEST_F(ShellTest, ErrorsAreCaughtPrintedAndTheSessionGoesOn) {
  EXPECT_EQ(shell.run("boom"), LineStatus::Failed);
  EXPECT_EQ(err.text(), "error: g.rtg:3:7: node 'n1': bad shape\n");
  err.clear();
  EXPECT_EQ(shell.run("bug"), LineStatus::Failed);
  EXPECT_EQ(err.text(), "error: internal error: map::at\n");
  err.clear();
  EXPECT_EQ(shell.run("echo", "s.rts:4"), LineStatus::Failed);
  EXPECT_EQ(err.text(), "s.rts:4: error: missing WORD; usage: echo WORD\n");
  err.clear();
  EXPECT_EQ(shell.run("ecoh x"), LineStatus::Failed);
  EXPECT_EQ(err.text(), "error: unknown command 'ecoh'; did you mean echo?\n");
  EXPECT_EQ(shell.run("echo still-here"), LineStatus::Ok);
  EXPECT_EQ(out.text(), "still-here\n");
  ASSERT_EQ(session.journal().size(), 5u);
  EXPECT_FALSE(session.journal()[0].ok);
  EXPECT_TRUE(session.journal()[4].ok);
}

TEST_F(ShellTest, EndingCommandReportsQuit) {
  EXPECT_EQ(shell.run("bye"), LineStatus::Quit);
  EXPECT_EQ(shell.run("bye now"), LineStatus::Failed);
}

}  // namespace
}  // namespace retort
