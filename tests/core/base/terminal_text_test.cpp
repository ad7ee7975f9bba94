#include "core/base/terminal_text.h"

#include <gtest/gtest.h>

#include "core/base/error.h"

namespace retort {
namespace {

TEST(TerminalText, KeepsPlainTextNewlinesTabsAndUtf8) {
  EXPECT_EQ(terminal_safe("line 1\n\tline 2 — ü 你好", 100), "line 1\n\tline 2 — ü 你好");
}

TEST(TerminalText, EscapesControlsC1AndBrokenUtf8) {
  EXPECT_EQ(terminal_safe("a\x1b]0;title\x07z", 100), "a\\x1b]0;title\\x07z");
  EXPECT_EQ(terminal_safe("\r\x7f", 100), "\\x0d\\x7f");
  EXPECT_EQ(terminal_safe("\xc2\x9b"
                          "2J",
                          100),
            "\\u009b2J");  // CSI as one character
  EXPECT_EQ(terminal_safe("\x9b"
                          "2J\xff",
                          100),
            "\\x9b2J\\xff");                                // not UTF-8
  EXPECT_EQ(terminal_safe("\xc0\x9b", 100), "\\xc0\\x9b");  // overlong
}

// Issue 27: worker messages still passed U+202E (which shows "exe.txt" for "txt.exe") and
// U+2028 (a line break to many terminals).
TEST(TerminalText, EscapesBidiOverridesAndLineSeparators) {
  EXPECT_EQ(terminal_safe("evil\u202etxt.exe", 100), "evil\\u202etxt.exe");
  EXPECT_EQ(terminal_safe("a\u2028b\u2029c", 100), "a\\u2028b\\u2029c");
  EXPECT_EQ(terminal_safe("\u2066\u2069\u200f\u061c", 100), "\\u2066\\u2069\\u200f\\u061c");
  EXPECT_EQ(terminal_safe("\u2027\u2030", 100), "\u2027\u2030");  // neighbours stay
}

TEST(TerminalText, ANameStaysOnItsLine) {
  EXPECT_EQ(terminal_name("x\ny\tz"), "x\\x0ay\\x09z");
  EXPECT_EQ(terminal_name("graph\x1b]2;owned\x07"), "graph\\x1b]2;owned\\x07");
  EXPECT_EQ(terminal_name("caf\u00e9 \u4f60\u597d"), "caf\u00e9 \u4f60\u597d");
  EXPECT_LE(terminal_name(std::string(100000, '\n')).size(), kWorkerMessageBytes + 100);
}

TEST(TerminalText, BoundsLongTextKeepingHeadAndTail) {
  std::string token = "HEAD" + std::string(10'000'000, 'x') + "TAIL";
  std::string safe = terminal_safe(token, 1000);
  EXPECT_LE(safe.size(), 1100u);
  EXPECT_EQ(safe.substr(0, 4), "HEAD");
  EXPECT_EQ(safe.substr(safe.size() - 4), "TAIL");
  EXPECT_NE(safe.find("bytes left out"), std::string::npos);
  // Escapes cannot push it over the bound either.
  EXPECT_LE(terminal_safe(std::string(5000, '\x1b'), 1000).size(), 1100u);
}

TEST(TerminalText, ErrorsEchoingATokenAreSafeAndBounded) {
  Error e(fmt::format("unknown command '{}'", "\x1b[2J" + std::string(10'000'000, 'z')), {},
          "n\x1b");
  EXPECT_LE(std::string(e.what()).size(), 2 * kErrorMessageBytes);
  EXPECT_EQ(std::string(e.what()).find('\x1b'), std::string::npos);
  EXPECT_EQ(e.node(), "n\\x1b");
}

}  // namespace
}  // namespace retort
