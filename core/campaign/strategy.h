// The ways a campaign makes the programs of a case (`fuzz --strategy`): one row per technique
// (docs/techniques.md). A campaign with several strategies gives case i to strategies[i % n].
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace retort {

enum class Strategy { polyjuice, tensure, oatest, hirfuzz, torchprobe };

struct StrategyDef {
  Strategy kind;
  std::string name;     // "polyjuice"
  std::string summary;  // for `help fuzz` and docs
};

const std::vector<StrategyDef>& strategies();
// Throws Error listing the strategies when `name` is none of them.
const StrategyDef& get_strategy(std::string_view name);

}  // namespace retort
