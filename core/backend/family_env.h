// Where the releases of a backend family live and how they are installed, listed and removed.
//
// A PyPI family's release is a virtual environment made with uv (uv itself lives in a tools
// environment, pinned by scripts/backends/locks/tools.txt); ORT's is an npm prefix. Both are in
// envs_dir()/<family>@<version>/, complete once the marker file
// .retort-complete is there. The default release of each family is the one its lock pins
// (scripts/backends/locks/<family>.txt; ORT: scripts/backends/package-lock.json), installed by
// scripts/setup.sh from the lock, with hashes. uv's own cache is shared by every environment, so
// a wheel (torch's CUDA libraries are several GB) is downloaded once and linked from there.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "core/backend/family.h"
#include "core/backend/worker_backend.h"

namespace retort {

// ${XDG_CACHE_HOME:-$HOME/.cache}/retort
std::string retort_cache_dir();
// Where the releases' environments are: $RETORT_ENVS_DIR, else retort_cache_dir()/envs (the
// family tests and scripts/setup.sh read the same variable).
std::string envs_dir();

// The release the lock pins ("2.15.0"); empty when the family has no lock file.
std::string default_version(const FamilyDef& f);
// The directory of a release of f's environment family (version empty: the default release).
std::string environment_dir(const FamilyDef& f, const std::string& version);
bool is_installed(const FamilyDef& f, const std::string& version);
// The installed releases of f's environment family, oldest first.
std::vector<std::string> installed_versions(const FamilyDef& f);

// How the backend `name` is started: its worker in its release's environment, its options.
BackendSpec family_backend_spec(const BackendName& name);

struct InstallHooks {
  std::function<void(const std::string& line)> progress;  // what the installer prints
  const std::atomic<bool>* cancel = nullptr;              // Ctrl-C: stop and clean up
};

// Installs a release of f's environment family unless it is there; returns false when it was.
// The default release installs from the lock (with hashes). Throws Error with a one-line reason
// when the release cannot be installed here (not published, no wheel for this Python, a failed
// install); a failed or interrupted install leaves nothing behind.
bool install_version(const FamilyDef& f, const std::string& version, const InstallHooks& hooks);
// Removes an installed release; throws Error when it is not installed or is the default.
void remove_version(const FamilyDef& f, const std::string& version);

struct PublishedVersion {
  std::string version;
  std::string date;    // "2023-10-04", or empty when the registry does not say
  std::string reason;  // empty when it installs here, else why not ("no wheel for cp311 ...")
};
// The releases the registry publishes, oldest first (PyPI's JSON API; `npm view`).
std::vector<PublishedVersion> published_versions(const FamilyDef& f, const InstallHooks& hooks);

}  // namespace retort
