// An explanation: the chain of rewrites proving two terms equal, read off egg's proof forest.
// Each step turns `from` into `to`; a congruence step (same op, children equal) is followed by
// the steps that prove its children equal, one level deeper.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/egraph/justification.h"

namespace retort {

struct ExplainStep {
  Justification why;
  bool backward = false;  // the rule was used right to left (its RHS instance is `from`)
  int depth = 0;          // 0 for the top-level chain, +1 inside each congruence step
  std::string from;       // s-expressions of the two terms
  std::string to;
};

struct Explanation {
  std::string from, to;  // the two terms being proved equal
  std::vector<ExplainStep> steps;
  bool truncated = false;  // stopped at ExplainOptions::max_steps

  // One line per step, indented by depth:
  //   (add I1 I2)
  //   = (add I2 I1)    by add-comm (step 3)
  std::string str() const;
};

struct ExplainOptions {
  size_t max_steps = 1000;     // steps listed before stopping (congruence can nest deeply)
  size_t max_term_nodes = 64;  // larger terms are abbreviated with "..."
};

}  // namespace retort
