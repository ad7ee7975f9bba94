// Strong integer ids used by the e-graph. Each is a 32-bit index, so nodes stay compact, and a
// distinct type, so a class id cannot be passed where an op id is expected.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>

#include <fmt/format.h>

namespace retort {

// An e-class id. Every id the e-graph hands out also names one term (the e-node added when the
// id was made, whose children are term ids): explanations speak about these terms. find() maps
// any id to the canonical id of its class.
struct EClassId {
  static constexpr uint32_t kInvalid = UINT32_MAX;
  uint32_t value = kInvalid;

  constexpr EClassId() = default;
  constexpr explicit EClassId(uint32_t v) : value(v) {}
  constexpr bool valid() const { return value != kInvalid; }
  auto operator<=>(const EClassId&) const = default;
};

// An interned op: a registry op or one of the special ops (see op_table.h).
struct OpId {
  uint32_t value = 0;
  constexpr OpId() = default;
  constexpr explicit OpId(uint32_t v) : value(v) {}
  auto operator<=>(const OpId&) const = default;
};

// Interned, normalised attributes (see attrs_pool.h). Equal ids mean equal attributes.
struct AttrsId {
  uint32_t value = 0;
  constexpr AttrsId() = default;
  constexpr explicit AttrsId(uint32_t v) : value(v) {}
  auto operator<=>(const AttrsId&) const = default;
};

// An interned tensor type of one e-graph (see type_table.h). Equal ids mean equal types.
struct TypeId {
  uint32_t value = 0;
  constexpr TypeId() = default;
  constexpr explicit TypeId(uint32_t v) : value(v) {}
  auto operator<=>(const TypeId&) const = default;
};
inline constexpr TypeId kNoType{0};  // the graph_out class: a list of outputs, not a tensor

inline uint32_t format_as(EClassId id) {
  return id.value;
}

}  // namespace retort

template <>
struct std::hash<retort::EClassId> {
  size_t operator()(retort::EClassId id) const noexcept { return id.value; }
};
