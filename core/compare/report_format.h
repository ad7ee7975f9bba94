// A CompareReport as plain text (the console and batch output) and as JSON (`compare --json`).
#pragma once

#include <string>

#include "core/compare/compare.h"

namespace retort {

// Findings that are one failure: the same signature (Finding::signature), in order of first
// appearance, bugs and filtered findings apart. A finding without a signature is alone.
struct FindingGroup {
  std::vector<size_t> members;  // indexes into CompareReport::findings, in order
};
std::vector<FindingGroup> group_findings(const CompareReport& report);

// The verdict table (a row per backend, a column per graph), the checks per oracle, the
// findings (bugs first, then the filtered ones) and the notes. Findings are numbered as
// CompareReport::bug numbers them; a group of findings with one signature prints as its first
// finding and a line counting the others, unless every_finding asks for the whole list.
std::string compare_report_text(const CompareReport& report, bool every_finding = false);

// {"backends": [...], "graphs": [...], "seeds": [...], "tolerances": {...},
//  "cells": [{"backend", "graph", "verdict", "message", "millis", "compile_ms"?, "run_ms"?}...],
//  (compile_ms and run_ms when the worker measured them: CompareCell)
//  "checks": {"reference": N, ...}, "findings": [{"oracle", "verdict", "bug", "signature", ...}],
//  "groups": [{"signature", "count", "findings": [index...]}], "notes": []}
std::string compare_report_json(const CompareReport& report);

}  // namespace retort
