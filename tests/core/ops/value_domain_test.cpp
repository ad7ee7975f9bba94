#include "core/ops/value_domain.h"

#include <limits>

#include <gtest/gtest.h>

namespace retort {
namespace {

TEST(ValueDomain, InDomain) {
  EXPECT_FALSE(in_domain(0, ValueDomain::Positive));
  EXPECT_TRUE(in_domain(0, ValueDomain::NonNegative));
  EXPECT_FALSE(in_domain(1.5, ValueDomain::UnitClosed));
  EXPECT_FALSE(in_domain(std::numeric_limits<double>::quiet_NaN(), ValueDomain::NonZero));
  EXPECT_TRUE(in_domain(-3, ValueDomain::Any));
}

}  // namespace
}  // namespace retort
