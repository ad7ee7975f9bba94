#include "core/base/program_path.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "core/base/error.h"

namespace retort {

namespace fs = std::filesystem;

namespace {

bool executable_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

}  // namespace

std::string resolve_program(const std::string& program) {
  if (program.empty()) fail("an empty program name");
  if (program.find('/') != std::string::npos) {
    std::error_code ec;
    fs::path p = fs::absolute(program, ec);
    if (ec || !executable_file(p)) fail("'{}' is not an executable file", program);
    return p.lexically_normal().string();
  }
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    size_t colon = dirs.find(':');
    std::string_view dir = dirs.substr(0, colon);
    fs::path candidate = fs::path(dir.empty() ? "." : std::string(dir)) / program;
    if (executable_file(candidate)) {
      std::error_code ec;
      return fs::absolute(candidate, ec).lexically_normal().string();
    }
    if (colon == std::string_view::npos) break;
    dirs.remove_prefix(colon + 1);
  }
  fail("cannot find the program '{}' in $PATH", program);
}

}  // namespace retort
