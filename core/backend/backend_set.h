// The backends of a session: ref, every mode of every family at its default release
// (core/backend/family.h), the releases named FAMILY@VERSION as they are asked for, and those
// attached with `backend attach`. Workers start lazily, on their first run.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/backend/family_env.h"
#include "core/backend/worker_backend.h"

namespace retort {

// The folder holding the worker scripts (backends/ort_worker.js, backends/torch_worker.py):
// $RETORT_SCRIPTS_DIR, else the source tree's scripts/ folder.
// $RETORT_SCRIPTS_DIR, else PREFIX/share/retort/scripts beside an installed binary, else the
// source tree's scripts/.
std::string scripts_dir();

// The built-in worker backends (every mode of every family with a default release), in the
// order `backend list` shows them.
std::vector<BackendSpec> builtin_worker_specs();

class BackendSet {
 public:
  BackendSet();  // with the built-ins
  ~BackendSet();
  BackendSet(const BackendSet&) = delete;
  BackendSet& operator=(const BackendSet&) = delete;

  // Also takes a family name ("inductor": its default mode) and an installed release
  // ("ort@1.16.3:O3"), which it adds. Throws Error listing the backends (with close matches
  // first) when the name is unknown, and when a release is not installed; and, showing the
  // command, for a backend attached from a file that nobody has trusted yet.
  Backend& get(const std::string& name);
  bool has(const std::string& name) const;
  std::vector<std::string> names() const;  // built-ins first, then attached, in order

  // Throws Error when the name is taken or malformed, names a family (an attached backend never
  // hides a built-in one: "ort", "xla@0.4.30", "torch:eager"), argv is empty or the timeout is
  // not > 0. `from_file` names the file the command came from ("session file s.json"): such a
  // backend runs nothing until trust(name), because files are data, never commands
  // (docs/architecture.md, "Text from outside"); `how_to_trust` is what its error suggests.
  void attach(const std::string& name, std::vector<std::string> argv, double timeout_s,
              std::map<std::string, std::string> options, std::string from_file = {},
              std::string how_to_trust = {});
  // The person confirmed the command of a backend attached from a file: it may run.
  void trust(const std::string& name);
  // The attached backends whose commands came from a file and are not trusted yet.
  std::vector<BackendSpec> untrusted() const;
  // Replaces this set's attached backends by `other`'s, trusted or not as they are there.
  void adopt_attached(const BackendSet& other);
  // Stops and removes an attached backend; throws Error for built-ins and unknown names.
  void detach(const std::string& name);
  bool is_builtin(const std::string& name) const;
  // Stops and drops a release's backend (FAMILY@VERSION:MODE, before `backend remove`); it is
  // added again when asked for. Does nothing for other names.
  void forget(const std::string& name);

  // `backend use`: the backends of f's default release (f's modes, and those of the families
  // sharing its environment) run in `python` from now on; their workers are stopped.
  void use_environment(const FamilyDef& f, const PythonEnvironment& python);
  // The environment f's default release runs in since `backend use`; null: Retort's own.
  const PythonEnvironment* environment(const FamilyDef& f) const;

  std::vector<BackendInfo> list() const;
  // The attached (not built-in) backends, in attach order: what a saved session restores.
  std::vector<BackendSpec> attached() const;

 private:
  struct Entry {
    std::string name;
    bool builtin = false;
    std::unique_ptr<Backend> backend;
    std::string from_file{}, how_to_trust{};  // empty from_file: trusted
  };
  Entry* find(const std::string& name);
  const Entry* find(const std::string& name) const;

  std::vector<Entry> entries_;
  std::map<std::string, PythonEnvironment> environments_;  // by environment family
};

}  // namespace retort
