// `backend bisect`: on which release of a compiler a finding appeared (or went away). The
// finding's check is run again, with the same graphs, seed, input plan (`inputs --range full`,
// inputs fixed by hand), oracle and tolerances, on releases chosen by binary search between two
// ends that disagree.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/compare/compare.h"

namespace retort {

// Runs the check of `finding` again with its backend (and, for the optimization oracle, the
// baseline) replaced by a and b; true when it fails the same way (a bug verdict of the same
// oracle on the same graphs). `cell` gets a's verdict on the finding's graph.
bool finding_reproduces(const CompareReport& report, const Finding& finding, Backend& a, Backend* b,
                        std::string* cell);

struct BisectOutcome {
  std::string last_same;  // the newest release that behaves like the oldest
  std::string first_changed;
  bool oldest_reproduces = false;  // so first_changed is the first good release
  size_t tested = 0;
};

// Releases oldest first; reproduces(version) is asked of the two ends first and then of the
// middles. Throws Error when both ends behave alike (nothing to bisect).
BisectOutcome bisect_releases(const std::vector<std::string>& releases,
                              const std::function<bool(const std::string&)>& reproduces);

}  // namespace retort
