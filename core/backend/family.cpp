#include "core/backend/family.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/backend/backend.h"
#include "core/base/error.h"
#include "core/base/suggest.h"
#include "core/base/terminal_text.h"
#include "core/base/words.h"

namespace retort {

const std::vector<FamilyDef>& families() {
  static const std::vector<FamilyDef> all = {
      ort_family(), inductor_family(), torch_family(), xla_family(),     tf_xla_family(),
      tvm_family(), openvino_family(), iree_family(),  onnx_ref_family()};
  return all;
}

const FamilyDef* find_family(const std::string& name) {
  for (const auto& f : families())
    if (f.name == name) return &f;
  return nullptr;
}

const FamilyDef& get_family(const std::string& name) {
  if (const FamilyDef* f = find_family(name)) return *f;
  std::vector<std::string> names;
  for (const auto& f : families()) names.push_back(f.name);
  fail_unknown("backend family", name, names);
}

const FamilyDef& environment_family(const FamilyDef& f) {
  return f.environment_of.empty() ? f : get_family(f.environment_of);
}

const FamilyMode* find_mode(const FamilyDef& f, const std::string& mode) {
  for (const auto& m : f.modes)
    if (m.name == mode) return &m;
  return nullptr;
}

std::string BackendName::str() const {
  return version.empty() ? fmt::format("{}:{}", family->name, mode)
                         : fmt::format("{}@{}:{}", family->name, version, mode);
}

namespace {

// A version names a directory of the cache and is passed to npm and uv: digits first, then
// only letters, digits and . + - _ (PEP 440 and semver releases fit).
bool valid_version(const std::string& v) {
  if (v.empty() || !std::isdigit(static_cast<unsigned char>(v[0])) || v.size() > 64) return false;
  return std::all_of(v.begin(), v.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-' ||
           c == '_';
  });
}

}  // namespace

std::optional<BackendName> parse_backend_name(const std::string& text) {
  size_t colon = text.find(':');
  std::string head = text.substr(0, colon);
  size_t at = head.find('@');
  const FamilyDef* family = find_family(head.substr(0, at));
  if (!family) return std::nullopt;
  BackendName name{.family = family};
  if (at != std::string::npos) {
    name.version = head.substr(at + 1);
    if (!valid_version(name.version))
      fail(
          "'{}': a version starts with a digit and has only letters, digits and . + - _, "
          "not '{}'",
          text, name.version);
  }
  name.mode = colon == std::string::npos ? family->default_mode : text.substr(colon + 1);
  if (!find_mode(*family, name.mode)) {
    std::vector<std::string> modes;
    for (const auto& m : family->modes) modes.push_back(m.name);
    std::vector<std::string> close;
    for (const auto& m : closest_matches(name.mode, modes)) close.push_back(family->name + ":" + m);
    std::string hint =
        close.empty() ? "" : fmt::format("; did you mean {}?", fmt::join(close, " or "));
    fail("'{}': {} has no mode '{}'{} (modes: {})", text, family->name, text.substr(colon + 1),
         hint, fmt::join(modes, ", "));
  }
  return name;
}

std::optional<BackendName> find_backend_name(const std::string& text) {
  try {
    return parse_backend_name(text);
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::string oracle_group(const std::string& backend) {
  std::optional<BackendName> name = find_backend_name(backend);
  if (!name) return backend.substr(0, backend.find(':'));
  const FamilyDef& env = environment_family(*name->family);
  return name->version.empty() ? env.name : env.name + "@" + name->version;
}

std::vector<std::string> torchprobe_mutations() {
  return {std::begin(kProgramMutationKinds), std::end(kProgramMutationKinds)};
}

std::vector<std::string> all_program_mutations() {
  std::vector<std::string> kinds = torchprobe_mutations();
  kinds.insert(kinds.end(), std::begin(kStorageMutationKinds), std::end(kStorageMutationKinds));
  return kinds;
}

std::vector<std::string> program_form_kinds() {
  std::vector<std::string> kinds;
  for (const ProgramForm& f : kProgramForms) kinds.emplace_back(f.kind);
  return kinds;
}

void check_program_forms(const std::vector<std::string>& names, std::string_view what) {
  std::vector<std::string> kinds = program_form_kinds();
  for (const std::string& n : names)
    if (std::find(kinds.begin(), kinds.end(), n) == kinds.end())
      fail("{}: '{}' is no program form (known: {})", what, terminal_name(n),
           fmt::join(kinds, ", "));
}

bool applies_mutation(const std::string& backend, std::string_view kind) {
  std::optional<BackendName> name = find_backend_name(backend);
  if (!name) return true;
  const std::vector<std::string>& kinds = name->family->program_mutations;
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

std::string oracle_baseline(const std::string& backend) {
  std::optional<BackendName> name = find_backend_name(backend);
  if (!name || name->family->baseline.empty()) return "";
  std::optional<BackendName> base = parse_backend_name(name->family->baseline);
  base->version = name->version;
  return base->str();
}

const Refusal* find_refusal(const std::string& backend, const std::string& message) {
  std::optional<BackendName> name = find_backend_name(backend);
  if (!name) return nullptr;
  for (const Refusal& r : name->family->refusals)
    if (message.find(r.text) != std::string::npos) return &r;
  return nullptr;
}

const PassSwitches* find_pass_switches(const std::string& backend) {
  std::optional<BackendName> name = find_backend_name(backend);
  if (!name || name->family->passes.names.empty()) return nullptr;
  return &name->family->passes;
}

std::string error_core(const std::string& backend, const std::string& message) {
  std::string core = trim_blanks(message);
  std::optional<BackendName> name = find_backend_name(backend);
  if (!name) return core;
  for (bool unwrapped = true; unwrapped;) {
    unwrapped = false;
    for (const std::string& wrapper : name->family->error_wrappers)
      if (!wrapper.empty() && core.starts_with(wrapper)) {
        core = trim_blanks(std::string_view(core).substr(wrapper.size()));
        unwrapped = true;
      }
  }
  return core;
}

}  // namespace retort
