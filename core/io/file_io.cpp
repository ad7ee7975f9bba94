// Whole-file reads and writes (declared in graph_files.h). A write goes to a temporary file in
// the target's directory and is then moved into place, so a failed write never leaves a
// half-written file behind, and refusing to overwrite cannot race with another writer.
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/base/error.h"
#include "core/io/graph_files.h"

namespace retort {

namespace {

std::string os_error() {
  return std::strerror(errno);
}

// Creates a fresh temporary file next to path; returns its descriptor and name.
std::pair<int, std::string> create_temp_beside(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = fmt::format("{}.tmp-{}-{}", path, ::getpid(), counter++);
    int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return {fd, name};
    if (errno != EEXIST) fail("cannot write '{}': {}", path, os_error());
  }
  fail("cannot write '{}': no free temporary file name beside it", path);
}

void write_all(int fd, const std::string& data, const std::string& path) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("cannot write '{}': {}", path, os_error());
    done += static_cast<size_t>(n);
  }
}

[[noreturn]] void refuse_overwrite(const std::string& path) {
  fail("'{}' exists; use --force to replace it", path);
}

}  // namespace

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail("'{}' is a directory, not a file", path);
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot open '{}': {}", path, os_error());
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) fail("cannot read '{}'", path);
  return buf.str();
}

void write_file(const std::string& path, const std::string& data, bool overwrite) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail("'{}' is a directory, not a file", path);
  if (!overwrite && std::filesystem::exists(path, ec)) refuse_overwrite(path);
  auto [fd, temp] = create_temp_beside(path);
  try {
    write_all(fd, data, path);
    if (::close(fd) != 0) {
      fd = -1;
      fail("cannot write '{}': {}", path, os_error());
    }
    fd = -1;
    if (overwrite) {
      if (::rename(temp.c_str(), path.c_str()) != 0)
        fail("cannot write '{}': {}", path, os_error());
    } else {
      // link() fails when the target exists, so a file that appeared since the check is kept.
      if (::link(temp.c_str(), path.c_str()) != 0) {
        if (errno == EEXIST) refuse_overwrite(path);
        fail("cannot write '{}': {}", path, os_error());
      }
      ::unlink(temp.c_str());
    }
  } catch (...) {
    if (fd >= 0) ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
}

}  // namespace retort
