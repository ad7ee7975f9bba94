// Whole-file reads and writes (declared in graph_files.h).
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/base/error.h"
#include "core/io/graph_files.h"

namespace retort {

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail("'{}' is a directory, not a file", path);
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot open '{}'", path);
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) fail("cannot read '{}'", path);
  return buf.str();
}

void write_file(const std::string& path, const std::string& data, bool overwrite) {
  std::error_code ec;
  if (!overwrite && std::filesystem::exists(path, ec))
    fail("'{}' exists; pass overwrite to replace it", path);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail("cannot write '{}'", path);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!out) fail("cannot write '{}'", path);
}

}  // namespace retort
