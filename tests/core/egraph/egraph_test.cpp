#include "core/egraph/egraph.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/egraph/render.h"

namespace retort {
namespace {

const TensorType f23{DType::f32, {2, 3}};
const TensorType f32t{DType::f32, {3, 2}};

ENode op(const char* name, std::vector<EClassId> kids, const Attrs& attrs = {}) {
  return make_enode(name, attrs, std::move(kids));
}

TEST(EGraph, HashconsDeduplicatesEqualNodes) {
  EGraph eg;
  EClassId a = eg.add_input("a", f23);
  EClassId b = eg.add_input("b", f23);
  EClassId s1 = eg.add(op("add", {a, b}));
  EClassId s2 = eg.add(op("add", {a, b}));
  EClassId s3 = eg.add(op("add", {b, a}));
  EXPECT_EQ(s1, s2);
  EXPECT_NE(eg.find(s1), eg.find(s3));
  EXPECT_EQ(eg.add_input("a", f23), a);
  EXPECT_EQ(eg.class_count(), 4u);
  EXPECT_EQ(eg.node_count(), 4u);
  EXPECT_EQ(eg.type(s1), f23);
  ASSERT_TRUE(eg.lookup(op("add", {a, b})));
  EXPECT_EQ(*eg.lookup(op("add", {a, b})), eg.find(s1));
  EXPECT_FALSE(eg.lookup(op("mul", {a, b})));
}

TEST(EGraph, AttributesArePartOfIdentity) {
  EGraph eg;
  EClassId x = eg.add_input("x", TensorType{DType::f32, {2, 3, 4}});
  EClassId t1 = eg.add(op("transpose", {x}, {{"perm", std::vector<int64_t>{1, 0, 2}}}));
  EClassId t2 = eg.add(op("transpose", {x}, {{"perm", std::vector<int64_t>{2, 1, 0}}}));
  EClassId t3 = eg.add(op("transpose", {x}, {{"perm", std::vector<int64_t>{1, 0, 2}}}));
  EXPECT_NE(t1, t2);
  EXPECT_EQ(t1, t3);
  EXPECT_EQ(eg.type(t1), (TensorType{DType::f32, {3, 2, 4}}));
  EXPECT_EQ(eg.type(t2), (TensorType{DType::f32, {4, 3, 2}}));
}

TEST(EGraph, CongruenceClosureAfterRebuild) {
  EGraph eg;
  EClassId a = eg.add_input("a", f23);
  EClassId b = eg.add_input("b", f23);
  EClassId fa = eg.add(op("neg", {a}));
  EClassId fb = eg.add(op("neg", {b}));
  EClassId gfa = eg.add(op("abs", {fa}));
  EClassId gfb = eg.add(op("abs", {fb}));
  EXPECT_EQ(eg.class_count(), 6u);
  EXPECT_TRUE(eg.merge(a, b, Justification::by_rule("ab", 1)));
  EXPECT_FALSE(eg.clean());
  EXPECT_FALSE(eg.same(fa, fb));
  EXPECT_EQ(eg.rebuild(), 2u);  // neg(a)=neg(b), then abs(neg a)=abs(neg b)
  EXPECT_TRUE(eg.clean());
  EXPECT_TRUE(eg.same(fa, fb));
  EXPECT_TRUE(eg.same(gfa, gfb));
  EXPECT_EQ(eg.class_count(), 3u);
  EXPECT_EQ(eg.node_count(), 4u);  // a, b, neg(e), abs(e)
  EXPECT_EQ(eg.eclass(fa).nodes.size(), 1u);
  EXPECT_EQ(eg.eclass(a).nodes.size(), 2u);
  EXPECT_FALSE(eg.merge(fa, fb, Justification::by_rule("again", 2)));
  // New terms over merged classes are found in the existing class.
  EClassId fb2 = eg.add(op("neg", {b}));
  EXPECT_TRUE(eg.same(fb2, fa));
  EXPECT_EQ(eg.class_count(), 3u);
}

TEST(EGraph, MergeThroughCycleKeepsOneClass) {
  EGraph eg;
  EClassId x = eg.add_input("x", f23);
  Attrs perm{{"perm", std::vector<int64_t>{1, 0}}};
  EClassId t = eg.add(op("transpose", {x}, perm));
  EClassId tt = eg.add(op("transpose", {t}, perm));
  eg.merge(tt, x, Justification::by_rule("trans-trans", 0));
  eg.rebuild();
  EXPECT_TRUE(eg.same(tt, x));
  EXPECT_EQ(eg.class_count(), 2u);
  const EClass& cx = eg.eclass(x);
  ASSERT_EQ(cx.nodes.size(), 2u);
  // The class of x now holds transpose(class of t): a cycle x -> t -> x.
  EXPECT_EQ(enode_str(eg, cx.nodes[1]),
            fmt::format("(transpose e{} perm=[1,0])", eg.find(t).value));
}

TEST(EGraph, MergingDifferentTypesIsABugReport) {
  EGraph eg;
  EClassId a = eg.add_input("a", f23);
  EClassId b = eg.add_input("b", f32t);
  EClassId n = eg.add(op("neg", {a}));
  try {
    eg.merge(n, b, Justification::by_rule("bad-rule", 7));
    FAIL() << "merge of f32[2,3] and f32[3,2] was accepted";
  } catch (const Error& e) {
    std::string m = e.message();
    EXPECT_NE(m.find("bad-rule (rewrite #8)"), std::string::npos) << m;
    EXPECT_NE(m.find("(neg a) : f32[2,3]"), std::string::npos) << m;
    EXPECT_NE(m.find("b : f32[3,2]"), std::string::npos) << m;
  }
  EXPECT_FALSE(eg.same(n, b));
  EXPECT_TRUE(eg.clean());
}

TEST(EGraph, TryAddRejectsIllTypedNodes) {
  EGraph eg;
  EClassId a = eg.add_input("a", f23);
  EClassId b = eg.add_input("b", f32t);
  size_t terms = eg.term_count();
  std::string why;
  EXPECT_FALSE(eg.try_add(op("add", {a, b}), &why));
  EXPECT_NE(why.find("[2,3]"), std::string::npos) << why;
  EXPECT_EQ(eg.term_count(), terms);
  EXPECT_THROW(eg.add(op("add", {a, b})), Error);
  auto ok = eg.try_add(op("add", {a, a}), &why);
  ASSERT_TRUE(ok);
  EXPECT_EQ(eg.type(*ok), f23);
  EXPECT_THROW(eg.add(input_enode("nope")), Error);
  EXPECT_THROW(eg.add(op("neg", {EClassId(999)})), Error);
}

TEST(EGraph, InferOpTypeChecksATermBottomUp) {
  ENode t = make_enode("transpose", {{"perm", std::vector<int64_t>{1, 0}}}, {EClassId(0)});
  std::vector<TensorType> in{f23};
  EXPECT_EQ(infer_op_type(t, in), f32t);
  ENode add = make_enode("add", {}, {EClassId(0), EClassId(1)});
  std::vector<TensorType> bad{f23, f32t};
  EXPECT_THROW(infer_op_type(add, bad), Error);
}

TEST(EGraph, AddWithAnInferredTypeAddsTheSameTerm) {
  EGraph eg, typed;
  EClassId a = eg.add_input("a", f23), ta = typed.add_input("a", f23);
  ENode t = op("transpose", {a}, {{"perm", std::vector<int64_t>{1, 0}}});
  std::vector<TypeId> kids{typed.type_id(ta)};
  TypeId type = typed.infer_op(t, kids);
  EXPECT_EQ(typed.type_of(type), f32t);
  EClassId x = eg.add(t), tx = typed.add(t, type);
  EXPECT_EQ(x, tx);
  EXPECT_EQ(typed.type(tx), f32t);
  EXPECT_EQ(typed.add(t, type), tx);  // the same term again
  EXPECT_EQ(typed.add(t), tx);
  EXPECT_EQ(typed.node_count(), eg.node_count());
}

TEST(EGraph, ConstantsAreKnownAndChecked) {
  EGraph eg;
  Constant one{"one", Tensor::from_doubles(DType::f32, {2, 3}, {1, 1, 1, 1, 1, 1}), ""};
  Constant two{"two", Tensor::from_doubles(DType::f32, {2, 3}, {2, 2, 2, 2, 2, 2}), ""};
  EClassId c1 = eg.add_const(one);
  EClassId c2 = eg.add_const(two);
  EClassId x = eg.add_input("x", f23);
  ASSERT_NE(eg.constant(c1), nullptr);
  EXPECT_EQ(eg.constant(c1)->name, "one");
  EXPECT_EQ(eg.constant(x), nullptr);
  EXPECT_THROW(eg.merge(c1, c2, Justification::by_rule("wrong", 0)), Error);
  eg.merge(x, c2, Justification::by_rule("x-is-two", 0));
  eg.rebuild();
  ASSERT_NE(eg.constant(x), nullptr);
  EXPECT_EQ(eg.constant(x)->name, "two");
  Constant other{"one", Tensor::from_doubles(DType::f32, {2, 3}, {0, 0, 0, 0, 0, 0}), ""};
  EXPECT_THROW(eg.add_const(other), Error);
}

TEST(EGraph, MultiOutputNodesShareOpAttrsAndChildren) {
  EGraph eg;
  EClassId x = eg.add_input("x", TensorType{DType::f32, {4, 2}});
  Attrs a{{"axis", int64_t{0}}};
  EClassId s0 = eg.add(make_enode("split", a, {x}, 0, 2));
  EClassId s1 = eg.add(make_enode("split", a, {x}, 1, 2));
  EXPECT_NE(eg.find(s0), eg.find(s1));
  EXPECT_EQ(eg.type(s0), (TensorType{DType::f32, {2, 2}}));
  EXPECT_THROW(make_enode("split", a, {x}, 2, 2), Error);
  EXPECT_THROW(make_enode("split", a, {x}), Error);  // the output count is needed
}

TEST(EGraph, ClassesWithOpIndexesCanonicalClasses) {
  EGraph eg;
  EClassId a = eg.add_input("a", f23);
  EClassId b = eg.add_input("b", f23);
  EClassId s = eg.add(op("add", {a, b}));
  EClassId m = eg.add(op("mul", {a, b}));
  eg.merge(s, m, Justification::by_rule("test", 0));
  eg.rebuild();
  auto adds = eg.classes_with_op(op_id("add"));
  auto muls = eg.classes_with_op(op_id("mul"));
  ASSERT_EQ(adds.size(), 1u);
  ASSERT_EQ(muls.size(), 1u);
  EXPECT_EQ(adds[0], eg.find(s));
  EXPECT_EQ(muls[0], eg.find(s));
  EXPECT_EQ(eg.classes_with_op(op_id("neg")).size(), 0u);
  EXPECT_EQ(eg.classes_with_op(special_ops::kInput).size(), 2u);
}

TEST(EGraph, GraphOutIsNotATensor) {
  EGraph eg;
  EClassId a = eg.add_input("a", f23);
  EClassId root = eg.add_graph_out({a});
  EXPECT_FALSE(eg.has_type(root));
  EXPECT_THROW(eg.type(root), Error);
  EXPECT_THROW(eg.add(op("neg", {root})), Error);
  EXPECT_THROW(eg.merge(root, a, Justification::by_rule("x", 0)), Error);
}

// A term with canonical children is found through the hashcons until a merge re-keys it; it
// must still be found exactly afterwards, not added again as a new congruent term.
TEST(EGraph, TermsStayFoundExactlyAfterTheirChildMerges) {
  EGraph eg;
  EClassId a = eg.add_input("a", f23);
  EClassId b = eg.add_input("b", f23);
  EClassId na = eg.add(op("neg", {a}));
  eg.add(op("abs", {b}));
  eg.add(op("exp", {b}));  // b keeps more parents, so a's class is the one merged away
  eg.merge(a, b, Justification::by_rule("a=b", 0));
  eg.rebuild();
  ASSERT_EQ(eg.find(a), b);
  size_t terms = eg.term_count();
  EXPECT_EQ(eg.add(op("neg", {a})), na);
  EXPECT_EQ(eg.term_count(), terms);
  EClassId nb = eg.add(op("neg", {b}));  // congruent to neg(a): a new term in its class
  EXPECT_NE(nb, na);
  EXPECT_EQ(eg.find(nb), eg.find(na));
  EXPECT_EQ(eg.add(op("neg", {b})), nb);
  EXPECT_EQ(eg.term_count(), terms + 1);
}

TEST(EGraph, MemoryPerNodeIsCompact) {
  EGraph eg;
  EClassId prev = eg.add_input("x", f23);
  EClassId y = eg.add_input("y", f23);
  for (int i = 0; i < 20000; ++i) prev = eg.add(op(i % 2 ? "add" : "mul", {prev, y}));
  MemoryUsage m = eg.memory();
  EXPECT_GT(m.nodes, 20000 * sizeof(ENode));
  double per_node = static_cast<double>(m.total()) / static_cast<double>(eg.node_count());
  EXPECT_LT(per_node, 400.0);
  EXPECT_EQ(sizeof(ENode), 28u);
}

TEST(IdList, InlineAndHeapStorage) {
  IdList small{EClassId(1), EClassId(2)};
  IdList big{EClassId(1), EClassId(2), EClassId(3), EClassId(4), EClassId(5)};
  EXPECT_EQ(small.size(), 2u);
  EXPECT_EQ(small.heap_bytes(), 0u);
  EXPECT_EQ(big.heap_bytes(), 5 * sizeof(EClassId));
  IdList copy = big;
  EXPECT_EQ(copy, big);
  copy[4] = EClassId(9);
  EXPECT_NE(copy, big);
  IdList moved = std::move(copy);
  EXPECT_EQ(moved[4], EClassId(9));
  small = moved;
  EXPECT_EQ(small.size(), 5u);
  EXPECT_EQ(small[0], EClassId(1));
}

// Class records keep their first elements inline; the lists grow to the heap at powers of two
// and come back inline when rebuild() shortens them.
TEST(InlineVec, GrowsToTheHeapAndBackInline) {
  InlineVec<ENode, 1> nodes;
  EXPECT_EQ(sizeof(nodes), 32u);
  for (uint32_t i = 0; i < 5; ++i)
    nodes.push_back(make_enode("add", {}, {EClassId(i), EClassId(i + 1)}));
  EXPECT_EQ(nodes.size(), 5u);
  EXPECT_EQ(nodes.heap_bytes(), 8 * sizeof(ENode));
  EXPECT_EQ(nodes[4].children[1], EClassId(5));
  InlineVec<ENode, 1> copy = nodes;
  EXPECT_EQ(copy, nodes);
  nodes.truncate(3);
  EXPECT_EQ(nodes.heap_bytes(), 4 * sizeof(ENode));
  EXPECT_EQ(nodes[2].children[0], EClassId(2));
  nodes.truncate(1);
  EXPECT_EQ(nodes.heap_bytes(), 0u);
  EXPECT_EQ(nodes[0].children[0], EClassId(0));
  nodes.append_moved(copy);
  EXPECT_TRUE(copy.empty());
  EXPECT_EQ(nodes.size(), 6u);
  EXPECT_EQ(nodes[5].children[0], EClassId(4));
  InlineVec<ENode, 1> moved = std::move(nodes);
  EXPECT_EQ(moved.size(), 6u);
  EXPECT_TRUE(nodes.empty());

  InlineVec<EClassId, 3> ids;
  ids.push_back(EClassId(7));
  InlineVec<EClassId, 3> ids2 = std::move(ids);
  EXPECT_EQ(ids2.vec(), std::vector<EClassId>{EClassId(7)});
  EXPECT_EQ(ids2.heap_bytes(), 0u);
}

}  // namespace
}  // namespace retort
