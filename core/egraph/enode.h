// An e-node: an op applied to e-classes. For a multi-output op (split) there is one e-node per
// output index, all with the same op, attrs and children; `out` picks the output and `n_out`
// says how many the op has, so that the node can be turned back into one graph node. Hashing
// and equality cover (op, attrs, out, n_out, children); attrs are interned, so both are a few
// integer operations.
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/egraph/attrs_pool.h"
#include "core/egraph/id_list.h"
#include "core/egraph/op_table.h"

namespace retort {

struct ENode {
  OpId op;
  AttrsId attrs = kNoAttrs;
  uint16_t out = 0;    // which output of the op this e-node stands for
  uint16_t n_out = 1;  // how many outputs the op has
  IdList children;

  bool operator==(const ENode& o) const {
    return op == o.op && attrs == o.attrs && out == o.out && n_out == o.n_out &&
           children == o.children;
  }
  // Rotate, xor and multiply per field (as FxHash does): the hashcons hashes every e-node a rule
  // looks up, and a full mixing round per child cost more than the table probe. The fold brings
  // the product's well-mixed high half down to the low bits the tables index by.
  size_t hash() const {
    constexpr uint64_t k = 0x9e3779b97f4a7c15ull;
    uint64_t h = (uint64_t{op.value} << 32 | attrs.value) * k;
    h = (std::rotl(h, 5) ^ (uint64_t{out} << 16 | n_out)) * k;
    for (EClassId c : children.span()) h = (std::rotl(h, 5) ^ c.value) * k;
    return static_cast<size_t>(h ^ (h >> 32));
  }
};

struct ENodeHash {
  size_t operator()(const ENode& n) const noexcept { return n.hash(); }
};

// A deterministic total order: by op name, attribute contents, output, then children ids. Used
// to sort class members and to break extraction ties identically in every run.
int compare_enodes(const ENode& a, const ENode& b);
inline bool enode_less(const ENode& a, const ENode& b) {
  return compare_enodes(a, b) < 0;
}

// A registry op node: attributes are normalised against the registry (defaults filled, kinds
// coerced), n_out defaults to the op's output count (ops with a variable count, like split,
// must pass it). Throws Error on an unknown op, bad attributes or an out of range output index.
ENode make_enode(std::string_view op, const Attrs& attrs, std::vector<EClassId> children,
                 unsigned out = 0, unsigned n_out = 0);
// The children are copied into the e-node, so the caller may reuse their storage.
ENode make_enode(OpId op, const Attrs& attrs, std::span<const EClassId> children, unsigned out = 0,
                 unsigned n_out = 0);
// Leaves and the root: the e-graph's add_input / add_const / add_graph_out build these.
ENode input_enode(const std::string& name);
ENode const_enode(const std::string& name);
ENode graph_out_enode(std::vector<EClassId> outputs);

// The "name" attribute of an input or const e-node.
const std::string& leaf_name(const ENode& n);

}  // namespace retort
