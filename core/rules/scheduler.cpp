#include "core/rules/scheduler.h"

#include <algorithm>

namespace retort {

std::string_view scheduler_name(SchedulerKind k) {
  return k == SchedulerKind::Simple ? "simple" : "backoff";
}

std::optional<SchedulerKind> parse_scheduler(std::string_view name) {
  if (name == "simple") return SchedulerKind::Simple;
  if (name == "backoff") return SchedulerKind::Backoff;
  return std::nullopt;
}

Scheduler::Scheduler(SchedulerKind kind, size_t num_rules, BackoffOptions options)
    : kind_(kind), options_(options), stats_(num_rules) {}

bool Scheduler::can_search(size_t rule, size_t iteration) const {
  return kind_ == SchedulerKind::Simple || iteration >= stats_[rule].banned_until;
}

bool Scheduler::accept(size_t rule, size_t iteration, size_t matches) {
  if (kind_ == SchedulerKind::Simple) return true;
  Stats& s = stats_[rule];
  // Shifts are capped so that a rule banned many times cannot overflow the limits.
  size_t shift = std::min<size_t>(s.times_banned, 20);
  size_t threshold = options_.match_limit << shift;
  if (matches <= threshold) return true;
  s.banned_until = iteration + (options_.ban_length << shift);
  ++s.times_banned;
  return false;
}

bool Scheduler::can_stop(size_t iteration) {
  if (kind_ == SchedulerKind::Simple) return true;
  size_t soonest = SIZE_MAX;
  for (const Stats& s : stats_)
    if (s.banned_until > iteration) soonest = std::min(soonest, s.banned_until);
  if (soonest == SIZE_MAX) return true;
  size_t delta = soonest - iteration;
  for (Stats& s : stats_)
    if (s.banned_until > iteration) s.banned_until -= delta;
  return false;
}

}  // namespace retort
