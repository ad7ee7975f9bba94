// Which rules the runner searches in an iteration. `simple` searches every rule every time;
// `backoff` follows egg's BackoffScheduler: a rule whose matches exceed its limit is banned for a
// while, and each ban doubles both its limit and the next ban's length, so explosive rules
// (associativity, the `x -> ...` rules) cannot starve the others.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace retort {

enum class SchedulerKind { Simple, Backoff };
std::string_view scheduler_name(SchedulerKind k);
std::optional<SchedulerKind> parse_scheduler(std::string_view name);  // "simple" | "backoff"

struct BackoffOptions {
  size_t match_limit = 1000;  // matches allowed before the first ban
  size_t ban_length = 5;      // iterations of the first ban
};

class Scheduler {
 public:
  Scheduler(SchedulerKind kind, size_t num_rules, BackoffOptions options = {});

  SchedulerKind kind() const { return kind_; }
  // False while the rule is banned.
  bool can_search(size_t rule, size_t iteration) const;
  // Told how many matches the rule found; false (and the rule banned) when that is too many
  // to apply this iteration.
  bool accept(size_t rule, size_t iteration, size_t matches);
  // Asked when an iteration changed nothing. With rules banned the e-graph is not saturated:
  // the bans are shortened so that the next iteration searches the soonest-unbanned rules.
  bool can_stop(size_t iteration);
  size_t times_banned(size_t rule) const { return stats_[rule].times_banned; }

 private:
  struct Stats {
    size_t times_banned = 0;
    size_t banned_until = 0;
  };
  SchedulerKind kind_;
  BackoffOptions options_;
  std::vector<Stats> stats_;
};

}  // namespace retort
