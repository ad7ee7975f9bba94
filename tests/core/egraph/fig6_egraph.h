// POLYJUICE Fig. 6 built by hand: add(add(I1, trans(I2)), trans(I3)), rewritten with the three
// rules of the figure through add/merge, as the rules engine would.
#pragma once

#include "core/egraph/convert.h"
#include "core/egraph/egraph.h"

namespace retort::testing {

struct Fig6 {
  EGraph eg;
  GraphMeta meta;
  Graph original;
  EClassId outer;         // the original root add term
  EClassId reassociated;  // add(I1, add(trans I2, trans I3))
  EClassId i2, tt2;       // I2 and trans(trans(I2))
};

inline ENode fig6_node(const char* op, std::vector<EClassId> kids) {
  Attrs attrs;
  if (std::string(op) == "transpose") attrs["perm"] = std::vector<int64_t>{1, 0};
  return make_enode(op, attrs, std::move(kids));
}

// Rule steps: 1 assoc, 2 add->trans(add(trans, trans)), 3 and 4 trans(trans x) -> x, 5 the
// second rule again, on the outer add.
inline void build_fig6(Fig6& f) {
  Graph& g = f.original;
  g.inputs = {
      {"I1", {DType::i32, {3, 2}}}, {"I2", {DType::i32, {2, 3}}}, {"I3", {DType::i32, {2, 3}}}};
  Attrs perm{{"perm", std::vector<int64_t>{1, 0}}};
  g.nodes = {{"t2", "transpose", {"I2"}, {"T2"}, perm, {}},
             {"t3", "transpose", {"I3"}, {"T3"}, perm, {}},
             {"a1", "add", {"I1", "T2"}, {"A1"}, {}, {}},
             {"a2", "add", {"A1", "T3"}, {"O"}, {}, {}}};
  g.outputs = {"O"};
  infer_graph(g);
  EGraph& eg = f.eg;
  f.meta = add_graph(eg, g);
  EClassId i1 = eg.add(input_enode("I1"));
  f.i2 = eg.add(input_enode("I2"));
  EClassId i3 = eg.add(input_enode("I3"));
  EClassId t2 = eg.add(fig6_node("transpose", {f.i2}));
  EClassId t3 = eg.add(fig6_node("transpose", {i3}));
  EClassId a1 = eg.add(fig6_node("add", {i1, t2}));
  f.outer = eg.add(fig6_node("add", {a1, t3}));

  // add(add(x, y), z) -> add(x, add(y, z))
  EClassId inner = eg.add(fig6_node("add", {t2, t3}));
  f.reassociated = eg.add(fig6_node("add", {i1, inner}));
  eg.merge(f.outer, f.reassociated, Justification::by_rule("assoc", 1));
  eg.rebuild();
  // add(x, y) -> trans(add(trans x, trans y)) on add(trans I2, trans I3)
  f.tt2 = eg.add(fig6_node("transpose", {t2}));
  EClassId tt3 = eg.add(fig6_node("transpose", {t3}));
  EClassId sum = eg.add(fig6_node("add", {f.tt2, tt3}));
  EClassId back = eg.add(fig6_node("transpose", {sum}));
  eg.merge(inner, back, Justification::by_rule("add-trans", 2));
  eg.rebuild();
  // trans(trans(x)) -> x
  eg.merge(f.tt2, f.i2, Justification::by_rule("trans-trans", 3));
  eg.merge(tt3, i3, Justification::by_rule("trans-trans", 4));
  eg.rebuild();
  EClassId ta1 = eg.add(fig6_node("transpose", {a1}));
  EClassId wide = eg.add(fig6_node("transpose", {eg.add(fig6_node("add", {ta1, tt3}))}));
  eg.merge(f.outer, wide, Justification::by_rule("add-trans", 5));
  eg.rebuild();
}

}  // namespace retort::testing
