#include "core/tensor/value_budget.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/graph/graph.h"

namespace retort {
namespace {

Graph inputs_of(int count, int64_t elements) {
  Graph g;
  g.name = "many";
  for (int i = 0; i < count; ++i)
    g.inputs.push_back({"x" + std::to_string(i), {DType::f32, {elements}}});
  g.outputs = {"x0"};
  return g;
}

// Issue 27: every value was within its 2 GiB, but eight inputs of 1.86 GiB ended in
// std::bad_alloc. The values of a run together are held to a budget too, at type inference.
TEST(ValueBudget, TheValuesOfARunTogetherHaveABudget) {
  set_total_value_budget(uint64_t{1} << 20);  // 1 MiB
  Graph fits = inputs_of(2, 100000);          // 800 kB
  infer_graph(fits);
  Graph over = inputs_of(3, 100000);  // 1.2 MB
  try {
    infer_graph(over);
    ADD_FAILURE() << "1.2 MB of values passed a 1 MiB budget";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("the values of a run take 0.0 GiB together"), std::string::npos)
        << e.message();
  }
  set_total_value_budget(0);
  EXPECT_GE(total_value_budget(), kValueByteBudget);
  Graph eight = inputs_of(8, 500000000);  // 8 x 1.86 GiB
  if (total_value_budget() < 8 * uint64_t{2000000000}) {
    EXPECT_THROW(infer_graph(eight), Error);
  }
}

}  // namespace
}  // namespace retort
