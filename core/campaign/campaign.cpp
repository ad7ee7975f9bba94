#include "core/campaign/campaign.h"

#include <chrono>
#include <limits>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/backend/ref_backend.h"
#include "core/base/error.h"
#include "core/campaign/known_bugs.h"

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
    if (!f.known.empty()) known.insert(f.signature.key());
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

std::string CampaignStats::counts() const {
  std::string s = findings_count_text(signatures.size(), seen);
  if (known.empty()) return s;
  size_t comma = s.find(',');
  return s.insert(comma, fmt::format(" ({} of known bugs)", known.size()));
}

std::string CampaignStats::line() const {
  std::string s = counts();
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

namespace {

// The case indices a database stores: SQLite's integers are int64.
constexpr uint64_t kMaxCaseIndex = std::numeric_limits<int64_t>::max();

}  // namespace

CaseIndices::CaseIndices(const CampaignRun& run, std::set<uint64_t> done)
    : limit_(run.options.cases), cancel_(run.cancel), done_(std::move(done)) {
  const CampaignOptions& o = run.options;
  // validate() and `fuzz` bound shards and jobs; a stride that wraps around would run one index
  // twice and skip the done ones forever.
  if (o.shard >= o.shards || run.job >= run.jobs ||
      __builtin_mul_overflow(o.shards, run.jobs, &stride_) || stride_ > kMaxCaseIndex)
    fail("case indices: shard {}/{} of job {}/{} is beyond the {} indices a database stores",
         o.shard, o.shards, run.job, run.jobs, kMaxCaseIndex);
  next_ = o.shard + o.shards * run.job;  // below stride_
}

bool CaseIndices::next(uint64_t& index) {
  // Below kMaxCaseIndex, next_ + stride_ cannot wrap around.
  for (;;) {
    if (next_ > kMaxCaseIndex || (limit_ && next_ >= limit_)) return false;
    if (!done_.count(next_)) break;
    if (cancel_ && cancel_->load()) return false;
    next_ += stride_;
  }
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
    if (!f.known.empty()) stats.known.insert(f.signature.key());
    ++stats.by_kind[fmt::format("{} {}", f.signature.verdict, f.backend_a)];
    if (stats.last_finding.empty()) stats.last_finding = f.signature.str();  // newest first
  }
  return stats;
}

namespace {

// A worker that timed out is started again once in a case; after a second timeout the case's
// other runs on it are `timeout` at once (one hung model must not cost a timeout per graph).
constexpr int kTimeoutsPerCase = 2;

// Lifts the case limits from the backends when the campaign ends, however it ends: they stay in
// the session for later commands.
class CaseLimitsGuard {
 public:
  explicit CaseLimitsGuard(const std::vector<Backend*>& backends) : backends_(backends) {}
  ~CaseLimitsGuard() {
    for (Backend* b : backends_) b->begin_case({});
  }
  CaseLimitsGuard(const CaseLimitsGuard&) = delete;
  CaseLimitsGuard& operator=(const CaseLimitsGuard&) = delete;

 private:
  const std::vector<Backend*>& backends_;
};

// Each finding's known bug (core/campaign/known_bugs.h), decided the first time its signature
// is recorded in the database and kept for its later sightings.
class KnownLabels {
 public:
  KnownLabels(const FindingsDb& db, const CampaignOptions& options,
              const std::vector<Backend*>& backends)
      : options_(options),
        check_(known_bugs(db), [this, &backends](const std::string& name) -> Backend& {
          for (size_t i = 0; i < options_.backends.size(); ++i)
            if (options_.backends[i] == name) return *backends[i];
          if (name == "ref") return ref_;
          fail("the campaign has no backend '{}'", name);
        }) {
    for (const FindingRecord& f : db.findings()) labels_.emplace(f.signature.key(), f.known);
  }

  void label(std::vector<FindingRecord>& findings) {
    for (FindingRecord& f : findings) {
      auto [it, fresh] = labels_.emplace(f.signature.key(), "");
      if (fresh) it->second = check_.explain(f, case_input_plan(options_, f.case_seed));
      f.known = it->second;
    }
  }

 private:
  const CampaignOptions& options_;
  RefBackend ref_;
  KnownBugCheck check_;
  std::map<std::string, std::string> labels_;  // signature key -> label ("" new)
};

}  // namespace

CampaignStats run_campaign(FindingsDb& db, const CampaignRun& run,
                           const std::vector<Backend*>& backends) {
  using Clock = std::chrono::steady_clock;
  CaseRunner runner(run.options, backends);
  runner.know(db.findings());
  KnownLabels known(db, run.options, backends);
  CaseIndices indices(run, db.done_cases(run.campaign));
  CampaignStats stats;
  auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  CaseLimits limits{.deadline = std::nullopt, .timeouts = kTimeoutsPerCase};
  if (run.options.seconds > 0)
    limits.deadline = start + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(run.options.seconds));
  if (run.deadline)
    limits.deadline = std::min(limits.deadline.value_or(*run.deadline), *run.deadline);
  CaseLimitsGuard guard(backends);
  bool versions_recorded = false;
  uint64_t index = 0;
  while (!(run.cancel && run.cancel->load()) &&
         !(limits.deadline && Clock::now() >= *limits.deadline) && indices.next(index)) {
    for (Backend* b : backends) b->begin_case(limits);
    CaseOutcome outcome = runner.run(run.campaign, index);
    std::vector<std::string> infrastructure;
    std::set<std::string> untested;
    bool cut = false;
    for (size_t i = 0; i < backends.size(); ++i) {
      CaseTrouble trouble = backends[i]->case_trouble();
      cut |= trouble.cut;
      if (trouble.infrastructure.empty()) continue;
      untested.insert(run.options.backends[i]);
      infrastructure.push_back(
          fmt::format("{}: {}", run.options.backends[i], trouble.infrastructure));
    }
    // A case the deadline cut short tested nothing fully: it is left for --resume.
    if (cut) break;
    if (!infrastructure.empty()) {
      // A backend that never started never saw the case's models: what it "failed" is no
      // finding, and the case says why.
      std::erase_if(outcome.findings, [&](const FindingRecord& f) {
        return untested.count(f.backend_a) || untested.count(f.backend_b);
      });
      outcome.record.findings = outcome.findings.size();
      outcome.record.error = fmt::format("infrastructure: {}", fmt::join(infrastructure, "; "));
    }
    known.label(outcome.findings);
    db.record_case(outcome.record, outcome.findings);
    if (!versions_recorded && infrastructure.empty()) {
      // The workers have started now, so they know their versions (and an environment of the
      // user's, `backend use`, says where they ran).
      nlohmann::json versions = nlohmann::json::object();
      for (size_t i = 0; i < backends.size(); ++i) {
        BackendInfo info = backends[i]->info();
        versions[run.options.backends[i]] =
            info.environment.empty() ? info.version : info.version + " in " + info.environment;
      }
      db.set_campaign_backends(run.campaign, versions.dump());
      versions_recorded = true;
    }
    stats.add(outcome);
    stats.seconds = elapsed();
    if (run.progress) run.progress(stats);
  }
  stats.seconds = elapsed();
  return stats;
}

}  // namespace retort
