#include "core/rules/runner.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

namespace retort {

std::string_view stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::Saturated:
      return "saturated";
    case StopReason::IterationLimit:
      return "iteration limit";
    case StopReason::NodeLimit:
      return "node limit";
    case StopReason::TimeLimit:
      return "time limit";
    case StopReason::Cancelled:
      return "cancelled";
  }
  return "?";
}

namespace {

double now_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// `cap` of the match numbers 0 .. n-1, drawn without replacement, kept in search order, into
// `idx` (its storage reused).
void sample_matches(size_t n, size_t cap, Rng& rng, std::vector<uint32_t>& idx) {
  idx.resize(n);
  for (size_t i = 0; i < n; ++i) idx[i] = static_cast<uint32_t>(i);
  for (size_t i = 0; i < cap; ++i)
    std::swap(idx[i], idx[rng.uniform_int(static_cast<int64_t>(i), static_cast<int64_t>(n) - 1)]);
  idx.resize(cap);
  std::sort(idx.begin(), idx.end());
}

}  // namespace

std::string IterationReport::str() const {
  std::string out = fmt::format("iteration {}:\n", iteration);
  size_t width = 0;
  for (const RuleReport& r : rules) width = std::max(width, r.rule.size());
  for (const RuleReport& r : rules) {
    if (r.matches == 0 && !r.banned) continue;
    out +=
        fmt::format("  {:<{}}  matches {:>6}  applied {:>6}", r.rule, width, r.matches, r.applied);
    if (r.unchanged) out += fmt::format("  unchanged {}", r.unchanged);
    if (r.skipped) out += fmt::format("  skipped {}", r.skipped);
    if (r.rejected) out += fmt::format("  rejected {}", r.rejected);
    if (r.capped) out += fmt::format("  capped {}", r.capped);
    if (r.banned) out += "  banned";
    out += "\n";
  }
  out += fmt::format(
      "  e-nodes {}  e-classes {}  applied {}  rebuild merges {}  time {:.2f} ms "
      "(search {:.2f}, apply {:.2f}, rebuild {:.2f})\n",
      nodes, classes, applied, rebuild_merges,
      1e3 * (search_seconds + apply_seconds + rebuild_seconds), 1e3 * search_seconds,
      1e3 * apply_seconds, 1e3 * rebuild_seconds);
  if (stop) out += fmt::format("  stop: {}\n", stop_reason_name(*stop));
  return out;
}

std::string RunReport::str() const {
  std::string out;
  for (const auto& it : iterations) out += it.str();
  out += fmt::format("stopped: {} after {} iteration(s), {:.3f}s; {} e-nodes, {} e-classes\n",
                     stop_reason_name(stop), iterations.size(), seconds, nodes, classes);
  return out;
}

Runner::Runner(EGraph& eg, const RuleSet& rules, RunnerOptions options)
    : eg_(eg),
      rules_(rules),
      options_(options),
      scheduler_(options.scheduler, rules.rules.size(), options.backoff),
      rng_(options.seed),
      carry_(options.carry ? *options.carry : own_carry_),
      chosen_(rules.rules.size()) {
  // A search resets its list for its rule: lists carried over from another rule set serve too.
  std::vector<MatchList>& found = carry_.found;
  if (found.size() > rules.rules.size())
    found.erase(found.begin() + rules.rules.size(), found.end());
  for (size_t i = found.size(); i < rules.rules.size(); ++i) found.emplace_back(rules.rules[i]);
  carry_.memo.begin(eg, rules);
}

bool Runner::interrupted() const {
  if (options_.cancel && options_.cancel->load(std::memory_order_relaxed)) return true;
  return out_of_time();
}

bool Runner::out_of_time() const {
  return deadline_ != std::chrono::steady_clock::time_point::max() &&
         std::chrono::steady_clock::now() > deadline_;
}

