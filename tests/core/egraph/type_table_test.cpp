// The type table interns tensor types and memoises registry inference by type id; the attribute
// pool interns attribute maps process-wide. Both must give equal ids for equal contents and
// keep their answers (and errors) stable.
#include <thread>

#include <gtest/gtest.h>

#include "core/egraph/attrs_pool.h"
#include "core/egraph/attrs_scope.h"
#include "core/egraph/egraph.h"
#include "core/egraph/type_table.h"

namespace retort {
namespace {

const TensorType f32x23{DType::f32, {2, 3}};
const TensorType f32x32{DType::f32, {3, 2}};

TEST(TypeTable, EqualTypesGetOneId) {
  TypeTable t;
  TypeId a = t.intern(f32x23);
  EXPECT_EQ(t.intern(TensorType{DType::f32, {2, 3}}), a);
  EXPECT_NE(t.intern(f32x32), a);
  EXPECT_NE(a, kNoType);
  EXPECT_EQ(t.at(a), f32x23);
  EXPECT_THROW(t.at(kNoType), Error);
  EXPECT_THROW(t.at(TypeId(99)), Error);
}

TEST(TypeTable, InferenceIsTheRegistrysAndIsKeptOnce) {
  TypeTable t;
  TypeId x = t.intern(f32x23);
  ENode transpose = make_enode("transpose", {}, {EClassId(0)});
  TypeId y = t.infer(transpose, std::vector<TypeId>{x});
  EXPECT_EQ(t.at(y), f32x32);
  EXPECT_EQ(t.at(y), infer_op_type(transpose, std::vector<TensorType>{f32x23}));
  size_t bytes = t.bytes();
  EXPECT_EQ(t.infer(transpose, std::vector<TypeId>{x}), y);
  EXPECT_EQ(t.bytes(), bytes);  // the same question adds no second answer
  ENode other = make_enode("transpose", {{"perm", std::vector<int64_t>{0, 1}}}, {EClassId(0)});
  EXPECT_EQ(t.at(t.infer(other, std::vector<TypeId>{x})), f32x23);
  EXPECT_GT(t.bytes(), bytes);  // a new question does
}

TEST(TypeTable, AnIllTypedNodeThrowsTheSameErrorEveryTime) {
  TypeTable t;
  std::vector<TypeId> kids{t.intern(f32x23), t.intern(f32x32)};
  ENode add = make_enode("add", {}, {EClassId(0), EClassId(1)});
  std::string first, second;
  try {
    t.infer(add, kids);
  } catch (const Error& e) {
    first = e.message();
  }
  try {
    t.infer(add, kids);
  } catch (const Error& e) {
    second = e.message();
  }
  EXPECT_FALSE(first.empty());
  EXPECT_EQ(first, second);
}

// Each test of lending runs on a thread of its own, which starts with no table kept.
template <typename F>
void on_new_thread(F f) {
  std::thread(f).join();
}

TEST(TypeTable, TheTableAnEGraphGivesBackIsLentToTheNextWithItsAnswers) {
  on_new_thread([] {
    std::unique_ptr<TypeTable> t = TypeTable::lend();
    uint64_t serial = t->serial();
    TypeId x = t->intern(f32x23);
    ENode transpose = make_enode("transpose", {}, {EClassId(0)});
    TypeId y = t->infer(transpose, std::vector<TypeId>{x});
    std::unique_ptr<TypeTable> other = TypeTable::lend();  // none is kept while t is out
    EXPECT_NE(other->serial(), serial);
    TypeTable::give_back(std::move(t));
    TypeTable::give_back(std::move(other));  // one is kept already: this one goes
    std::unique_ptr<TypeTable> again = TypeTable::lend();
    EXPECT_EQ(again->serial(), serial);
    size_t bytes = again->bytes();
    EXPECT_EQ(again->infer(transpose, std::vector<TypeId>{x}), y);
    EXPECT_EQ(again->bytes(), bytes);  // answered from what it kept
    EXPECT_NE(TypeTable::lend()->serial(), serial);

    uint64_t alive_serial;
    {
      EGraph eg;
      EGraph alive;  // two e-graphs at once have two tables
      EXPECT_NE(alive.types_serial(), eg.types_serial());
      alive_serial = alive.types_serial();
    }  // alive goes first: its table is kept, eg's is not
    EGraph next;
    EXPECT_EQ(next.types_serial(), alive_serial);
    EGraph after;
    EXPECT_NE(after.types_serial(), alive_serial);
  });
}

// Attribute ids of an AttrsScope die with it and are handed out again: a table that answered a
// question over one is not lent on. Nor is one past its bound, so that types do not pile up.
TEST(TypeTable, ATableThatAnsweredOverScopedAttributesOrGrewLargeIsNotKept) {
  on_new_thread([] {
    std::unique_ptr<TypeTable> t = TypeTable::lend();
    uint64_t serial = t->serial();
    {
      AttrsScope scope;
      ENode odd =
          make_enode("reshape", {{"shape", std::vector<int64_t>{7, 11, 13}}}, {EClassId(0)});
      ASSERT_TRUE(attrs_scoped(odd.attrs));  // a set new to the process
      TensorType flat{DType::f32, {1001}};
      EXPECT_EQ(t->at(t->infer(odd, std::vector<TypeId>{t->intern(flat)})).shape[0], 7);
    }
    TypeTable::give_back(std::move(t));
    std::unique_ptr<TypeTable> next = TypeTable::lend();
    EXPECT_NE(next->serial(), serial);

    serial = next->serial();
    for (int64_t n = 1; n <= 2000; ++n) next->intern(TensorType{DType::f32, {n}});
    TypeTable::give_back(std::move(next));
    EXPECT_NE(TypeTable::lend()->serial(), serial);

    std::unique_ptr<TypeTable> small = TypeTable::lend();
    serial = small->serial();
    small->intern(f32x23);
    TypeTable::give_back(std::move(small));
    EXPECT_EQ(TypeTable::lend()->serial(), serial);
  });
}

TEST(AttrsPool, EqualMapsGetOneIdAcrossThreads) {
  Attrs perm{{"perm", std::vector<int64_t>{1, 0, 2}}};
  AttrsId here = intern_attrs(perm);
  std::vector<AttrsId> there(4);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < there.size(); ++i)
    threads.emplace_back([&, i] {
      for (int k = 0; k < 200; ++k) intern_attrs({{"axis", int64_t{k}}});
      there[i] = intern_attrs(perm);
    });
  for (auto& th : threads) th.join();
  for (AttrsId id : there) EXPECT_EQ(id, here);
  EXPECT_EQ(attrs_of(here), perm);
  EXPECT_EQ(attrs_of(intern_attrs({{"axis", int64_t{199}}})).at("axis"), AttrValue(int64_t{199}));
  EXPECT_THROW(attrs_of(AttrsId(UINT32_MAX)), Error);
}

}  // namespace
}  // namespace retort
