// POLYJUICE Fig. 6 for tests: the sample graph add(add(I1, trans(I2)), trans(I3)), and a session
// that rewrites it with the figure's three rules only.
#pragma once

#include <string>

#include "core/io/rtg.h"
#include "core/rules/rule.h"
#include "core/session/session.h"

namespace retort::testing {

inline const char* const kFig6Text =
    "graph fig6\n"
    "input I1 : f32[3,4]\ninput I2 : f32[4,3]\ninput I3 : f32[4,3]\n"
    "t2 = transpose(I2, perm=[1,0])\na = add(I1, t2)\nt3 = transpose(I3, perm=[1,0])\n"
    "out = add(a, t3)\noutput out\n";

inline Graph fig6_graph() {
  return parse_rtg(kFig6Text, "fig6.rtg");
}

// The graph set, the fig6 rule set loaded and the built-in polyjuice set disabled.
inline void load_fig6(Session& s) {
  s.set_graph(fig6_graph());
  s.rules().add_text("fig6", "built-in", std::string(builtin_rules_text("fig6")));
  s.rules().set_enabled("polyjuice", false);
}

}  // namespace retort::testing
