// The rule sets a session has loaded, each rule with an enabled flag. Sets are only ever added
// (never dropped), so every rule a rewrite trace names stays known and the trace can be replayed
// after `rules disable`.
#pragma once

#include <string>
#include <vector>

#include "core/rules/rule.h"

namespace retort {

struct LoadedRuleSet {
  std::string name;    // "polyjuice", or a loaded file's stem
  std::string origin;  // "built-in" or the file path
  size_t first = 0;    // index of its first rule in RuleBook::all()
  size_t count = 0;
  std::string text;  // the rule source it was parsed from (saved in session files)
};

class RuleBook {
 public:
  // Adds a set with every rule enabled; a set name or rule name already loaded is an Error.
  void add(const std::string& name, const std::string& origin, const RuleSet& rules,
           std::string text);
  // Parses rule source text (errors located at `origin`) and adds it as a set.
  const LoadedRuleSet& add_text(const std::string& name, const std::string& origin,
                                std::string text);
  // Loads a rule file; the set is named after the file's stem.
  const LoadedRuleSet& load_file(const std::string& path);

  // NAME is a set name (every rule of it) or a rule name; throws Error naming close matches.
  void set_enabled(const std::string& name, bool enabled);
  bool enabled(size_t rule) const { return enabled_[rule]; }
  const std::vector<bool>& enabled_flags() const { return enabled_; }

  const std::vector<LoadedRuleSet>& sets() const { return sets_; }
  const RuleSet& all() const { return all_; }  // every loaded rule
  RuleSet enabled_rules() const;
  // An enabled or disabled rule by name; throws Error naming close matches.
  const Rule& rule(const std::string& name) const { return all_.get(name); }

 private:
  std::vector<LoadedRuleSet> sets_;
  RuleSet all_;
  std::vector<bool> enabled_;
};

}  // namespace retort
