// Issue 43: every printer shows untrusted text (names and strings a session file, a findings
// database or a cache holds, a worker's messages) through core/base/terminal_text.h. A hostile
// name goes through each printer here: no byte a terminal acts on and no forged line reaches the
// output, issue.md and README.md keep it inside code spans, and the lines printed for pasting
// run nothing when /bin/sh reads them.
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/command_line.h"
#include "core/backend/support.h"
#include "core/base/terminal_text.h"
#include "core/base/words.h"
#include "core/campaign/campaign_options.h"
#include "core/campaign/review.h"
#include "core/findings/findings_db.h"
#include "core/io/file_io.h"
#include "tests/app/shell_fixture.h"

namespace retort {
namespace {

namespace fs = std::filesystem;

// What a terminal, a shell and Markdown would each act on: CSI, OSC with BEL, CR and LF (a forged
// line), the one-byte CSI of C1, backticks, a command substitution, quotes, an image and a
// mention.
const std::string kHostile =
    "h\x1b[31m\x1b]0;pwned\x07\r\nFORGED line\xc2\x9b"
    "2J`x`$(touch ran)'\"![i](http://e/)@u";
// A block of lines (a reduced graph's text) keeps its lines, and shows its escapes.
const std::string kReducedText = "graph r\x1b]0;pwned\x07\xc2\x9b\noutput x\n";
// How terminal_name shows its start: the sign that a printer printed it.
const std::string kShown = "h\\x1b[31m\\x1b]0;pwned\\x07\\x0d\\x0aFORGED line";

class Escape : public testing::ShellTest {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("retort-escape-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Output that must show kHostile escaped and act on nothing.
  void expect_inert(const std::string& text, const std::string& where, bool shown = true) {
    for (unsigned char c : text) {
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
        ADD_FAILURE() << where << " prints the control byte " << static_cast<int>(c) << ":\n"
                      << text;
        return;
      }
    }
    EXPECT_EQ(text.find("\xc2\x9b"), std::string::npos) << where << ":\n" << text;
    EXPECT_EQ(text.find("\nFORGED"), std::string::npos) << where << " forges a line:\n" << text;
    if (shown) {
      EXPECT_NE(text.find(kShown), std::string::npos) << where << ":\n" << text;
    }
  }

  // Markdown whose every kHostile sits in a code span: outside code spans and code blocks no
  // piece of it is left that could render as markup.
  void expect_markdown_inert(const std::string& file, bool shown) {
    std::string text = read_file(file);
    expect_inert(text, file, shown);
    std::istringstream lines(text);
    std::string line, outside;
    bool in_block = false;
    while (std::getline(lines, line)) {
      if (line.starts_with("```")) in_block = !in_block;
      if (in_block || line.starts_with("    ")) continue;
      // CommonMark's code spans: a run of n backticks up to the next run of exactly n; outside
      // them a backslash escapes the next character (a backtick too, which then opens nothing).
      for (size_t i = 0; i < line.size();) {
        if (line[i] == '\\' && i + 1 < line.size()) {
          outside += line.substr(i + 1, 1);
          i += 2;
          continue;
        }
        if (line[i] != '`') {
          outside += line[i++];
          continue;
        }
        size_t n = std::min(line.find_first_not_of('`', i), line.size()) - i;
        size_t close = std::string::npos;
        for (size_t j = i + n; j < line.size();) {
          size_t run = std::min(line.find_first_not_of('`', j), line.size()) - j;
          if (line[j] == '`' && run == n) {
            close = j;
            break;
          }
          j += line[j] == '`' ? run : 1;
        }
        if (close == std::string::npos) {
          outside += line.substr(i, n);
          i += n;
        } else {
          i = close + n;
        }
      }
      outside += '\n';
    }
    for (const char* piece : {"FORGED", "![i]", "@u", "$(touch", "pwned"})
      EXPECT_EQ(outside.find(piece), std::string::npos)
          << file << ": '" << piece << "' outside a code span in:\n"
          << outside;
  }

