// A finding made again from its record (core/findings): the graphs, program mutations and input
// plan its case ran with, and its compare run again on backends given here. `findings open`,
// `report` and `export` show what this gives; the review (review.h) reads the graphs.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/compare/compare.h"
#include "core/exec/inputs.h"
#include "core/findings/findings_db.h"

namespace retort {

// A finding's graphs: "original" first, then its variants by name. Error naming the finding
// when one does not parse.
std::vector<std::pair<std::string, Graph>> finding_graphs(const FindingRecord& f);

// The input plan the finding's case drew with, from its campaign's options (campaigns from
// before per-case plans, or options that do not read: the standard plan).
InputPlan finding_input_plan(const FindingsDb& db, const FindingRecord& f);

struct FindingReplay {
  std::vector<std::pair<std::string, Graph>> graphs;  // as finding_graphs gives them
  InputPlan plan;
  CompareReport report;  // the compare run again: bug_count() 0 when it does not reproduce
};

// Runs the finding's compare again on `backends` (in the order the finding names them) with
// its inputs seed, plan and mutations; `options` gives the tolerances and progress.
FindingReplay replay_finding(const FindingsDb& db, const FindingRecord& f,
                             const std::vector<Backend*>& backends, CompareOptions options);

// The number (as `export repro --finding` counts, from 1) of the report's failure that is the
// recorded one: the same sides, else the first.
size_t matching_bug(const CompareReport& report, const FindingRecord& f);

}  // namespace retort
