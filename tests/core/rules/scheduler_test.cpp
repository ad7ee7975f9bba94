#include "core/rules/scheduler.h"

#include <gtest/gtest.h>

namespace retort {
namespace {

TEST(RulesScheduler, SimpleNeverBans) {
  Scheduler s(SchedulerKind::Simple, 1);
  EXPECT_TRUE(s.accept(0, 0, 1u << 30));
  EXPECT_TRUE(s.can_search(0, 1));
  EXPECT_TRUE(s.can_stop(1));
}

TEST(RulesScheduler, BackoffBansAndDoubles) {
  Scheduler s(SchedulerKind::Backoff, 2, BackoffOptions{10, 2});
  EXPECT_TRUE(s.accept(0, 0, 10));
  EXPECT_FALSE(s.accept(0, 0, 11));  // over 10: banned for 2 iterations
  EXPECT_FALSE(s.can_search(0, 1));
  EXPECT_TRUE(s.can_search(1, 1));
  EXPECT_TRUE(s.can_search(0, 2));
  EXPECT_TRUE(s.accept(0, 2, 20));   // the limit doubled to 20
  EXPECT_FALSE(s.accept(0, 2, 21));  // banned again, now for 4 iterations
  EXPECT_EQ(s.times_banned(0), 2u);
  EXPECT_FALSE(s.can_search(0, 5));
  EXPECT_TRUE(s.can_search(0, 6));
}

TEST(RulesScheduler, CannotStopWhileBannedButShortensTheBan) {
  Scheduler s(SchedulerKind::Backoff, 1, BackoffOptions{1, 5});
  EXPECT_FALSE(s.accept(0, 0, 2));
  EXPECT_FALSE(s.can_stop(1));
  EXPECT_TRUE(s.can_search(0, 2));
  EXPECT_TRUE(s.can_stop(2));
}

TEST(RulesScheduler, Names) {
  EXPECT_EQ(parse_scheduler("backoff"), SchedulerKind::Backoff);
  EXPECT_EQ(parse_scheduler("simple"), SchedulerKind::Simple);
  EXPECT_FALSE(parse_scheduler("fast"));
  EXPECT_EQ(scheduler_name(SchedulerKind::Backoff), "backoff");
}

}  // namespace
}  // namespace retort
