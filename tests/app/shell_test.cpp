#include "app/shell.h"

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
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

// An Output that, the moment a command's result appears, reads what the journal file holds:
// a kill -9 right then must not lose the command.
class JournalPeek : public Output {
 public:
  explicit JournalPeek(std::string path) : path_(std::move(path)) {}
  void write(std::string_view text) override {
    if (text.empty()) return;
    std::ifstream in(path_);
    journal_at_output += std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::string journal_at_output;

 private:
  std::string path_;
};

class ShellJournalTest : public ShellTest {
 protected:
  void SetUp() override {
    path = (std::filesystem::temp_directory_path() /
            fmt::format("retort_shell_journal_{}.jsonl", ::getpid()))
               .string();
    session.attach_journal(JournalFile::create(path, 1));
  }
  void TearDown() override { std::filesystem::remove(path); }
  std::string path;
};

TEST_F(ShellJournalTest, TheCommandIsJournaledBeforeItsResultIsShown) {
  JournalPeek peek(path);
  Shell peeking(session, commands, peek, err);
  EXPECT_EQ(peeking.run("echo acknowledged"), LineStatus::Ok);
  EXPECT_NE(peek.journal_at_output.find("echo acknowledged"), std::string::npos)
      << peek.journal_at_output;
}

// A full disk (the file-size limit makes write() fail as ENOSPC would): a warning at once, and
// again after every later command.
TEST_F(ShellJournalTest, AnUnwritableJournalIsAWarningAfterEveryCommand) {
  EXPECT_EQ(shell.run("echo first"), LineStatus::Ok);
  EXPECT_EQ(err.text(), "");
  struct rlimit old {};
  ::getrlimit(RLIMIT_FSIZE, &old);
  auto previous = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit tiny = old;
  tiny.rlim_cur = std::filesystem::file_size(path);
  ::setrlimit(RLIMIT_FSIZE, &tiny);
  EXPECT_EQ(shell.run("echo second"), LineStatus::Ok);
  ::setrlimit(RLIMIT_FSIZE, &old);
  ::signal(SIGXFSZ, previous);
  EXPECT_NE(err.text().find("warning: not journaled: cannot write the journal " + path),
            std::string::npos)
      << err.text();
  err.clear();
  EXPECT_EQ(shell.run("echo third"), LineStatus::Ok);
  EXPECT_NE(err.text().find("warning: not journaled"), std::string::npos) << err.text();
  err.clear();
  EXPECT_EQ(shell.run("boom"), LineStatus::Failed);
  EXPECT_NE(err.text().find("warning: not journaled"), std::string::npos) << err.text();
}

TEST_F(ShellTest, EndingCommandReportsQuit) {
  EXPECT_EQ(shell.run("bye"), LineStatus::Quit);
  EXPECT_EQ(shell.run("bye now"), LineStatus::Failed);
}

}  // namespace
}  // namespace retort
