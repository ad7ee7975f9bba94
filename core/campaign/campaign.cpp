#include "core/campaign/campaign.h"

#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace retort {

void CampaignStats::add(const CaseOutcome& c) {
  ++cases;
  if (!c.record.error.empty()) ++errors;
  seen += c.record.findings;
  gen_ms += c.record.gen_ms;
  saturate_ms += c.record.saturate_ms;
  extract_ms += c.record.extract_ms;
  compare_ms += c.record.compare_ms;
  for (const FindingRecord& f : c.findings) {
    signatures.insert(f.signature.key());
    ++by_kind[fmt::format("{} {}", f.signature.verdict, f.backend_a)];
    last_finding = f.signature.str();
  }
}

double CampaignStats::cases_per_second() const {
  return seconds > 0 ? cases / seconds : 0;
}

std::string findings_count_text(size_t distinct, uint64_t seen) {
  return fmt::format("{} distinct finding{}, seen {} time{}", distinct, distinct == 1 ? "" : "s",
                     seen, seen == 1 ? "" : "s");
}

std::string CampaignStats::line() const {
  std::string s = findings_count_text(signatures.size(), seen);
  if (errors) s += fmt::format("  {} retort errors", errors);
  if (!last_finding.empty()) s += "  last: " + last_finding;
  return s;
}

std::string CampaignStats::stages() const {
  double total = gen_ms + saturate_ms + extract_ms + compare_ms;
  if (cases == 0 || total <= 0) return "no cases yet";
  auto one = [&](const char* name, double ms) {
    return fmt::format("{} {:.2f} ms ({:.0f}%)", name, ms / cases, 100 * ms / total);
  };
  return fmt::format("{}  {}  {}  {}", one("gen", gen_ms), one("saturate", saturate_ms),
                     one("extract", extract_ms), one("compare", compare_ms));
}

CaseIndices::CaseIndices(const CampaignRun& run, std::set<uint64_t> done)
    : start_(run.options.shard + run.options.shards * run.job),
      stride_(run.options.shards * run.jobs),
      limit_(run.options.cases),
      next_(start_),
      done_(std::move(done)) {}

bool CaseIndices::next(uint64_t& index) {
  while (done_.count(next_)) next_ += stride_;
  if (limit_ && next_ >= limit_) return false;
  index = next_;
  next_ += stride_;
  return true;
}

CampaignStats campaign_stats(const FindingsDb& db, int64_t campaign) {
  CampaignStats stats;
  for (const CaseRecord& c : db.cases(campaign)) stats.add({c, {}});
  auto record = db.campaign(campaign);
  for (const FindingRecord& f : db.findings()) {
    if (f.campaign != campaign && (!record || f.last_seen < record->started)) continue;
    stats.signatures.insert(f.signature.key());
    ++stats.by_kind[fmt::format("{} {}", f.signature.verdict, f.backend_a)];
    if (stats.last_finding.empty()) stats.last_finding = f.signature.str();  // newest first
  }
  return stats;
}

CampaignStats run_campaign(FindingsDb& db, const CampaignRun& run,
                           const std::vector<Backend*>& backends) {
  using Clock = std::chrono::steady_clock;
  CaseRunner runner(run.options, backends);
  runner.know(db.findings());
  CaseIndices indices(run, db.done_cases(run.campaign));
  CampaignStats stats;
  auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  uint64_t index = 0;
  while (!(run.cancel && run.cancel->load()) &&
         !(run.options.seconds > 0 && elapsed() >= run.options.seconds) && indices.next(index)) {
    CaseOutcome outcome = runner.run(run.campaign, index);
    db.record_case(outcome.record, outcome.findings);
    if (stats.cases == 0) {
      // The workers have started now, so they know their versions.
      nlohmann::json versions = nlohmann::json::object();
      for (size_t i = 0; i < backends.size(); ++i)
        versions[run.options.backends[i]] = backends[i]->info().version;
      db.set_campaign_backends(run.campaign, versions.dump());
    }
    stats.add(outcome);
    stats.seconds = elapsed();
    if (run.progress) run.progress(stats);
  }
  stats.seconds = elapsed();
  return stats;
}

}  // namespace retort
