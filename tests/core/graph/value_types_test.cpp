#include "core/graph/value_types.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/graph/graph.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

const TensorType kF{DType::f32, {2}};
const TensorType kI{DType::i64, {3, 1}};

std::vector<std::string> names(const ValueTypes& t) {
  std::vector<std::string> out;
  for (const auto& [name, _] : t) out.push_back(name);
  return out;
}

TEST(ValueTypes, IteratesInNameOrderWhateverTheOrderOfAddition) {
  ValueTypes t;
  for (const char* n : {"v10", "b", "v2", "a", "v1"}) t[n] = kF;
  EXPECT_EQ(names(t), (std::vector<std::string>{"a", "b", "v1", "v10", "v2"}));
  ValueTypes listed{{"v2", kF}, {"a", kF}, {"v10", kF}, {"b", kF}, {"v1", kF}};
  EXPECT_EQ(listed, t);
}

TEST(ValueTypes, FindsAndCountsByName) {
  ValueTypes t{{"x", kF}, {"y", kI}};
  ASSERT_NE(t.find("y"), t.end());
  EXPECT_EQ(t.find("y")->second, kI);
  EXPECT_EQ(t.find("z"), t.end());
  EXPECT_EQ(t.find("xx"), t.end());  // a name that sorts between two others
  EXPECT_EQ(t.count("x"), 1u);
  EXPECT_EQ(t.count(""), 0u);
  EXPECT_EQ(t.at("x"), kF);
  EXPECT_THROW((void)t.at("w"), std::out_of_range);
}

TEST(ValueTypes, EmplaceKeepsTheTypeAlreadyThereAndBracketsReplaceIt) {
  ValueTypes t;
  EXPECT_TRUE(t.emplace("x", kF).second);
  auto [it, added] = t.emplace("x", kI);
  EXPECT_FALSE(added);
  EXPECT_EQ(it->second, kF);
  t["x"] = kI;
  EXPECT_EQ(t.at("x"), kI);
  EXPECT_EQ(t.size(), 1u);
  // Copying from an entry of the same table into a new one: the new entry moves the old.
  auto copied = t.emplace("a", t.at("x"));
  EXPECT_TRUE(copied.second);
  EXPECT_EQ(t.at("a"), kI);
}

TEST(ValueTypes, AssignSortsAndKeepsTheFirstOfARepeatedName) {
  ValueTypes t;
  t.assign({{"b", kF}, {"a", kI}, {"b", kI}, {"c", kF}});
  EXPECT_EQ(names(t), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(t.at("b"), kF);
  t.assign({{"p", kF}, {"q", kI}});  // already in order
  EXPECT_EQ(names(t), (std::vector<std::string>{"p", "q"}));
  t.clear();
  EXPECT_TRUE(t.empty());
}

TEST(ValueTypes, InferGraphTypesEveryValueAndKeepsWhatItFoundBeforeAFailingNode) {
  Graph g = parse_rtg(R"(graph g
input x : f32[2,3]
y = relu(x)
z = transpose(y, perm=[1,0])
output z
)");
  infer_graph(g);
  EXPECT_EQ(names(g.types), (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(g.types.at("z").str(), "f32[3,2]");

  Graph bad = g;
  bad.nodes[1].attrs["perm"] = std::vector<int64_t>{0, 0};
  EXPECT_THROW(infer_graph(bad), Error);
  EXPECT_EQ(names(bad.types), (std::vector<std::string>{"x", "y"}));
}

}  // namespace
}  // namespace retort
