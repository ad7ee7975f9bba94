#include "core/egraph/op_table.h"

#include <functional>
#include <unordered_map>
#include <vector>

#include "core/base/error.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

// Looked up by string_view without building a string.
struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view name) const noexcept {
    return std::hash<std::string_view>{}(name);
  }
};

struct OpTable {
  std::vector<std::string> names;
  std::vector<const OpDef*> defs;
  // Hashed: every graph node that becomes an e-node looks its op up here.
  std::unordered_map<std::string, OpId, NameHash, std::equal_to<>> ids;

  OpTable() {
    for (const char* special : {"input", "const", "opaque", "graph_out"}) add(special, nullptr);
    for (const OpDef* def : OpRegistry::instance().all())
      if (!ids.count(def->name)) add(def->name, def);
  }
  void add(const std::string& name, const OpDef* def) {
    ids.emplace(name, OpId(static_cast<uint32_t>(names.size())));
    names.push_back(name);
    defs.push_back(def);
  }
};

// Built once from the (immutable) registry, so reads need no lock.
const OpTable& table() {
  static const OpTable t;
  return t;
}

}  // namespace

std::optional<OpId> find_op_id(std::string_view name) {
  const auto& t = table();
  auto it = t.ids.find(name);
  if (it == t.ids.end()) return std::nullopt;
  return it->second;
}

OpId op_id(std::string_view name) {
  if (auto id = find_op_id(name)) return *id;
  OpRegistry::instance().get(name);  // throws the registry's unknown-op error with suggestions
  fail("unknown op '{}'", name);
}

const std::string& op_name(OpId op) {
  const auto& t = table();
  if (op.value >= t.names.size()) fail("invalid op id {}", op.value);
  return t.names[op.value];
}

const OpDef* op_def(OpId op) {
  const auto& t = table();
  return op.value < t.defs.size() ? t.defs[op.value] : nullptr;
}

bool is_special_op(OpId op) {
  return op.value <= special_ops::kGraphOut.value;
}

bool is_leaf_op(OpId op) {
  return op == special_ops::kInput || op == special_ops::kConst;
}

}  // namespace retort
