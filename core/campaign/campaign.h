// A fuzz campaign: cases one after another (core/campaign/case_runner.h), each recorded in the
// findings database in its own transaction, until the budget is spent or it is cancelled.
// Cancelling ends after the case in flight; nothing recorded is lost.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/backend/backend.h"
#include "core/campaign/campaign_options.h"
#include "core/campaign/case_runner.h"
#include "core/findings/findings_db.h"

namespace retort {

// What a campaign has done so far, for progress displays and the final summary.
struct CampaignStats {
  uint64_t cases = 0;                // run by this invocation
  uint64_t errors = 0;               // cases Retort itself could not finish (record.error)
  uint64_t seen = 0;                 // findings seen: one per case and signature (summed counts)
  std::set<std::string> signatures;  // distinct signatures seen
  std::set<std::string> known;       // those a known bug explains (FindingRecord::known)
  double seconds = 0;                // wall time so far
  double gen_ms = 0, saturate_ms = 0, extract_ms = 0, compare_ms = 0;  // summed over cases
  std::map<std::string, uint64_t> by_kind;  // "mismatch ort:O3" -> findings (one per case)
  std::string last_finding;                 // the signature, for people

  void add(const CaseOutcome& c);
  double cases_per_second() const;
  // findings_count_text, and how many of them known bugs explain when some do: "3 distinct
  // findings (2 of known bugs), seen 57 times".
  std::string counts() const;
  // "3 distinct findings (2 of known bugs), seen 57 times  last: ort reference mismatch at mul
  // (f32)"
  std::string line() const;
  // Milliseconds per case by stage and their shares: "gen 0.4 ms (2%)  saturate ..."
  std::string stages() const;
};

// The one wording of a campaign's counts, in its summary and progress, `findings list` and the
// campaign pane: "3 distinct findings, seen 57 times" (a finding is seen once in every case it
// shows in; its count in the database).
std::string findings_count_text(size_t distinct, uint64_t seen);

struct CampaignRun {
  int64_t campaign = 0;  // its row in the database
  CampaignOptions options;
  // This process runs the cases of its shard whose position in the shard is job mod jobs.
  uint64_t job = 0, jobs = 1;
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(const CampaignStats&)> progress;  // after every case
  // When the cases stop at the latest, whatever options.seconds leaves: `fuzz --time` counts
  // from the command's start, and what it did before the first case (the support probe) is spent.
  std::optional<std::chrono::steady_clock::time_point> deadline{};
};

// The indices a run takes, in order, skipping those in `done`; stops at options.cases, at the
// last index the database can store, and on cancel. Throws Error when shards x jobs (the stride)
// overflows that range.
class CaseIndices {
 public:
  CaseIndices(const CampaignRun& run, std::set<uint64_t> done);
  // False when the budget of cases is spent or the run is cancelled.
  bool next(uint64_t& index);

 private:
  uint64_t stride_ = 0, limit_;
  uint64_t next_ = 0;
  const std::atomic<bool>* cancel_;
  std::set<uint64_t> done_;
};

// The totals of a campaign as recorded in the database (what several jobs did together);
// signatures: those of the findings this campaign recorded or saw again. seconds is left 0.
CampaignStats campaign_stats(const FindingsDb& db, int64_t campaign);

// Runs cases until options.seconds, options.cases or cancel; cases already in the database for
// this campaign are skipped (that is --resume). backends: parallel to options.backends.
CampaignStats run_campaign(FindingsDb& db, const CampaignRun& run,
                           const std::vector<Backend*>& backends);

}  // namespace retort
