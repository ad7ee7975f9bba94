#include "core/backend/backend_set.h"

#include <filesystem>

#include <algorithm>
#include <cstdlib>

#include <fmt/ranges.h>

#include "core/backend/family_env.h"
#include "core/backend/ref_backend.h"
#include "core/base/error.h"
#include "core/base/suggest.h"
#include "core/base/terminal_text.h"

#ifndef RETORT_SOURCE_DIR
#error "RETORT_SOURCE_DIR must name the source tree (CMakeLists.txt defines it)"
#endif

namespace retort {

std::string scripts_dir() {
  const char* env = std::getenv("RETORT_SCRIPTS_DIR");
  if (env && *env) return env;
  // An installed retort (cmake --install) has its scripts in PREFIX/share/retort/scripts.
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    std::filesystem::path installed = exe.parent_path().parent_path() / "share/retort/scripts";
    if (std::filesystem::is_directory(installed / "backends", ec)) return installed.string();
  }
  return RETORT_SOURCE_DIR "/scripts";
}

std::vector<BackendSpec> builtin_worker_specs() {
  std::vector<BackendSpec> specs;
  for (const auto& family : families()) {
    if (default_version(family).empty()) continue;  // no lock yet: only FAMILY@VERSION runs it
    for (const auto& mode : family.modes)
      specs.push_back(family_backend_spec({.family = &family, .mode = mode.name}));
  }
  return specs;
}

BackendSet::BackendSet() {
  entries_.push_back({"ref", true, std::make_unique<RefBackend>()});
  for (auto& spec : builtin_worker_specs()) {
    std::string name = spec.name;
    entries_.push_back({name, true, std::make_unique<WorkerBackend>(std::move(spec))});
  }
}

BackendSet::~BackendSet() = default;

