#include "app/progress_line.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "app/shell.h"
#include "core/base/error.h"

namespace retort {
namespace {

// What a stream got.
std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string text;
  for (int c; (c = std::fgetc(f)) != EOF;) text += static_cast<char>(c);
  return text;
}

constexpr ProgressLine::Timing kQuick{.first_after_s = 0, .redraw_s = 0.01, .every_s = 0.05};

TEST(ProgressText, SaysCountsRateElapsedAndTimeLeft) {
  EXPECT_EQ(progress_text("compare", "runs", 10, 40, 5),
            "compare: 10/40 runs  2.0/s  5 s  ETA 15 s");
  EXPECT_EQ(progress_text("fuzz", "cases", 300, 0, 125), "fuzz: 300 cases  2.4/s  2 min 05 s");
  EXPECT_EQ(progress_text("backend", "", 0, 0, 3), "backend:  3 s");
  // A status is untrusted text (a finding's name): no escape reaches the terminal.
  EXPECT_EQ(progress_text("x", "a\x1b[2Jb", 0, 0, 0).find('\x1b'), std::string::npos);
}

TEST(ProgressLine, ElsewhereAStatusLineEveryPeriod) {
  std::FILE* f = std::tmpfile();
  {
    ProgressLine line(f, false, kQuick);
    line.begin("fuzz");
    line.progress("cases", 3, 10);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    line.end();
  }
  std::string text = contents(f);
  EXPECT_NE(text.find("fuzz: 3/10 cases"), std::string::npos) << text;
  EXPECT_EQ(text.find('\r'), std::string::npos) << text;
  EXPECT_GE(std::count(text.begin(), text.end(), '\n'), 2) << text;
  std::fclose(f);
}

TEST(ProgressLine, OnATerminalOneLineRedrawnAndClearedAtTheEnd) {
  std::FILE* f = std::tmpfile();
  {
    ProgressLine line(f, true, kQuick);
    line.begin("compare");
    line.progress("runs", 1, 4);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    line.live("installing");  // a live line clears the progress line first
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    line.end();
  }
  std::string text = contents(f);
  EXPECT_NE(text.find("\rcompare: 1/4 runs"), std::string::npos) << text;
  EXPECT_NE(text.find("\r\x1b[Kinstalling\n"), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with("\r\x1b[K")) << text;
  EXPECT_EQ(text.find('\n'), text.find("installing\n") + 10) << text;
  std::fclose(f);
}

TEST(ProgressLine, AQuickCommandShowsNothing) {
  std::FILE* f = std::tmpfile();
  {
    ProgressLine line(f, true, {.first_after_s = 10, .redraw_s = 0.01, .every_s = 0.05});
    line.begin("eval");
    line.progress("runs", 1, 4);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    line.end();
  }
  EXPECT_EQ(contents(f), "");
  std::fclose(f);
}

// What a view was told, in order.
class RecordingView : public ProgressView {
 public:
  void begin(std::string_view command) override { said += "begin " + std::string(command) + ";"; }
  void end() override { said += "end;"; }
  void write(std::string_view text) override { said += text; }
  void progress(std::string_view status, uint64_t done, uint64_t total) override {
    said += fmt::format("progress {} {}/{};", status, done, total);
  }
  std::string said;
};

TEST(ShellProgress, TheViewShowsTheCommandWhileItsOutputIsHeld) {
  CommandRegistry commands;
  commands.add({.name = "work",
                .options = {{"--quiet", "", "no progress"}},
                .run = [](Session&, const Args&, Output& out) {
                  out.progress("steps", 1, 2);
                  out.live("as it comes");
                  out.line("result");
                }});
  commands.add({.name = "broken", .run = [](Session&, const Args&, Output&) { fail("no"); }});
  Session session;
  StringOutput out, err;
  RecordingView view;
  Shell shell(session, commands, out, err, &view);
  EXPECT_EQ(shell.run("work"), LineStatus::Ok);
  EXPECT_EQ(view.said, "begin work;progress steps 1/2;as it comes\nend;");
  EXPECT_EQ(out.text(), "result\n");
  view.said.clear();
  EXPECT_EQ(shell.run("broken"), LineStatus::Failed);
  EXPECT_EQ(view.said, "begin broken;end;");
  // --quiet: nothing shown; a live line stays part of the output.
  view.said.clear();
  out.clear();
  EXPECT_EQ(shell.run("work --quiet"), LineStatus::Ok);
  EXPECT_EQ(view.said, "");
  EXPECT_EQ(out.text(), "as it comes\nresult\n");
}

}  // namespace
}  // namespace retort
