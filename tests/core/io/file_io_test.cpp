#include "core/io/file_io.h"

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "core/base/error.h"

namespace retort {
namespace {

namespace fs = std::filesystem;

class FileIo : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           fmt::format("retort_file_io_{}_{}", ::getpid(),
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "inside");
    fs::create_directories(dir_ / "outside");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(FileIo, WritesAndRefusesToOverwriteWithoutBeingAsked) {
  write_file(path("a.txt"), "one", false);
  EXPECT_EQ(read_file(path("a.txt")), "one");
  EXPECT_THROW(write_file(path("a.txt"), "two", false), Error);
  EXPECT_EQ(read_file(path("a.txt")), "one");
  write_file(path("a.txt"), "two", true);
  EXPECT_EQ(read_file(path("a.txt")), "two");
  // No temporary file is left beside it.
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 3u);  // a.txt, inside, outside
}

TEST_F(FileIo, ADanglingLinkIsAnExistingFileNotAPathToFollow) {
  fs::create_symlink(dir_ / "outside" / "target.txt", dir_ / "link.txt");
  EXPECT_THROW(write_file(path("link.txt"), "data", false), Error);
  EXPECT_FALSE(fs::exists(dir_ / "outside" / "target.txt"));
}

TEST_F(FileIo, ForceReplacesTheLinkNotItsTarget) {
  write_file(path("outside/target.txt"), "precious", false);
  fs::create_symlink(dir_ / "outside" / "target.txt", dir_ / "link.txt");
  write_file(path("link.txt"), "new", true);
  EXPECT_EQ(read_file(path("outside/target.txt")), "precious");
  EXPECT_FALSE(fs::is_symlink(dir_ / "link.txt"));
  EXPECT_EQ(read_file(path("link.txt")), "new");
}

TEST_F(FileIo, WritesInsideAFolderCreatingSubfolders) {
  write_file_in(path("inside"), "inputs/x.npy", "bytes", false);
  EXPECT_EQ(read_file(path("inside/inputs/x.npy")), "bytes");
  EXPECT_THROW(write_file_in(path("inside"), "../escape.txt", "x", true), Error);
  EXPECT_THROW(write_file_in(path("inside"), "/tmp/abs.txt", "x", true), Error);
  EXPECT_FALSE(fs::exists(dir_ / "escape.txt"));
}

TEST_F(FileIo, NeverWritesThroughALinkedSubfolder) {
  fs::create_directory_symlink(dir_ / "outside", dir_ / "inside" / "inputs");
  try {
    write_file_in(path("inside"), "inputs/x.npy", "bytes", true);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("symbolic link"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_empty(dir_ / "outside"));
}

// A full disk: the file-size limit makes write() fail as ENOSPC would.
TEST_F(FileIo, AFailedWriteIsAnErrorAndLeavesNothingBehind) {
  write_file(path("keep.txt"), "old", false);
  struct rlimit old {};
  ::getrlimit(RLIMIT_FSIZE, &old);
  auto previous = ::signal(SIGXFSZ, SIG_IGN);
  struct rlimit tiny = old;
  tiny.rlim_cur = 4;
  ::setrlimit(RLIMIT_FSIZE, &tiny);
  EXPECT_THROW(write_file(path("keep.txt"), "much longer than four bytes", true), Error);
  EXPECT_THROW(write_file(path("new.txt"), "much longer than four bytes", false), Error);
  ::setrlimit(RLIMIT_FSIZE, &old);
  ::signal(SIGXFSZ, previous);
  EXPECT_EQ(read_file(path("keep.txt")), "old");
  EXPECT_FALSE(fs::exists(dir_ / "new.txt"));
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 3u);  // keep.txt, inside, outside
}

}  // namespace
}  // namespace retort