  // What /bin/sh prints running `script` in dir_, where `retort` prints its arguments one a line;
  // and a failure when the script ran anything else (which would leave dir_/ran).
  std::string sh_output(const std::string& script) {
    std::ofstream(dir_ / "paste.sh") << "retort() { printf '%s\\n' \"$@\"; }\n" << script << "\n";
    std::string command =
        fmt::format("cd {} && /bin/sh paste.sh > paste.out 2>&1", shell_word(dir_.string()));
    int status = std::system(command.c_str());
    std::string output = read_file((dir_ / "paste.out").string());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << script << ":\n" << output;
    EXPECT_FALSE(fs::exists(dir_ / "ran")) << script << " ran a command";
    return output;
  }

  void attach_bad_mul() {
    run_ok(fmt::format(R"(backend attach bad --cmd "{} --fault perturb --perturb-op mul")",
                       RETORT_FAULT_WORKER));
  }

  // A findings database named as an attacker would, holding one finding of `bad` (which gets
  // mul wrong) on a variant named kHostile, with hostile names in every field that is text, and
  // a review of it.
  std::string write_hostile_db() {
    std::string path = (dir_ / "x';touch ran;'.db").string();
    FindingsDb db = FindingsDb::open(path);
    CampaignOptions o;
    o.backends = {"ref", "bad"};
    int64_t campaign = db.add_campaign({0, utc_now(), o.to_json().dump(), "0", "{}", 1, 0, 1});
    std::string rtg = read_file(RETORT_SOURCE_DIR "/samples/polyjuice/fig7_uint8_mul_order.rtg");
    FindingRecord f;
    f.signature = {"bad", "reference", "mismatch", "mul", "u8", kHostile, kHostile};
    f.backend_a = "bad";
    f.graph_a = kHostile;
    f.backend_b = "ref";
    f.graph_b = kHostile;
    f.backends = "ref,bad";
    f.original = rtg;
    f.variants = nlohmann::json{{kHostile, rtg}}.dump();
    f.verdicts = nlohmann::json::array({{{"backend", "bad"},
                                         {"graph", kHostile},
                                         {"verdict", "mismatch"},
                                         {"message", kHostile}}})
                     .dump();
    f.diverging = kHostile;
    f.first_seen = f.last_seen = utc_now();
    f.campaign = campaign;
    CaseRecord one;
    one.campaign = campaign;
    one.seed = one.findings = 1;
    db.record_case(one, {f});
    Agreement a{{"ref", kHostile}, {"bad"}, {kHostile}, false};
    FindingReview review;
    review.agreement = a.to_json();
    review.reduced = kReducedText;
    review.root = kHostile;
    db.set_review(f.signature.key(), review);
    return path;
  }

