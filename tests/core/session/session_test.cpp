#include "core/session/session.h"

#include <gtest/gtest.h>

#include "core/base/error.h"

namespace retort {
namespace {

Graph named(const std::string& name) {
  Graph g;
  g.name = name;
  return g;
}

TEST(Session, StartsWithoutGraphAndDefaultSeed) {
  Session s;
  EXPECT_FALSE(s.has_graph());
  EXPECT_EQ(s.seed(), kDefaultSeed);
  try {
    s.graph();
    FAIL() << "graph() must throw without a graph";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("load FILE"), std::string::npos) << e.what();
  }
}

TEST(Session, HoldsGraphAndSeed) {
  Session s(7);
  EXPECT_EQ(s.seed(), 7u);
  s.set_graph(named("g1"));
  ASSERT_TRUE(s.has_graph());
  EXPECT_EQ(s.graph().name, "g1");
  s.set_seed(99);
  EXPECT_EQ(s.seed(), 99u);
}

TEST(Session, VariantsAreNamedAndReplaced) {
  Session s;
  s.set_variant("min", named("a"));
  s.set_variant("max", named("b"));
  s.set_variant("min", named("c"));
  EXPECT_EQ(s.variant_names(), (std::vector<std::string>{"max", "min"}));
  EXPECT_EQ(s.variant("min").name, "c");
  EXPECT_EQ(s.find_variant("nope"), nullptr);
  try {
    s.variant("mni");
    FAIL() << "unknown variant must throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("max, min"), std::string::npos) << e.what();
  }
}

TEST(Session, JournalKeepsCommandsInOrder) {
  Session s;
  s.record("load a.rtg", true);
  s.record("eval", false);
  ASSERT_EQ(s.journal().size(), 2u);
  EXPECT_EQ(s.journal()[0].command, "load a.rtg");
  EXPECT_TRUE(s.journal()[0].ok);
  EXPECT_FALSE(s.journal()[1].ok);
}

}  // namespace
}  // namespace retort
