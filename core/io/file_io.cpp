#include "core/io/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "core/base/error.h"

namespace retort {

namespace {

std::string os_error() {
  return std::strerror(errno);
}

// Owns an open descriptor.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  Fd& operator=(Fd&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  int get() const { return fd_; }
  // Closes now and reports whether the close succeeded (a delayed write error shows up here).
  bool close() {
    int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0;
  }

 private:
  int fd_;
};

[[noreturn]] void refuse_overwrite(const std::string& path) {
  fail("'{}' exists; use --force to replace it", path);
}

Fd open_folder(const std::string& dir, const std::string& shown) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail("cannot write '{}': {}", shown, os_error());
  return Fd(fd);
}

// Opens (creating it when missing) the folder `name` inside `parent`, refusing a symbolic link.
Fd open_subfolder(const Fd& parent, const std::string& name, const std::string& shown) {
  if (::mkdirat(parent.get(), name.c_str(), 0777) != 0 && errno != EEXIST)
    fail("cannot create the folder '{}': {}", shown, os_error());
  int fd = ::openat(parent.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) return Fd(fd);
  struct stat st {};
  if (::fstatat(parent.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
    fail("'{}' is a symbolic link; not writing through it", shown);
  fail("cannot write into '{}': {}", shown, os_error());
}

void write_all(int fd, const std::string& data, const std::string& shown) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("cannot write '{}': {}", shown, n == 0 ? "no space written" : os_error());
    done += static_cast<size_t>(n);
  }
}

// Creates a fresh temporary file next to `leaf` inside `dir`; returns its descriptor and name.
std::pair<Fd, std::string> create_temp_beside(const Fd& dir, const std::string& leaf,
                                              const std::string& shown) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = fmt::format(".{}.tmp-{}-{}", leaf, ::getpid(), counter++);
    int fd = ::openat(dir.get(), name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                      0666);
    if (fd >= 0) return {Fd(fd), name};
    if (errno != EEXIST) fail("cannot write '{}': {}", shown, os_error());
  }
  fail("cannot write '{}': no free temporary file name beside it", shown);
}

// The one write path: `leaf` is a plain name inside the open folder `dir`.
void write_leaf(const Fd& dir, const std::string& leaf, const std::string& data, bool overwrite,
                const std::string& shown) {
  if (leaf.empty() || leaf == "." || leaf == "..") fail("'{}' is not a file name", shown);
  struct stat st {};
  bool exists = ::fstatat(dir.get(), leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
  if (exists && S_ISDIR(st.st_mode)) fail("'{}' is a directory, not a file", shown);
  if (exists && !overwrite) refuse_overwrite(shown);
  auto [fd, temp] = create_temp_beside(dir, leaf, shown);
  try {
    write_all(fd.get(), data, shown);
    if (::fsync(fd.get()) != 0 || !fd.close()) fail("cannot write '{}': {}", shown, os_error());
    if (overwrite) {
      // rename() replaces a symbolic link itself, never the file it points to.
      if (::renameat(dir.get(), temp.c_str(), dir.get(), leaf.c_str()) != 0)
        fail("cannot write '{}': {}", shown, os_error());
    } else {
      // link() fails when the name exists (a dangling link too), so a file that appeared since
      // the check is kept.
      if (::linkat(dir.get(), temp.c_str(), dir.get(), leaf.c_str(), 0) != 0) {
        if (errno == EEXIST) refuse_overwrite(shown);
        fail("cannot write '{}': {}", shown, os_error());
      }
      ::unlinkat(dir.get(), temp.c_str(), 0);
    }
  } catch (...) {
    ::unlinkat(dir.get(), temp.c_str(), 0);
    throw;
  }
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
  std::filesystem::path p(path);
  std::string dir = p.parent_path().empty() ? "." : p.parent_path().string();
  if (!p.has_filename()) fail("'{}' is a directory, not a file", path);
  write_leaf(open_folder(dir, path), p.filename().string(), data, overwrite, path);
}

void write_file_in(const std::string& dir, const std::string& relative, const std::string& data,
                   bool overwrite) {
  std::filesystem::path rel(relative);
  std::string shown = (std::filesystem::path(dir) / rel).string();
  if (rel.is_absolute() || !rel.has_filename())
    fail("'{}' is not a file name inside '{}'", relative, dir);
  Fd folder = open_folder(dir, shown);
  std::filesystem::path walked(dir);
  for (const auto& part : rel.parent_path()) {
    if (part == "." || part == "..") fail("'{}' leaves the folder '{}'", relative, dir);
    walked /= part;
    folder = open_subfolder(folder, part.string(), walked.string());
  }
  write_leaf(folder, rel.filename().string(), data, overwrite, shown);
}

StagedFolder::StagedFolder(std::string dir, bool force) : dir_(std::move(dir)) {
  namespace fs = std::filesystem;
  std::error_code ec;
  existed_ = fs::exists(dir_, ec);
  if (existed_ && !fs::is_directory(dir_, ec)) fail("{} is not a directory", dir_);
  if (existed_ && !fs::is_empty(dir_, ec) && !force)
    fail("{} is not empty (use --force to write into it)", dir_);
  fs::path target = fs::absolute(dir_, ec).lexically_normal();
  if (!target.has_filename()) target = target.parent_path();  // "out/" is "out"
  fs::path parent = target.parent_path();
  if (!existed_) {
    fs::create_directories(parent, ec);
    if (ec) fail("cannot create {}: {}", parent.string(), ec.message());
  }
  std::string temp =
      ((existed_ ? target : parent) / ("." + target.filename().string() + ".partial-XXXXXX"))
          .string();
  if (!::mkdtemp(temp.data())) fail("cannot write {}: {}", dir_, os_error());
  temp_ = temp;
}

StagedFolder::~StagedFolder() {
  std::error_code ec;
  if (!committed_ && !temp_.empty()) std::filesystem::remove_all(temp_, ec);
}

void StagedFolder::commit() {
  namespace fs = std::filesystem;
  if (!existed_) {
    if (::rename(temp_.c_str(), dir_.c_str()) != 0)
      fail("cannot write {}: {} (the files are kept in {})", dir_, os_error(), temp_);
    committed_ = true;
    return;
  }
  // Listed before anything moves; a file's folders are walked (and made) in dir_ as it moves.
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(temp_))
    if (entry.is_regular_file()) files.push_back(entry.path());
  for (const fs::path& file : files) {
    fs::path rel = fs::relative(file, temp_);
    std::string shown = (fs::path(dir_) / rel).string();
    Fd folder = open_folder(dir_, shown);
    fs::path walked(dir_);
    for (const auto& part : rel.parent_path()) {
      walked /= part;
      folder = open_subfolder(folder, part.string(), walked.string());
    }
    std::string leaf = rel.filename().string();
    struct stat st {};
    if (::fstatat(folder.get(), leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
      fail("'{}' is a directory, not a file", shown);
    // rename() replaces a symbolic link itself, never the file it points to.
    if (::renameat(AT_FDCWD, file.c_str(), folder.get(), leaf.c_str()) != 0)
      fail("cannot write '{}': {}", shown, os_error());
  }
  std::error_code ec;
  fs::remove_all(temp_, ec);
  committed_ = true;
}

std::string file_name_part(std::string_view text) {
  std::string part;
  for (char c : text.substr(0, 64))
    part += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  return part;
}

}  // namespace retort
