// A CompareReport as plain text (the console and batch output) and as JSON (`compare --json`).
#pragma once

#include <string>

#include "core/compare/compare.h"

namespace retort {

// The verdict table (a row per backend, a column per graph), the checks per oracle, the
// findings (bugs first, then the filtered ones) and the notes.
std::string compare_report_text(const CompareReport& report);

// {"backends": [...], "graphs": [...], "seeds": [...], "tolerances": {...},
//  "cells": [{"backend", "graph", "verdict", "message", "millis", "compile_ms"?, "run_ms"?}...],
//  (compile_ms and run_ms when the worker measured them: CompareCell)
//  "checks": {"reference": N, ...}, "findings": [{"oracle", "verdict", "bug", ...}], "notes": []}
std::string compare_report_json(const CompareReport& report);

}  // namespace retort
