#include "core/campaign/strategy.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/base/suggest.h"

namespace retort {

const std::vector<StrategyDef>& strategies() {
  static const std::vector<StrategyDef> all = {
      {Strategy::polyjuice, "polyjuice",
       "a generated graph, saturated with the rules; min, max, random and intermediate variants "
       "(POLYJUICE)"},
      {Strategy::tensure, "tensure",
       "an einsum drawn by Algorithm 3, and two operand permutations of it; in half the cases "
       "its operands stored sparse on the xla backends (TENSURE)"},
      {Strategy::oatest, "oatest",
       "an optimization pattern from a compiler's tests woven into a seed graph, compared across "
       "the backends' optimization levels (OATest)"},
      {Strategy::hirfuzz, "hirfuzz",
       "a generated graph with pieces collapsed into functions and calls, and a rewrite of its "
       "call chain; or, at constraint level 0, a graph that breaks constraints, run for crashes "
       "(HirFuzz)"},
      {Strategy::torchprobe, "torchprobe",
       "a generated graph whose Python program (torch and xla backends) gets 1-3 of TorchProbe's "
       "mutations: resolve, mutate-recover, functionalize, tcb (TorchProbe)"}};
  return all;
}

const StrategyDef& get_strategy(std::string_view name) {
  std::vector<std::string> names;
  for (const StrategyDef& s : strategies()) {
    if (s.name == name) return s;
    names.push_back(s.name);
  }
  fail_unknown("strategy", name, names);
}

}  // namespace retort