IterationReport Runner::step(RewriteTrace& trace) {
  if (!eg_.clean()) eg_.rebuild();
  IterationReport rep;
  rep.iteration = iteration_;
  dropped_ = false;
  // Records of earlier iterations.
  carry_.memo.look_up_unchanged = carry_.memo.unchanged.size() > 0;

  double t0 = now_seconds();
  SearchOptions so;
  so.cancel = options_.cancel;
  so.deadline = deadline_;
  rep.rules.reserve(rules_.rules.size());
  for (size_t i = 0; i < rules_.rules.size(); ++i) {
    const Rule& rule = rules_.rules[i];
    std::vector<uint32_t>& chosen = chosen_[i];
    chosen.clear();  // a rule not searched now applies nothing
    RuleReport rr;
    rr.rule = rule.name;
    if (interrupted()) {
      dropped_ = true;
      rep.rules.push_back(rr);
      continue;
    }
    if (!scheduler_.can_search(i, iteration_)) {
      rr.banned = true;
      rep.rules.push_back(rr);
      continue;
    }
    find_matches(eg_, rule, so, carry_.found[i]);
    size_t n = carry_.found[i].size();
    rr.matches = n;
    if (!scheduler_.accept(i, iteration_, n)) {
      rr.banned = true;
    } else if (rule.cap >= 0 && n > static_cast<size_t>(rule.cap)) {
      rr.capped = n - static_cast<size_t>(rule.cap);
      sample_matches(n, static_cast<size_t>(rule.cap), rng_, chosen);
      dropped_ = true;
    } else {
      chosen.resize(n);
      for (size_t k = 0; k < n; ++k) chosen[k] = static_cast<uint32_t>(k);
    }
    rep.rules.push_back(rr);
  }
  double t1 = now_seconds();

  Match m;  // each applied match in turn, its lists' storage reused
  for (size_t i = 0; i < rules_.rules.size(); ++i) {
    RuleReport& rr = rep.rules[i];
    for (uint32_t k : chosen_[i]) {
      if (interrupted() || eg_.node_count() >= options_.node_limit) {
        dropped_ = true;
        break;
      }
      carry_.found[i].get(k, m);
      ApplyResult r = apply_match(eg_, rules_.rules[i], m, rng_, trace, &carry_.memo);
      if (options_.progress_nodes)
        options_.progress_nodes->store(eg_.node_count(), std::memory_order_relaxed);
      switch (r.outcome) {
        case ApplyOutcome::Applied:
          ++rr.applied;
          break;
        case ApplyOutcome::Unchanged:
          ++rr.unchanged;
          break;
        case ApplyOutcome::Skipped:
          ++rr.skipped;
          break;
        case ApplyOutcome::Rejected:
          ++rr.rejected;
          break;
      }
    }
    rep.applied += rr.applied;
  }
  double t2 = now_seconds();
  rep.rebuild_merges = eg_.rebuild();
  double t3 = now_seconds();

  rep.search_seconds = t1 - t0;
  rep.apply_seconds = t2 - t1;
  rep.rebuild_seconds = t3 - t2;
  rep.nodes = eg_.node_count();
  rep.classes = eg_.class_count();
  ++iteration_;
  ++trace.iteration;
  return rep;
}

RunReport Runner::run(RewriteTrace& trace) {
  double start = now_seconds();
  // Limits past ~30 years are no limit (and would overflow the clock's duration).
  if (options_.time_limit_seconds > 0 && options_.time_limit_seconds < 1e9)
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(options_.time_limit_seconds));
  RunReport report;
  std::optional<StopReason> stop;
  size_t first = iteration_;
  while (!stop) {
    if (iteration_ - first >= options_.iter_limit) {
      stop = StopReason::IterationLimit;
      break;
    }
    if (eg_.node_count() >= options_.node_limit) {
      stop = StopReason::NodeLimit;
      break;
    }
    carry_.memo.keep_unchanged = iteration_ + 1 - first < options_.iter_limit;  // not the last one
    IterationReport it = step(trace);
    if (options_.cancel && options_.cancel->load(std::memory_order_relaxed))
      stop = StopReason::Cancelled;
    else if (out_of_time())
      stop = StopReason::TimeLimit;
    else if (eg_.node_count() >= options_.node_limit)
      stop = StopReason::NodeLimit;
    else if (it.applied == 0 && it.rebuild_merges == 0 && !dropped_ &&
             scheduler_.can_stop(iteration_))
      stop = StopReason::Saturated;
    else if (iteration_ - first >= options_.iter_limit)
      stop = StopReason::IterationLimit;
    it.stop = stop;
    report.iterations.push_back(std::move(it));
  }
  deadline_ = std::chrono::steady_clock::time_point::max();
  carry_.memo.keep_unchanged = true;  // for step() alone
  report.stop = *stop;
  report.seconds = now_seconds() - start;
  report.nodes = eg_.node_count();
  report.classes = eg_.class_count();
  return report;
}

std::string match_listing(const EGraph& eg, const Rule& rule, const std::vector<Match>& matches,
                          size_t max_lines) {
  if (matches.empty()) return fmt::format("rule {}: no match\n", rule.name);
  std::string out;
  constexpr size_t kTermChars = 60;
  for (size_t i = 0; i < matches.size() && i < max_lines; ++i) {
    std::string ids = subst_ids_str(rule, matches[i].subst);
    std::string term = match_str(eg, rule, matches[i], 8);
    if (term.size() > kTermChars) term = term.substr(0, kTermChars - 3) + "...";
    out += fmt::format("{:>4}. e{}  {}{}{}\n", i + 1, matches[i].eclass.value, ids,
                       ids.empty() ? "" : "  ", term);
  }
  if (matches.size() > max_lines)
    out += fmt::format("  ... and {} more\n", matches.size() - max_lines);
  return out;
}

ApplyResult apply_match_number(EGraph& eg, const Rule& rule, size_t number, Rng& rng,
                               RewriteTrace& trace) {
  if (!eg.clean()) eg.rebuild();
  std::vector<Match> matches = search(eg, rule);
  if (number == 0 || number > matches.size())
    fail("rule {} has {} match(es); there is no match {}", rule.name, matches.size(), number);
  ApplyResult r = apply_match(eg, rule, matches[number - 1], rng, trace);
  eg.rebuild();
  ++trace.iteration;
  return r;
}

}  // namespace retort