BackendSet::Entry* BackendSet::find(const std::string& name) {
  for (auto& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

const BackendSet::Entry* BackendSet::find(const std::string& name) const {
  for (const auto& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

bool BackendSet::has(const std::string& name) const {
  return find(name) != nullptr;
}

bool BackendSet::is_builtin(const std::string& name) const {
  const Entry* e = find(name);
  return e && e->builtin;
}

Backend& BackendSet::get(const std::string& name) {
  if (Entry* e = find(name)) {
    if (!e->from_file.empty()) {
      const BackendSpec& spec = static_cast<const WorkerBackend&>(*e->backend).spec();
      fail(
          "backend '{}' runs `{}`, a command from {}; Retort runs a file's commands only once "
          "you have seen and trusted them: {}",
          name, command_text(spec.argv), e->from_file, e->how_to_trust);
    }
    return *e->backend;
  }
  if (std::optional<BackendName> parsed = parse_backend_name(name)) {
    // "inductor" is inductor:default; "ort@1.16.3:O3" a release installed with `backend install`.
    std::string canonical = parsed->str();
    if (Entry* e = find(canonical)) return *e->backend;
    const PythonEnvironment* python = nullptr;
    if (auto it = environments_.find(environment_family(*parsed->family).name);
        it != environments_.end() && parsed->version.empty())
      python = &it->second;
    if (!python && !is_installed(*parsed->family, parsed->version))
      fail("{} is not installed{}: `backend install {}` installs it",
           parsed->version.empty() ? parsed->family->name
                                   : parsed->family->name + "@" + parsed->version,
           parsed->version.empty()
               ? ""
               : did_you_mean(parsed->version, installed_versions(*parsed->family)),
           parsed->family->name + (parsed->version.empty() ? "" : "@" + parsed->version));
    entries_.push_back(
        {canonical, true, std::make_unique<WorkerBackend>(family_backend_spec(*parsed, python))});
    return *entries_.back().backend;
  }
  // A misspelt family ("inductr") is suggested as well as the attached backends.
  std::vector<std::string> candidates = names();
  for (const auto& f : families()) candidates.push_back(f.name);
  fail("unknown backend '{}'{} (backends: {})", name, did_you_mean(name, candidates),
       fmt::join(names(), ", "));
}

std::vector<std::string> BackendSet::names() const {
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e.name);
  return out;
}

void BackendSet::attach(const std::string& name, std::vector<std::string> argv, double timeout_s,
                        std::map<std::string, std::string> options, std::string from_file,
                        std::string how_to_trust) {
  if (name.empty() || name.find_first_of(" \t\r\n,") != std::string::npos)
    fail("a backend name must be one word without commas, not '{}'", name);
  if (is_builtin(name)) fail("'{}' is a built-in backend; pick another name", name);
  // "ort", "ort@1.16.3" and "ort:mine" would be read as the family's backends (or hide them).
  if (const FamilyDef* family = find_family(name.substr(0, name.find_first_of("@:"))))
    fail("'{}' names the built-in family {}; pick another name", name, family->name);
  if (name == "all") fail("'all' means every backend; pick another name");
  if (has(name)) fail("a backend named '{}' is already attached; detach it first", name);
  if (argv.empty() || argv[0].empty()) fail("backend '{}': the command line is empty", name);
  if (!(timeout_s > 0))
    fail("backend '{}': the timeout must be more than 0 s, not {}", name, timeout_s);
  entries_.push_back({name, false,
                      std::make_unique<WorkerBackend>(BackendSpec{.name = name,
                                                                  .argv = std::move(argv),
                                                                  .timeout_s = timeout_s,
                                                                  .options = std::move(options)}),
                      std::move(from_file), std::move(how_to_trust)});
}

void BackendSet::trust(const std::string& name) {
  Entry* e = find(name);
  if (!e || e->builtin) fail("no attached backend '{}' to trust", name);
  e->from_file.clear();
  e->how_to_trust.clear();
}

std::vector<BackendSpec> BackendSet::untrusted() const {
  std::vector<BackendSpec> out;
  for (const auto& e : entries_)
    if (!e.from_file.empty()) out.push_back(static_cast<const WorkerBackend&>(*e.backend).spec());
  return out;
}

void BackendSet::adopt_attached(const BackendSet& other) {
  std::erase_if(entries_, [](const Entry& e) { return !e.builtin; });
  for (const auto& e : other.entries_) {
    if (e.builtin) continue;
    BackendSpec spec = static_cast<const WorkerBackend&>(*e.backend).spec();
    attach(spec.name, spec.argv, spec.timeout_s, spec.options, e.from_file, e.how_to_trust);
  }
}

void BackendSet::detach(const std::string& name) {
  if (!has(name)) get(name);  // the unknown-name error with suggestions
  if (is_builtin(name)) fail("'{}' is a built-in backend and cannot be detached", name);
  std::erase_if(entries_, [&](const Entry& e) { return e.name == name; });
}

void BackendSet::forget(const std::string& name) {
  std::optional<BackendName> parsed = find_backend_name(name);
  if (!parsed || parsed->version.empty()) return;
  std::erase_if(entries_, [&](const Entry& e) { return e.builtin && e.name == name; });
}

void BackendSet::use_environment(const FamilyDef& f, const PythonEnvironment& python) {
  const FamilyDef& env = environment_family(f);
  environments_.insert_or_assign(env.name, python);
  for (Entry& e : entries_) {
    if (!e.builtin) continue;
    std::optional<BackendName> parsed = parse_backend_name(e.name);
    if (!parsed || !parsed->version.empty() || &environment_family(*parsed->family) != &env)
      continue;
    e.backend = std::make_unique<WorkerBackend>(family_backend_spec(*parsed, &python));
  }
}

const PythonEnvironment* BackendSet::environment(const FamilyDef& f) const {
  auto it = environments_.find(environment_family(f).name);
  return it == environments_.end() ? nullptr : &it->second;
}

std::vector<BackendInfo> BackendSet::list() const {
  std::vector<BackendInfo> out;
  for (const auto& e : entries_) out.push_back(e.backend->info());
  return out;
}

std::vector<BackendSpec> BackendSet::attached() const {
  std::vector<BackendSpec> out;
  for (const auto& e : entries_)
    if (!e.builtin) out.push_back(static_cast<const WorkerBackend&>(*e.backend).spec());
  return out;
}

}  // namespace retort
