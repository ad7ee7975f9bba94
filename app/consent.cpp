#include "app/consent.h"

#include "core/backend/backend_set.h"
#include "core/base/terminal_text.h"

namespace retort {

namespace {

Asker& asker() {
  static Asker ask;
  return ask;
}

}  // namespace

void set_asker(Asker ask) {
  asker() = std::move(ask);
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
