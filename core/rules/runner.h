// Equality saturation: iterations of search (every rule on the clean e-graph), apply (each
// match, parameters drawn from the runner's seeded Rng) and rebuild, until nothing changes or a
// limit is hit. Each iteration is reported: matches and outcomes per rule, e-graph size, time.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/rng.h"
#include "core/egraph/egraph.h"
#include "core/rules/apply.h"
#include "core/rules/ematch.h"
#include "core/rules/rule.h"
#include "core/rules/scheduler.h"

namespace retort {

// What a runner keeps from one run to the next of the same rules, for a caller that runs them
// over and over (a campaign's cases, a benchmark's runs) and names one in RunnerOptions::carry:
// what applications learned (ApplyMemo) and the storage of the per-rule match lists, which a
// runner of its own would grow again from nothing. Use one with one rule set, on one thread at
// a time.
struct RunnerCarry {
  ApplyMemo memo;
  std::vector<MatchList> found;  // by rule: the last search's matches
};

struct RunnerOptions {
  size_t iter_limit = 30;
  size_t node_limit = 10000;        // stop applying once the e-graph holds this many e-nodes
  double time_limit_seconds = 5.0;  // 0 (or less): none
  SchedulerKind scheduler = SchedulerKind::Backoff;
  BackoffOptions backoff;
  uint64_t seed = 0;                          // the Rng of parameters and cap samples
  const std::atomic<bool>* cancel = nullptr;  // checked between matches and applications
  // When set, follows the e-graph's e-node count as rules apply (read by a progress display on
  // another thread).
  std::atomic<size_t>* progress_nodes = nullptr;
  // When set, the runner keeps what it learns there rather than in itself, for the next runs of
  // the same rules.
  RunnerCarry* carry = nullptr;
};

enum class StopReason { Saturated, IterationLimit, NodeLimit, TimeLimit, Cancelled };
std::string_view stop_reason_name(StopReason r);  // "saturated", "iteration limit", ...

struct RuleReport {
  std::string rule;
  size_t matches = 0;    // found by the search (before the cap)
  size_t applied = 0;    // changed the e-graph
  size_t unchanged = 0;  // the right-hand side was there already
  size_t skipped = 0;    // an application-time clause said no
  size_t rejected = 0;   // the right-hand side did not type
  size_t capped = 0;     // matches left out by the rule's cap
  bool banned = false;   // the backoff scheduler did not search it or dropped its matches
};

struct IterationReport {
  size_t iteration = 0;
  std::vector<RuleReport> rules;
  size_t applied = 0;         // total over the rules
  size_t rebuild_merges = 0;  // congruence merges made by rebuild
  size_t nodes = 0, classes = 0;
  double search_seconds = 0, apply_seconds = 0, rebuild_seconds = 0;
  std::optional<StopReason> stop;  // set when the run ended in this iteration

  // A table: one line per rule with matches, then a summary line.
  std::string str() const;
};

struct RunReport {
  std::vector<IterationReport> iterations;
  StopReason stop = StopReason::Saturated;
  double seconds = 0;
  size_t nodes = 0, classes = 0;

  std::string str() const;  // every iteration, then "stopped: <reason> after N iterations ..."
};

class Runner {
 public:
  Runner(EGraph& eg, const RuleSet& rules, RunnerOptions options = {});

  // Iterates until a stop reason; new steps go to `trace`. Calling run() again continues
  // (the iteration count, scheduler state and Rng carry over).
  RunReport run(RewriteTrace& trace);
  // One iteration (limits other than the node limit are the caller's business).
  IterationReport step(RewriteTrace& trace);

  size_t iterations() const { return iteration_; }

 private:
  bool interrupted() const;  // cancelled or out of time
  bool out_of_time() const;

  EGraph& eg_;
  const RuleSet& rules_;
  RunnerOptions options_;
  Scheduler scheduler_;
  Rng rng_;
  RunnerCarry own_carry_;  // unless options_.carry is given
  RunnerCarry& carry_;     // its memo is over rules_
  // Per rule, the numbers of the matches to apply (all, or the cap's sample); kept from step to
  // step for their storage.
  std::vector<std::vector<uint32_t>> chosen_;
  size_t iteration_ = 0;
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();
  bool dropped_ = false;  // the last iteration left matches out (caps, bans, limits)
};

// `match RULE`: one line per match (at most `max_lines`, then "... and N more"): the matched
// class, the bindings by class id, then the matched term cut to a line's width as a reminder:
// "1. e12  ?x=e1 ?y=e5  (add I1 (transpose I2 perm=[1,0]))".
std::string match_listing(const EGraph& eg, const Rule& rule, const std::vector<Match>& matches,
                          size_t max_lines = 100);

// `apply RULE N`: searches the (clean) e-graph, applies match N (1-based, as listed), rebuilds
// and advances the trace's iteration. Throws Error when there is no match N.
ApplyResult apply_match_number(EGraph& eg, const Rule& rule, size_t number, Rng& rng,
                               RewriteTrace& trace);

}  // namespace retort
