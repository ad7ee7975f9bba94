#include "core/base/terminal_text.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/base/words.h"

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

TEST(TerminalText, CommandTextQuotesAndEscapes) {
  EXPECT_EQ(command_text({"python3", "w.py", "--x"}), "python3 w.py --x");
  EXPECT_EQ(command_text({"sh", "-c", "rm -rf ~"}), "sh -c 'rm -rf ~'");
  EXPECT_EQ(command_text({"a\nb", "it's"}), "'a\\x0ab' 'it'\\''s'");
  EXPECT_EQ(command_text({"x\u202eexe.txt"}), "'x\\u202eexe.txt'");
  EXPECT_EQ(command_text({"A=1", "", "~", "#"}), "'A=1' '' '~' '#'");
}

// What /bin/sh makes of a line: the words a function given them prints, one per line; and
// whether the line ran anything else (it would leave the file `ran`).
std::string words_sh_reads(const std::string& line, bool& ran) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(::testing::TempDir()) / "retort-shell-word";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "line.sh") << "cd " << dir.string() << " || exit 9\n"
                                 << "words() { printf '%s\\n' \"$@\"; }\n"
                                 << "words " << line << "\n";
  std::string command = "/bin/sh " + (dir / "line.sh").string() + " > " + (dir / "out").string();
  int status = std::system(command.c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << line;
  std::ifstream in(dir / "out");
  std::string words((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ran = fs::exists(dir / "ran");
  fs::remove_all(dir);
  return words;
}

// Issue 43: a database named x';touch Q;'.db, printed into a line to paste, ran touch.
TEST(TerminalText, AShellWordIsOneWordThatRunsNothing) {
  const std::vector<std::string> hostile = {"x';touch ran;'.db",
                                            "$(touch ran)",
                                            "`touch ran`",
                                            "a\"b\\\"$(touch ran)\"",
                                            "; touch ran",
                                            "a\nb",
                                            "plain-name_1.db",
                                            "~/x",
                                            "it's",
                                            "${IFS}touch${IFS}ran",
                                            "*"};
  for (const std::string& word : hostile) {
    bool ran = true;
    std::string read = words_sh_reads(shell_word(word), ran);
    EXPECT_FALSE(ran) << word;
    EXPECT_EQ(read, terminal_name(word) + "\n") << word;  // one word, the name as printed
  }
  EXPECT_EQ(shell_word("plain-name_1.db"), "plain-name_1.db");
  EXPECT_EQ(shell_word("x\x1b]0;t\x07"), "'x\\x1b]0;t\\x07'");
  // Nested: a `retort -c` argument holding a quoted word reads back as the inner line.
  std::string inner = "findings report 1 --db " + shell_word("x';touch ran;'.db");
  bool ran = true;
  EXPECT_EQ(words_sh_reads(shell_word(inner), ran), inner + "\n");
  EXPECT_FALSE(ran);
  EXPECT_EQ(split_words(inner),
            (std::vector<std::string>{"findings", "report", "1", "--db", "x';touch ran;'.db"}));
}

TEST(TerminalText, AMarkdownCodeSpanOutfencesEveryBacktickRun) {
  EXPECT_EQ(markdown_code("x"), "`x`");
  EXPECT_EQ(markdown_code("a`b"), "``a`b``");
  EXPECT_EQ(markdown_code("``![i](http://e/)``"), "``` ``![i](http://e/)`` ```");
  EXPECT_EQ(markdown_code("`@x"), "`` `@x ``");
  EXPECT_EQ(markdown_code(" x "), "`  x  `");
  EXPECT_EQ(markdown_code("a\nb\x1b"), "`a\\x0ab\\x1b`");
  EXPECT_EQ(markdown_code(""), "`  `");  // two spaces: a span of blanks keeps them
  EXPECT_EQ(markdown_cell("a|b`"), "`` a\\|b` ``");
  // A cut long name keeps its pipes escaped.
  std::string cell = markdown_cell(std::string(5000, '|'));
  EXPECT_EQ(cell.find("||"), std::string::npos);
}

}  // namespace
}  // namespace retort
