#include "core/backend/release_pins.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "core/backend/backend_set.h"
#include "core/backend/family_env.h"
#include "core/base/error.h"
#include "core/io/file_io.h"

namespace retort {

namespace fs = std::filesystem;

namespace {

// Every distribution installed in a Python environment: "numpy-1.26.4.dist-info" in its
// site-packages is numpy 1.26.4.
std::map<std::string, std::string> installed_pins(const std::string& dir) {
  std::map<std::string, std::string> pins;
  std::error_code ec;
  for (const auto& lib : fs::directory_iterator(fs::path(dir) / "lib", ec)) {
    std::error_code inner;
    for (const auto& entry : fs::directory_iterator(lib.path() / "site-packages", inner)) {
      std::string stem = entry.path().filename().string();
      constexpr std::string_view kSuffix = ".dist-info";
      if (!stem.ends_with(kSuffix)) continue;
      stem.resize(stem.size() - kSuffix.size());
      size_t dash = stem.rfind('-');
      if (dash == std::string::npos || dash == 0) continue;
      std::string name = stem.substr(0, dash);
      pins[requirement_package(name)] = fmt::format("{}=={}", name, stem.substr(dash + 1));
    }
  }
  return pins;
}

// The rows of scripts/backends/locks/repro_pins.tsv for `family` that apply to `version`:
// "FAMILY BEFORE PIN", the pin for the family's releases older than BEFORE.
std::map<std::string, std::string> table_pins(const std::string& family,
                                              const std::string& version) {
  std::map<std::string, std::string> pins, bounds;  // by package: the pin, its row's bound
  std::string path = scripts_dir() + "/backends/locks/repro_pins.tsv";
  if (!fs::exists(path)) return pins;
  std::istringstream in(read_file(path));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream row(line);
    std::string name, before, pin;
    if (!(row >> name >> before >> pin))
      fail("{}: a row needs FAMILY BEFORE PIN: '{}'", path, line);
    if (name != family || !version_less(version, before)) continue;
    // Of two rows for one package, the one with the nearer bound says it.
    auto [at, fresh] = bounds.emplace(requirement_package(pin), before);
    if (!fresh && !version_less(before, at->second)) continue;
    at->second = before;
    pins[at->first] = pin;
  }
  return pins;
}

}  // namespace

bool version_less(const std::string& a, const std::string& b) {
  auto parts = [](const std::string& v) {
    std::vector<long> out;
    std::string cur;
    for (char c : v + ".") {
      if (std::isdigit(static_cast<unsigned char>(c))) {
        cur += c;
      } else {
        out.push_back(cur.empty() ? 0 : std::stol(cur));
        cur.clear();
      }
    }
    return out;
  };
  return parts(a) < parts(b);
}

std::string requirement_package(const std::string& requirement) {
  std::string name = requirement.substr(0, requirement.find_first_of("=<>!~@[; "));
  for (char& c : name)
    c = c == '_' || c == '.' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

std::map<std::string, std::string> release_pins(const FamilyDef& f, const std::string& version) {
  const FamilyDef& env = environment_family(f);
  std::string v = version.empty() ? default_version(env) : version;
  std::map<std::string, std::string> pins;
  if (env.installer == Installer::Pypi && is_installed(env, v))
    pins = installed_pins(environment_dir(env, v));
  // The table fills in what the environment lacks: one installed before its family's packages
  // listed a package that the reproducer imports.
  pins.merge(table_pins(env.name, v));
  return pins;
}

}  // namespace retort
