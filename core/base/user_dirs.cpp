#include "core/base/user_dirs.h"

#include <cstdlib>

#include "core/base/error.h"

namespace retort {

namespace {

struct Base {
  const char* variable;
  const char* under_home;
};

Base base_of(UserDir kind) {
  switch (kind) {
    case UserDir::Cache:
      return {"XDG_CACHE_HOME", ".cache"};
    case UserDir::Data:
      return {"XDG_DATA_HOME", ".local/share"};
    case UserDir::State:
      return {"XDG_STATE_HOME", ".local/state"};
  }
  return {"XDG_DATA_HOME", ".local/share"};
}

}  // namespace

std::filesystem::path user_dir(UserDir kind) {
  Base base = base_of(kind);
  if (const char* dir = std::getenv(base.variable); dir && *dir == '/')
    return std::filesystem::path(dir) / "retort";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / base.under_home / "retort";
  return {};
}

std::filesystem::path required_user_dir(UserDir kind, std::string_view then) {
  std::filesystem::path dir = user_dir(kind);
  if (dir.empty()) fail("neither {} nor HOME is set: {}", base_of(kind).variable, then);
  return dir;
}

}  // namespace retort
