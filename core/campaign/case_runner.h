// One case of a fuzz campaign, POLYJUICE's loop: generate a graph -> e-graph -> saturate under
// the limits -> extract min, max, K random variants and the maximal graph after each iteration
// but the last -> compare on the backends -> one finding per distinct failure signature.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/campaign/campaign_options.h"
#include "core/findings/findings_db.h"
#include "core/rules/rule.h"

namespace retort {

struct CaseOutcome {
  CaseRecord record;
  std::vector<FindingRecord> findings;  // one per distinct signature, count 1
};

class CaseRunner {
 public:
  // backends: parallel to options.backends; they must outlive the runner.
  CaseRunner(const CampaignOptions& options, std::vector<Backend*> backends);

  // Never throws for what a backend does (that is a finding); an Error of Retort's own after the
  // graph was generated is kept in record.error. Generation errors (bad options) are thrown.
  CaseOutcome run(int64_t campaign, uint64_t index);

 private:
  CampaignOptions options_;
  std::vector<Backend*> backends_;
  RuleSet rules_;
};

// The rule sets named in options.rules (built-in names or .rules files), in order.
RuleSet campaign_rules(const std::vector<std::string>& names);

}  // namespace retort
