#include "core/egraph/selection.h"

#include <gtest/gtest.h>

#include "core/base/error.h"

namespace retort {
namespace {

std::vector<uint32_t> classes(const Selection& s) {
  std::vector<uint32_t> out;
  for (const auto& [c, n] : s.chosen) out.push_back(c.value);
  return out;
}

TEST(Selection, SetKeepsClassOrderAndReplaces) {
  Selection s;
  s.set(EClassId{5}, input_enode("a"));
  s.set(EClassId{2}, input_enode("b"));
  s.set(EClassId{9}, input_enode("c"));
  s.set(EClassId{5}, input_enode("d"));
  EXPECT_EQ(classes(s), (std::vector<uint32_t>{2, 5, 9}));
  EXPECT_EQ(leaf_name(s.at(EClassId{5})), "d");
  EXPECT_TRUE(s.contains(EClassId{2}));
  EXPECT_FALSE(s.contains(EClassId{3}));
  EXPECT_EQ(s.find(EClassId{10}), nullptr);
  EXPECT_THROW(s.at(EClassId{3}), Error);
}

TEST(Selection, FillFromKeepsItsOwnChoices) {
  Selection s, other;
  s.set(EClassId{1}, input_enode("mine"));
  s.set(EClassId{4}, input_enode("mine4"));
  other.set(EClassId{0}, input_enode("theirs0"));
  other.set(EClassId{4}, input_enode("theirs4"));
  other.set(EClassId{7}, input_enode("theirs7"));
  s.fill_from(other);
  EXPECT_EQ(classes(s), (std::vector<uint32_t>{0, 1, 4, 7}));
  EXPECT_EQ(leaf_name(s.at(EClassId{4})), "mine4");
  EXPECT_EQ(leaf_name(s.at(EClassId{0})), "theirs0");
}

}  // namespace
}  // namespace retort
