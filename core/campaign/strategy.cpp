#include "core/campaign/strategy.h"

#include "core/base/error.h"
#include "core/base/suggest.h"

namespace retort {

// The strategies, declared one per file in core/campaign/strategies/.
StrategyDef polyjuice_strategy();
StrategyDef tensure_strategy();
StrategyDef oatest_strategy();
StrategyDef hirfuzz_strategy();
StrategyDef torchprobe_strategy();

const std::vector<StrategyDef>& strategies() {
  static const std::vector<StrategyDef> all = {polyjuice_strategy(), tensure_strategy(),
                                               oatest_strategy(), hirfuzz_strategy(),
                                               torchprobe_strategy()};
  return all;
}

const StrategyDef* find_strategy(std::string_view name) {
  for (const StrategyDef& s : strategies())
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<std::string> strategy_names() {
  std::vector<std::string> names;
  for (const StrategyDef& s : strategies()) names.push_back(s.name);
  return names;
}

const StrategyDef& get_strategy(std::string_view name) {
  if (const StrategyDef* s = find_strategy(name)) return *s;
  fail_unknown("strategy", name, strategy_names());
}

std::vector<std::string> default_backends(const std::vector<std::string>& strategies) {
  if (strategies.size() == 1)
    if (const StrategyDef* s = find_strategy(strategies.front()); s && !s->backends.empty())
      return s->backends;
  return CampaignOptions{}.backends;
}

}  // namespace retort
