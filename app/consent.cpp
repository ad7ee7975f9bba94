#include "app/consent.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/base/terminal_text.h"

namespace retort {

namespace {

Asker& asker() {
  static Asker ask;
  return ask;
}

// " with options k=v, k=v" (hello options also decide what a worker does), or empty.
std::string options_text(const std::map<std::string, std::string>& options) {
  std::vector<std::string> words;
  for (const auto& [key, value] : options)
    words.push_back(terminal_name(key) + "=" + terminal_name(value));
  return words.empty() ? "" : fmt::format(" with options {}", fmt::join(words, ", "));
}

}  // namespace

void set_asker(Asker ask) {
  asker() = std::move(ask);
}

std::vector<BackendSpec> backends_to_attach(const BackendSet& session,
                                            const std::vector<BackendSpec>& from_file,
                                            const std::string& source) {
  std::vector<BackendSpec> attached = session.attached(), missing;
  for (const BackendSpec& b : from_file) {
    auto same_name = [&](const BackendSpec& a) { return a.name == b.name; };
    auto here = std::find_if(attached.begin(), attached.end(), same_name);
    if (here == attached.end()) {
      missing.push_back(b);
      continue;
    }
    if (here->argv == b.argv && here->options == b.options) continue;
    fail(
        "{} attaches backend '{}' as `{}`{}, but the backend '{}' attached here runs `{}`{}: a "
        "file's command never runs under a name you attached; detach '{}' first to be asked about "
        "the file's",
        source, terminal_name(b.name), command_text(b.argv), options_text(b.options),
        terminal_name(b.name), command_text(here->argv), options_text(here->options),
        terminal_name(b.name));
  }
  return missing;
}

bool consent_to_commands(const std::vector<BackendSpec>& specs, const std::string& source,
                         bool trust, Output& out) {
  out.print("{} attaches {} that run{} commands:", source,
            specs.size() == 1 ? "a backend" : "backends", specs.size() == 1 ? "s" : "");
  for (const BackendSpec& b : specs)
    out.print("  {}: {}", terminal_name(b.name), command_text(b.argv));
  if (trust) return true;
  return asker() && asker()("run these commands when they are asked for? [y/N] ");
}

}  // namespace retort
