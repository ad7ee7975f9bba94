#include "core/base/user_dirs.h"

#include <cstdlib>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "core/base/error.h"

namespace retort {
namespace {

// Sets an environment variable for one scope (unset when `value` is null), then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    value ? setenv(name, value, 1) : unsetenv(name);
  }
  ~ScopedEnv() { old_ ? setenv(name_, old_->c_str(), 1) : unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(UserDirs, XdgVariablesThenHomeThenNothing) {
  ScopedEnv home("HOME", "/home/u");
  ScopedEnv cache("XDG_CACHE_HOME", "/var/cache/u");
  ScopedEnv data("XDG_DATA_HOME", "relative/data");  // the specification says: ignore it
  ScopedEnv state("XDG_STATE_HOME", nullptr);
  EXPECT_EQ(user_dir(UserDir::Cache), "/var/cache/u/retort");
  EXPECT_EQ(user_dir(UserDir::Data), "/home/u/.local/share/retort");
  EXPECT_EQ(user_dir(UserDir::State), "/home/u/.local/state/retort");
  ScopedEnv no_home("HOME", nullptr);
  EXPECT_EQ(user_dir(UserDir::Cache), "/var/cache/u/retort");
  EXPECT_TRUE(user_dir(UserDir::State).empty());
  try {
    required_user_dir(UserDir::Data, "choose a file with --db");
    FAIL() << "no folder for data, and no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "neither XDG_DATA_HOME nor HOME is set: choose a file with --db");
  }
}

}  // namespace
}  // namespace retort
