#include "app/line_editor.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "tests/app/shell_fixture.h"

namespace retort::testing {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The history lives in the state folder; one kept where earlier versions kept it moves there,
// so that nobody's history is left behind.
class LineEditorTest : public ShellTest {};

TEST_F(LineEditorTest, TheHistoryMovesFromTheOldFileToTheStateFolder) {
  namespace fs = std::filesystem;
  fs::path home = fs::temp_directory_path() / fmt::format("retort_history_{}", getpid());
  fs::create_directories(home);
  std::ofstream(home / ".retort_history") << "seed 5\n";
  std::string saved_home = std::getenv("HOME") ? std::getenv("HOME") : "";
  setenv("HOME", home.c_str(), 1);
  unsetenv("XDG_STATE_HOME");
  unsetenv("RETORT_HISTORY");
  fs::path moved = home / ".local" / "state" / "retort" / "history";
  EXPECT_EQ(history_path(), moved.string());
  { LineEditor editor(shell); }
  EXPECT_FALSE(fs::exists(home / ".retort_history"));
  EXPECT_NE(read_text(moved).find("seed 5"), std::string::npos);
  setenv("HOME", saved_home.c_str(), 1);
  fs::remove_all(home);
}

}  // namespace
}  // namespace retort::testing
