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
#include <optional>
#include <string>
#include <string_view>
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
// find_backend_name (family.h) with the version filled in: the family's default release when the
// name gives none.
std::optional<BackendName> find_backend_release(const std::string& text);
// The directory of a release of f's environment family (version empty: the default release).
std::string environment_dir(const FamilyDef& f, const std::string& version);
bool is_installed(const FamilyDef& f, const std::string& version);
// The installed releases of f's environment family, oldest first.
std::vector<std::string> installed_versions(const FamilyDef& f);

// An existing Python environment a family runs in instead of its own (`backend use FAMILY
// --python PATH`): a user's CUDA torch, a nightly.
struct PythonEnvironment {
  std::string python;    // the interpreter, resolved on PATH
  std::string versions;  // "torch 2.5.1, numpy 1.26.4, onnx 1.16.0", as it reports them
  std::string str() const { return python + " (" + versions + ")"; }
  // The version it reports of `package` ("2.5.1"); empty when it has none.
  std::string version_of(std::string_view package) const;
};
// Asks `python` the versions of the packages f's environment family needs. Throws Error when it
// cannot run, or lacks the family's main package (torch, jax, apache-tvm, ...).
PythonEnvironment probe_python_environment(const FamilyDef& f, const std::string& python,
                                           const std::atomic<bool>* cancel = nullptr);

// Why `device` ("cuda", "gpu") cannot be used on this machine ("no NVIDIA GPU here:
// /dev/nvidiactl is absent"); empty when its driver is there (the worker then asks its framework).
std::string device_unavailable(const std::string& device);

// How the backend `name` is started: its worker in its release's environment (or in `python`,
// for a name without a version), its options; a mode whose device is missing is unavailable.
BackendSpec family_backend_spec(const BackendName& name, const PythonEnvironment* python = nullptr);

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
// The releases the registry publishes, oldest first (PyPI's JSON API; `npm view`). Each call
// keeps the list in retort_cache_dir()/releases/<family>.txt for cached_published_versions.
std::vector<PublishedVersion> published_versions(const FamilyDef& f, const InstallHooks& hooks);
// The installable releases the last published_versions of f's environment family found (tab
// completion asks no registry); empty when it never ran here.
std::vector<std::string> cached_published_versions(const FamilyDef& f);

}  // namespace retort
