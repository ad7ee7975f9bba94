// One case of a fuzz campaign: its strategy (core/campaign/strategy.h) makes the programs, the
// case runner does what every strategy shares. It times the case, compares the distinct graphs
// on the backends (or runs a relaxed graph for crashes only), gives each failure its signature,
// tells failed runs (crash, error) apart by the similarity of their texts
// (core/findings/text_clusters.h), and keeps one finding per distinct signature. Then the
// strategy learns from the outcome.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/campaign/campaign_options.h"
#include "core/campaign/strategy.h"
#include "core/findings/findings_db.h"
#include "core/findings/text_clusters.h"

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

  // Findings stored before (a resumed campaign's database): their signatures are not new, and
  // their texts are the known text classes.
  void know(const std::vector<FindingRecord>& findings);
  // HirFuzz's current probability of constraint level 0 (its strategy's gauge "relax_p";
  // options.relax_p in a campaign without it).
  double relax_p() const;

 private:
  void compare(const CasePrograms& programs, CaseOutcome& out);
  void run_for_crashes(const CasePrograms& programs, CaseOutcome& out);
  FindingRecord case_finding(const CasePrograms& programs, const CaseRecord& rec,
                             std::string original, std::string variants) const;
  void add_finding(FindingRecord f, CaseOutcome& out) const;
  void classify_text(FailureSignature& sig, const std::string& text);
  bool found_new(const CaseOutcome& out);

  CampaignOptions options_;
  std::vector<Backend*> backends_;
  // One run per distinct strategy of the campaign, and the one that makes case i: turns_[i % n].
  std::vector<std::unique_ptr<StrategyRun>> runs_;
  std::vector<StrategyRun*> turns_;
  std::set<std::string> known_keys_;  // signatures found so far: what "a new bug" means
  TextClusters texts_;
};

}  // namespace retort
