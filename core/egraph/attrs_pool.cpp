#include "core/egraph/attrs_pool.h"

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>

#include <fmt/format.h>

#include "core/base/error.h"

namespace retort {

namespace {

size_t mix(size_t h, size_t x) {
  return (h ^ (x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2))) * 0xff51afd7ed558ccdull;
}

struct AttrsHash {
  size_t operator()(const Attrs& attrs) const noexcept {
    size_t h = attrs.size();
    for (const auto& [name, value] : attrs) {
      h = mix(h, std::hash<std::string>()(name));
      h = mix(h, value.index());
      std::visit(
          [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, double> ||
                          std::is_same_v<T, std::string>)
              h = mix(h, std::hash<T>()(v));
            else
              for (const auto& x : v) h = mix(h, std::hash<std::decay_t<decltype(x)>>()(x));
          },
          value);
    }
    return h;
  }
};

// Interning takes the lock; reading an id does not (matching reads the attributes of every
// candidate e-node). Attribute sets live in fixed-size chunks that never move, and a chunk and
// its entry are written before `size` is published, so a reader that sees an id below `size`
// sees the entry.
class AttrsPool {
 public:
  static constexpr size_t kChunk = 1024, kChunks = 4096;

  AttrsPool() { insert(Attrs{}); }

  AttrsId intern(const Attrs& attrs) {
    std::lock_guard lock(mu_);
    auto it = ids_.find(attrs);
    if (it != ids_.end()) return AttrsId(it->second);
    return AttrsId(insert(attrs));
  }

  const Attrs& at(AttrsId id) const {
    if (id.value >= size_.load(std::memory_order_acquire))
      fail("invalid attribute set id {}", id.value);
    return (*chunks_[id.value / kChunk])[id.value % kChunk];
  }

 private:
  uint32_t insert(const Attrs& attrs) {
    auto id = static_cast<uint32_t>(size_.load(std::memory_order_relaxed));
    if (id / kChunk >= kChunks) fail("too many distinct attribute sets ({})", id);
    auto& chunk = chunks_[id / kChunk];
    if (!chunk) chunk = std::make_unique<std::array<Attrs, kChunk>>();
    (*chunk)[id % kChunk] = attrs;
    ids_.emplace(attrs, id);
    size_.store(id + 1, std::memory_order_release);
    return id;
  }

  std::mutex mu_;
  std::array<std::unique_ptr<std::array<Attrs, kChunk>>, kChunks> chunks_;
  std::atomic<size_t> size_{0};
  std::unordered_map<Attrs, uint32_t, AttrsHash> ids_;
};

AttrsPool& pool() {
  static AttrsPool p;
  return p;
}

}  // namespace

AttrsId intern_attrs(const Attrs& attrs) {
  if (attrs.empty()) return kNoAttrs;
  return pool().intern(attrs);
}

const Attrs& attrs_of(AttrsId id) {
  return pool().at(id);
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
