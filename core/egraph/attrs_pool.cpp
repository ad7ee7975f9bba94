#include "core/egraph/attrs_pool.h"
#include "core/egraph/attrs_scope.h"

#include <array>
#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "core/base/error.h"

namespace retort {

namespace {

size_t mix(size_t h, size_t x) {
  return (h ^ (x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2))) * 0xff51afd7ed558ccdull;
}

size_t value_hash(size_t h, const AttrValue& value) {
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
  return h;
}

struct AttrsHash {
  size_t operator()(const Attrs& attrs) const noexcept {
    size_t h = attrs.size();
    for (const auto& [name, value] : attrs) {
      h = mix(h, std::hash<std::string>()(name));
      h = value_hash(h, value);
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

  // The id of `attrs` when it is interned already.
  std::optional<AttrsId> find(const Attrs& attrs) {
    std::lock_guard lock(mu_);
    auto it = ids_.find(attrs);
    if (it == ids_.end()) return std::nullopt;
    return AttrsId(it->second);
  }

  size_t size() const { return size_.load(std::memory_order_acquire); }

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

// A scope's ids: the top bit set, then 8 bits of the scope's generation (so that an id kept past
// its scope is caught, not read as another scope's entry), then the index in its table.
constexpr uint32_t kScopedBit = 1u << 31;
constexpr uint32_t kIndexBits = 23, kIndexMask = (1u << kIndexBits) - 1;

struct ScopeTable {
  bool active = false;
  uint64_t generation = 0;
  std::deque<Attrs> entries;  // a deque: references stay valid as it grows
  std::unordered_map<Attrs, uint32_t, AttrsHash> ids;
};

ScopeTable& scope_table() {
  thread_local ScopeTable table;
  return table;
}

uint32_t generation_bits(uint64_t generation) {
  return static_cast<uint32_t>(generation & 0xFF) << kIndexBits;
}

}  // namespace

AttrsScope::AttrsScope() : outer_(!scope_table().active) {
  if (!outer_) return;
  ScopeTable& t = scope_table();
  t.active = true;
  ++t.generation;
}

AttrsScope::~AttrsScope() {
  if (!outer_) return;
  ScopeTable& t = scope_table();
  t.active = false;
  std::deque<Attrs>().swap(t.entries);
  std::unordered_map<Attrs, uint32_t, AttrsHash>().swap(t.ids);
}

bool attrs_scoped(AttrsId id) {
  return (id.value & kScopedBit) != 0;
}

uint64_t attrs_scope_generation() {
  return scope_table().generation;
}

size_t attrs_pool_size() {
  return pool().size();
}

size_t attrs_scope_size() {
  return scope_table().entries.size();
}

size_t attr_value_hash(const AttrValue& value) {
  return value_hash(0, value);
}

AttrsId intern_attrs(const Attrs& attrs) {
  if (attrs.empty()) return kNoAttrs;
  ScopeTable& t = scope_table();
  if (!t.active) return pool().intern(attrs);
  // The scope's own table first: once a set is there, it keeps its id for the whole scope even
  // if another thread adds it to the pool meanwhile (equal ids must mean equal attributes).
  if (auto it = t.ids.find(attrs); it != t.ids.end())
    return AttrsId(kScopedBit | generation_bits(t.generation) | it->second);
  if (std::optional<AttrsId> shared = pool().find(attrs)) return *shared;
  if (t.entries.size() > kIndexMask)
    fail("too many distinct attribute sets in one case ({})", t.entries.size());
  auto index = static_cast<uint32_t>(t.entries.size());
  t.entries.push_back(attrs);
  t.ids.emplace(attrs, index);
  return AttrsId(kScopedBit | generation_bits(t.generation) | index);
}

const Attrs& attrs_of(AttrsId id) {
  if (!attrs_scoped(id)) return pool().at(id);
  const ScopeTable& t = scope_table();
  uint32_t index = id.value & kIndexMask;
  if (!t.active || (id.value & ~kIndexMask & ~kScopedBit) != generation_bits(t.generation) ||
      index >= t.entries.size())
    fail("attribute set id {:#x} outlived the case that made it", id.value);
  return t.entries[index];
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
