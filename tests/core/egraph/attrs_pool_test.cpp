#include "core/egraph/attrs_pool.h"
#include "core/egraph/attrs_scope.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/egraph/egraph.h"
#include "core/egraph/enode.h"

namespace retort {
namespace {

// Issue 27: the process-wide pool grew by every case's new attribute sets (20 -> 28 MB over 9,674
// cases) until, at 4,194,304 entries, every later case failed. What a case interns inside its
// scope is freed with it: the pool stays as it was however many cases run.
TEST(AttrsPool, CasesInScopesLeaveThePoolAsItWas) {
  AttrsId shared = intern_attrs({{"axis", int64_t{1}}});
  size_t before = attrs_pool_size();
  for (int64_t c = 0; c < 20000; ++c) {
    AttrsScope scope;
    AttrsId mine = intern_attrs({{"case_attr_test", c}});
    EXPECT_TRUE(attrs_scoped(mine));
    EXPECT_EQ(intern_attrs({{"case_attr_test", c}}), mine);  // equal ids for equal sets
    EXPECT_EQ(std::get<int64_t>(attrs_of(mine).at("case_attr_test")), c);
    EXPECT_EQ(intern_attrs({{"axis", int64_t{1}}}), shared);  // the pool's own ids hold
    // Building e-nodes goes through the normalisation memo, which must not keep the case's ids.
    ENode n = make_enode("transpose", {{"perm", std::vector<int64_t>{1, c + 2, 0}}}, {EClassId(0)});
    EXPECT_TRUE(attrs_scoped(n.attrs));
    EXPECT_GE(attrs_scope_size(), 2u);  // its set, the given perm (and its normal form)
    EXPECT_LE(attrs_scope_size(), 3u);
  }
  EXPECT_EQ(attrs_pool_size(), before);
  EXPECT_EQ(attrs_scope_size(), 0u);
}

TEST(AttrsPool, AnIdKeptPastItsScopeIsAnErrorNotAnotherSet) {
  AttrsId kept;
  {
    AttrsScope scope;
    kept = intern_attrs({{"kept_attr_test", int64_t{1}}});
  }
  EXPECT_THROW(attrs_of(kept), Error);
  AttrsScope next;
  intern_attrs({{"other_attr_test", int64_t{2}}});  // index 0 of the next scope
  EXPECT_THROW(attrs_of(kept), Error);
}

TEST(AttrsPool, AScopeInsideAScopeAddsNothing) {
  AttrsScope outer;
  AttrsId id = intern_attrs({{"nested_attr_test", int64_t{1}}});
  { AttrsScope inner; }
  EXPECT_EQ(std::get<int64_t>(attrs_of(id).at("nested_attr_test")), 1);
}

}  // namespace
}  // namespace retort
