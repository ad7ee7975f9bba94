// `findings report N` and `export repro DIR --issue`: a reproducer bundle with issue.md
// (core/compare/repro_issue.h) and graph.svg, the failing outputs marked (commands_compare.cpp).
// The bundle and the issue show only what feeds the outputs the finding's verdict comes from (of
// the review's reduced graphs when the issue has them), compared again; the workbench's log gets
// one line saying where the issue is, the other front ends print it.
#pragma once

#include <optional>
#include <string>

#include "app/commands.h"
#include "core/compare/reduce.h"

namespace retort {

// What an issue knows of a finding besides the last compare: the review's reduced graphs (the
// graph under test, and for a pair the graph it must agree with), which it shows instead of the
// compare's, and the second opinion stored with the finding.
struct IssueSource {
  std::optional<ReduceCase> reduced;
  std::string opinion;  // Agreement::str(); empty: the compare's own backends say it
  std::string known;    // the known bug that explains it: "row 35 (...summary...)"; empty: none
};

// write_repro_bundle (commands.h) of finding #n of the last compare, with its issue.
void write_issue_bundle(Session& s, const std::string& dir, size_t n, ReproOptions options,
                        const IssueSource& issue, Output& out);

}  // namespace retort
