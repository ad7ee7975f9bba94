#include "core/egraph/attrs_pool.h"

#include <deque>
#include <map>
#include <mutex>
#include <vector>

#include <fmt/format.h>

#include "core/base/error.h"

namespace retort {

namespace {

// Attribute maps are few and small; an ordered map from contents to id is fast enough for
// interning, which happens once per e-node construction.
struct AttrsPool {
  std::mutex mu;
  std::deque<Attrs> values;  // deque: references stay valid as the pool grows
  std::map<Attrs, uint32_t> ids;

  AttrsPool() {
    values.emplace_back();
    ids.emplace(Attrs{}, 0);
  }
};

AttrsPool& pool() {
  static AttrsPool p;
  return p;
}

}  // namespace

AttrsId intern_attrs(const Attrs& attrs) {
  if (attrs.empty()) return kNoAttrs;
  auto& p = pool();
  std::lock_guard lock(p.mu);
  auto [it, inserted] = p.ids.emplace(attrs, static_cast<uint32_t>(p.values.size()));
  if (inserted) p.values.push_back(attrs);
  return AttrsId(it->second);
}

const Attrs& attrs_of(AttrsId id) {
  auto& p = pool();
  std::lock_guard lock(p.mu);
  if (id.value >= p.values.size()) fail("invalid attribute set id {}", id.value);
  return p.values[id.value];
}

int compare_attrs(AttrsId a, AttrsId b) {
  if (a == b) return 0;
  const Attrs& x = attrs_of(a);
  const Attrs& y = attrs_of(b);
  if (x < y) return -1;
  return y < x ? 1 : 0;
}

std::string attrs_str(AttrsId id) {
  std::string out;
  for (const auto& [name, value] : attrs_of(id)) {
    if (!out.empty()) out += ' ';
    out += fmt::format("{}={}", name, attr_value_str(value));
  }
  return out;
}

}  // namespace retort
