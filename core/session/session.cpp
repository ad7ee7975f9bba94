#include "core/session/session.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"

namespace retort {

const Graph& Session::graph() const {
  if (!graph_) fail("no graph yet: load one with `load FILE` or build one with `def`");
  return *graph_;
}

void Session::set_variant(const std::string& name, Graph g) {
  variants_.insert_or_assign(name, std::move(g));
}

const Graph* Session::find_variant(const std::string& name) const {
  auto it = variants_.find(name);
  return it == variants_.end() ? nullptr : &it->second;
}

const Graph& Session::variant(const std::string& name) const {
  if (const Graph* g = find_variant(name)) return *g;
  if (variants_.empty()) fail("unknown variant '{}' (there are no variants yet)", name);
  fail("unknown variant '{}' (variants: {})", name, fmt::join(variant_names(), ", "));
}

std::vector<std::string> Session::variant_names() const {
  std::vector<std::string> names;
  for (const auto& [name, g] : variants_) names.push_back(name);
  return names;
}

}  // namespace retort
