#include "app/batch.h"

#include <fstream>

#include <fmt/format.h>

#include "app/command_line.h"

namespace retort {

namespace {

// Reads a line without its newline; false at end of input.
bool read_line(std::FILE* in, std::string& line) {
  line.clear();
  int c;
  while ((c = std::fgetc(in)) != EOF && c != '\n') line += static_cast<char>(c);
  return c != EOF || !line.empty();
}

}  // namespace

int run_plain(Shell& shell, std::FILE* in, Output& prompt_out, bool batch) {
  bool any_failed = false;
  std::string line;
  for (int number = 1;; ++number) {
    if (!batch) prompt_out.write("> ");
    if (!read_line(in, line)) break;
    LineStatus status = shell.run(line, batch ? fmt::format("<stdin>:{}", number) : "");
    if (status == LineStatus::Quit) break;
    any_failed |= status == LineStatus::Failed;
  }
  return batch && any_failed ? kExitCommandFailed : kExitOk;
}

int run_command_string(Shell& shell, std::string_view text) {
  std::vector<std::string> commands = split_commands(text);
  for (size_t i = 0; i < commands.size(); ++i) {
    LineStatus status = shell.run(commands[i], fmt::format("-c:{}", i + 1));
    if (status == LineStatus::Failed) return kExitCommandFailed;
    if (status == LineStatus::Quit) break;
  }
  return kExitOk;
}

int run_script(Shell& shell, const std::string& path, Output& err) {
  std::ifstream file(path);
  if (!file) {
    err.print("error: cannot read script {}", path);
    return kExitUsage;
  }
  std::string line;
  for (int number = 1; std::getline(file, line); ++number) {
    LineStatus status = shell.run(line, fmt::format("{}:{}", path, number));
    if (status == LineStatus::Failed) return kExitCommandFailed;
    if (status == LineStatus::Quit) break;
  }
  return kExitOk;
}

}  // namespace retort
