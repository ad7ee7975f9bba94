#include "app/backend_names.h"

#include <algorithm>

#include "app/sigint_cancels.h"
#include "core/backend/family_env.h"
#include "core/base/error.h"

namespace retort {

std::vector<std::string> split_backend_words(const std::string& text) {
  std::vector<std::string> words;
  std::string cur;
  for (char c : text + ",") {
    if (c == ',' || c == ' ' || c == '\t' || c == '\n') {
      if (!cur.empty()) words.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  return words;
}

bool is_backend_word(const Session& s, const std::string& word) {
  if (word == "all" || s.backends().has(word)) return true;
  try {
    return parse_backend_name(word).has_value();
  } catch (const Error&) {
    return true;  // a family with a bad mode or version: a backend, whose error comes later
  }
}

bool install_with_progress(Session& s, const FamilyDef& family, const std::string& version,
                           Output& out) {
  const FamilyDef& env = environment_family(family);
  std::string label = env.name + "@" + (version.empty() ? default_version(env) : version);
  if (is_installed(env, version)) return false;
  out.live(
      fmt::format("installing {} into {} (Ctrl-C stops)", label, environment_dir(env, version)));
  out.progress(fmt::format("installing {}", label));
  s.cancel_flag().store(false);
  SigintCancels guard(s.cancel_flag());
  install_version(env, version,
                  {.progress = [&](const std::string& line) { out.live("  " + line); },
                   .cancel = &s.cancel_flag()});
  out.print("installed {}", label);
  return true;
}

std::vector<std::string> resolve_backends(Session& s, const std::vector<std::string>& words,
                                          Output& out, NamedBy by) {
  std::vector<std::string> names;
  auto add = [&](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  for (const auto& word : words) {
    if (word == "all") {
      add("ref");
      for (const auto& f : families())
        if (!default_version(f).empty() && is_installed(f, ""))
          add(BackendName{.family = &f, .mode = f.default_mode}.str());
      continue;
    }
    if (s.backends().has(word)) {
      add(word);
      continue;
    }
    std::optional<BackendName> name = parse_backend_name(word);
    if (name && !name->version.empty()) {
      if (by == NamedBy::Person) {
        install_with_progress(s, *name->family, name->version, out);
      } else if (!is_installed(*name->family, name->version)) {
        std::string release = name->family->name + "@" + name->version;
        fail(
            "{} is not installed, and a release named by a file is never installed on its say-so: "
            "`backend install {}` installs it",
            release, release);
      }
    }
    add(name ? name->str() : word);
  }
  for (const auto& n : names) s.backends().get(n);  // unknown names fail before anything runs
  return names;
}

}  // namespace retort
