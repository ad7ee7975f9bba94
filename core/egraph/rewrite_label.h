// How users read the index of a rewrite-trace step: rewrites are numbered from #1 in the order
// they were applied, as `match` numbers matches from #1. Commands take and print these numbers;
// the trace, trace files and session files keep the index from 0 (docs/egraph.md, "Numbering").
#pragma once

#include <cstdint>
#include <string>

namespace retort {

std::string rewrite_label(uint32_t step);  // "#1" for index 0

}  // namespace retort
