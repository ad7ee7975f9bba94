// Where Retort keeps a user's files, by the XDG base directory specification: the one place
// that decides the variables and their fallbacks (environments and probe caches, findings and
// pictures, the journal and the command history).
#pragma once

#include <filesystem>
#include <string_view>

namespace retort {

enum class UserDir {
  Cache,  // $XDG_CACHE_HOME, else ~/.cache: what can be made again (environments, probes)
  Data,   // $XDG_DATA_HOME, else ~/.local/share: what the user keeps (findings, pictures)
  State   // $XDG_STATE_HOME, else ~/.local/state: what a session leaves (journal, history)
};

// <base>/retort for the kind; empty when neither the variable (an absolute path, as the
// specification asks) nor HOME is set.
std::filesystem::path user_dir(UserDir kind);
// The same, or an Error "neither XDG_..._HOME nor HOME is set: <then>".
std::filesystem::path required_user_dir(UserDir kind, std::string_view then);

}  // namespace retort
