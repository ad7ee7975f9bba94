#include "core/session/rule_book.h"

#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/base/suggest.h"
#include "core/io/graph_files.h"

namespace retort {

void RuleBook::add(const std::string& name, const std::string& origin, const RuleSet& rules,
                   std::string text) {
  for (const auto& set : sets_)
    if (set.name == name) fail("rule set '{}' is already loaded (from {})", name, set.origin);
  all_.append(rules);
  sets_.push_back({name, origin, enabled_.size(), rules.rules.size(), std::move(text)});
  enabled_.resize(all_.rules.size(), true);
}

const LoadedRuleSet& RuleBook::add_text(const std::string& name, const std::string& origin,
                                        std::string text) {
  RuleSet rules = parse_rules(text, origin);
  add(name, origin, rules, std::move(text));
  return sets_.back();
}

const LoadedRuleSet& RuleBook::load_file(const std::string& path) {
  return add_text(std::filesystem::path(path).stem().string(), path, read_file(path));
}

void RuleBook::set_enabled(const std::string& name, bool enabled) {
  for (const auto& set : sets_) {
    if (set.name != name) continue;
    for (size_t i = 0; i < set.count; ++i) enabled_[set.first + i] = enabled;
    return;
  }
  const Rule* r = all_.find(name);
  if (!r) {
    std::vector<std::string> names;
    for (const auto& set : sets_) names.push_back(set.name);
    for (const auto& rule : all_.rules) names.push_back(rule.name);
    std::string hint = did_you_mean(name, names);
    fail("no rule or rule set named '{}'{}", name, hint.empty() ? " (try `rules`)" : hint);
  }
  enabled_[r - all_.rules.data()] = enabled;
}

RuleSet RuleBook::enabled_rules() const {
  RuleSet on;
  for (size_t i = 0; i < all_.rules.size(); ++i)
    if (enabled_[i]) on.rules.push_back(all_.rules[i]);
  return on;
}

}  // namespace retort