  fs::path dir_;
};

TEST_F(Escape, ASessionFilesNamesPrintEscaped) {
  run_ok("load " RETORT_SOURCE_DIR "/samples/polyjuice/fig7_uint8_mul_order.rtg");
  run_ok("input a = 1");
  std::string saved = (dir_ / "saved.json").string();
  run_ok("save " + shell_word(saved));
  nlohmann::json j = nlohmann::json::parse(read_file(saved));
  j["variants"] = {{{"name", kHostile}, {"graph", j["graph"]}}};
  j["rule_sets"].push_back({{"name", kHostile},
                            {"origin", kHostile},
                            {"text", "rule escape-neg\n  (neg (neg ?x)) => ?x\n"}});
  j["inputs"]["fixed"] = {{kHostile, j["inputs"]["fixed"]["a"]}};
  std::string crafted = (dir_ / "crafted.json").string();
  std::ofstream(crafted) << j.dump();
  expect_inert(run_ok("open " + shell_word(crafted)), "open", false);
  expect_inert(run_ok("variants"), "variants");
  expect_inert(run_ok("rules"), "rules");
  std::string rules = out.text();
  EXPECT_NE(rules.find(terminal_name(kHostile) + " (" + terminal_name(kHostile) + "):"),
            std::string::npos)
      << rules;  // the set's name and its origin
  expect_inert(run_ok("inputs"), "inputs");
  expect_inert(run_ok("input"), "input");
}

TEST_F(Escape, AFindingsDatabasesTextPrintsEscaped) {
  attach_bad_mul();
  std::string db = write_hostile_db();
  std::string with_db = " --db " + shell_word(db);
  expect_inert(run_ok("findings list" + with_db), "findings list");
  std::string shown = run_ok("findings show 1" + with_db);
  expect_inert(shown, "findings show");
  EXPECT_NE(shown.find("reduced (" + kShown), std::string::npos) << shown;  // the review's root
  EXPECT_NE(shown.find("graph r\\x1b]0;pwned\\x07\\u009b\noutput x\n"), std::string::npos) << shown;
  expect_inert(run_ok("findings open 1" + with_db), "findings open");
  expect_inert(run_ok("variants"), "variants of the opened finding");
  expect_inert(run_ok("compare --backends ref,bad"), "compare on the opened finding");

  // The report: what it prints, issue.md and README.md, and the lines it prints for pasting.
  fs::path report = dir_ / "b$(touch ran)'d`x`";
  std::string printed = run_ok("findings report 1 " + shell_word(report.string()) + with_db);
  expect_inert(printed, "findings report");
  expect_markdown_inert((report / "issue.md").string(), true);
  expect_markdown_inert((report / "README.md").string(), false);
  std::string issue = read_file((report / "issue.md").string());
  size_t at = issue.find("## In Retort\n\n    ");
  ASSERT_NE(at, std::string::npos) << issue;
  std::string line = issue.substr(at + 18);
  line = line.substr(0, line.find('\n'));
  // Pasted, the line runs retort with the one -c argument, which names the database by its
  // file name (where it lies here is nobody's business upstream).
  std::string words = sh_output(line);
  ASSERT_TRUE(words.starts_with("-c\n")) << line << ":\n" << words;
  std::string argument = words.substr(3, words.size() - 4);
  EXPECT_EQ(split_commands(argument).size(), 1u) << argument;
  EXPECT_EQ(split_words(argument), (std::vector<std::string>{"findings", "report", "1", "--db",
                                                             fs::path(db).filename().string()}))
      << argument;
  EXPECT_NE(read_file((report / "README.md").string()).find(markdown_code(line)),
            std::string::npos);
  // `run: cd DIR && ...`, pasted, runs the report's script, which prints the names escaped too.
  size_t run = printed.find("run: cd ");
  ASSERT_NE(run, std::string::npos) << printed;
  std::string run_line = printed.substr(run + 5, printed.find('\n', run) - run - 5);
  std::string ran = sh_output(run_line + "; echo \"exit $?\"");
  expect_inert(ran, "the report's repro.py");
  EXPECT_NE(ran.find("exit 1\n"), std::string::npos) << run_line << ":\n" << ran;
}

TEST_F(Escape, AWorkersTextStaysOnItsLine) {
  run_ok(fmt::format(R"(backend attach evil --cmd "{} --fault hostile")", RETORT_FAULT_WORKER));
  run_ok("load " RETORT_SOURCE_DIR "/samples/polyjuice/fig7_uint8_mul_order.rtg");
  out.clear();
  err.clear();
  shell.run("compare --backends ref,evil");
  expect_inert(out.text() + err.text(), "compare", false);
  EXPECT_NE(out.text().find("FORGED"), std::string::npos) << out.text();
  std::string listed = run_ok("backend list");
  expect_inert(listed, "backend list", false);
  EXPECT_NE(listed.find("1\\x1b]0;pwned\\x07\\x1b[2J\\x0d\\x0aFORGED line"), std::string::npos)
      << listed;  // the version its hello gave
  EXPECT_NE(listed.find("last error: \\x1b]0;pwned"), std::string::npos) << listed;
}

TEST_F(Escape, ASupportCacheNamesNoOtherBackend) {
  const char* before = std::getenv("XDG_CACHE_HOME");
  std::string kept = before ? before : "";
  setenv("XDG_CACHE_HOME", (dir_ / "cache").c_str(), 1);
  attach_bad_mul();
  std::string path = support_cache_path("bad", "retort-fault-worker 1");
  fs::create_directories(fs::path(path).parent_path());
  nlohmann::json cache = {{"backend", kHostile},
                          {"version", "retort-fault-worker 1"},
                          {"probed_with", probe_fingerprint("bad")},
                          {"cells", {{"add", {{"f32", "yes"}}}}}};
  std::ofstream(path) << cache.dump();
  std::string table = run_ok("backend support bad");
  if (before)
    setenv("XDG_CACHE_HOME", kept.c_str(), 1);
  else
    unsetenv("XDG_CACHE_HOME");
  expect_inert(table, "backend support", false);
  EXPECT_TRUE(table.starts_with("bad (retort-fault-worker 1): ")) << table.substr(0, 200);
}

}  // namespace
}  // namespace retort
