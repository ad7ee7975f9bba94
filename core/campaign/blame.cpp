#include "core/campaign/blame.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/backend/family.h"
#include "core/backend/worker_backend.h"
#include "core/base/error.h"
#include "core/base/words.h"
#include "core/campaign/finding_replay.h"
#include "core/compare/verdict.h"

namespace retort {

namespace {

// `names` cut into n runs of nearly equal length, in order.
std::vector<std::vector<std::string>> chunks_of(const std::vector<std::string>& names, size_t n) {
  std::vector<std::vector<std::string>> out;
  size_t start = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t end = start + (names.size() - start) / (n - i);
    out.emplace_back(names.begin() + static_cast<ptrdiff_t>(start),
                     names.begin() + static_cast<ptrdiff_t>(end));
    start = end;
  }
  return out;
}

std::vector<std::string> without(const std::vector<std::string>& names,
                                 const std::vector<std::string>& part) {
  std::vector<std::string> out;
  for (const auto& n : names)
    if (std::find(part.begin(), part.end(), n) == part.end()) out.push_back(n);
  return out;
}

// Whether the report still has the failing check: a failure of the same two sides.
bool still_fails(const CompareReport& r, const Finding& failing) {
  return std::any_of(r.findings.begin(), r.findings.end(), [&](const Finding& f) {
    return is_bug(f.verdict) && f.backend_a == failing.backend_a && f.graph_a == failing.graph_a &&
           f.backend_b == failing.backend_b && f.graph_b == failing.graph_b;
  });
}

}  // namespace

SwitchSearch minimal_switches(const std::vector<std::string>& names,
                              const std::function<bool(const std::vector<std::string>&)>& gone,
                              const std::function<bool()>& more) {
  SwitchSearch out;
  out.names = names;
  std::map<std::vector<std::string>, bool> known;
  // nullopt: stopped by `more`.
  auto ask = [&](const std::vector<std::string>& set) -> std::optional<bool> {
    if (auto it = known.find(set); it != known.end()) return it->second;
    if (more && !more()) return std::nullopt;
    ++out.asked;
    return known[set] = gone(set);
  };
  std::vector<std::string>& current = out.names;
  size_t n = 2;
  while (current.size() >= 2) {
    std::vector<std::vector<std::string>> parts = chunks_of(current, n);
    std::optional<std::vector<std::string>> next;
    size_t next_n = 2;
    for (const auto& part : parts) {
      std::optional<bool> g = ask(part);
      if (!g) {
        out.minimal = false;
        return out;
      }
      if (*g) {
        next = part;
        break;
      }
    }
    // With two parts each complement is the other part, asked above.
    for (size_t i = 0; !next && n > 2 && i < parts.size(); ++i) {
      std::vector<std::string> rest = without(current, parts[i]);
      std::optional<bool> g = ask(rest);
      if (!g) {
        out.minimal = false;
        return out;
      }
      if (*g) {
        next = std::move(rest);
        next_n = std::max<size_t>(n - 1, 2);
      }
    }
    if (next) {
      current = std::move(*next);
      n = next_n;
    } else if (n < current.size()) {
      n = std::min(2 * n, current.size());
    } else {
      break;  // every single name is needed
    }
  }
  return out;
}

PassBlame blame_passes(const CompareReport& report, const Finding& failing,
                       const BackendLookup& lookup, const BlameOptions& options) {
  const PassSwitches* switches = find_pass_switches(failing.backend_a);
  auto* worker = switches ? dynamic_cast<WorkerBackend*>(&lookup(failing.backend_a)) : nullptr;
  if (!switches || !worker)
    fail("{} belongs to no family that declares pass switches, so no pass can be named",
         failing.backend_a);
  const BackendSpec& spec = worker->spec();
  if (!spec.unavailable.empty())
    fail("{} cannot run here ({}), so no pass can be named", failing.backend_a, spec.unavailable);
  // The original (the inputs are drawn from it) and the two sides of the check, on the check's
  // backends: the other graphs and backends do not decide it.
  std::vector<CompareGraph> graphs;
  for (size_t i = 0; i < report.graphs.size(); ++i)
    if (i == 0 || report.graphs[i] == failing.graph_a || report.graphs[i] == failing.graph_b)
      graphs.push_back({report.graphs[i], &report.graph_defs[i]});
  std::vector<std::string> rows;
  for (const auto& name : report.backends)
    if (name == failing.backend_a || name == failing.backend_b) rows.push_back(name);
  CompareOptions compare;
  compare.seed = report.seeds.front();
  compare.runs = report.seeds.size();
  compare.tolerances = report.tolerances;
  compare.keep_undefined = !failing.undefined.empty();
  compare.mutations = report.mutations;
  PassBlame out{.backend = failing.backend_a};
  auto gone = [&](const std::vector<std::string>& off) {
    BackendSpec with_off = spec;
    with_off.options[kDisabledPassesOption] = fmt::format("{}", fmt::join(off, ","));
    WorkerBackend fresh(with_off);
    std::vector<Backend*> backends;
    for (const auto& name : rows)
      backends.push_back(name == failing.backend_a ? &fresh : &lookup(name));
    CompareReport again = run_compare(graphs, backends, compare, report.inputs);
    ++out.runs;
    if (fresh.info().version.empty())
      fail("{} did not start with its passes off: {}", failing.backend_a, fresh.info().last_error);
    bool went = !still_fails(again, failing);
    if (options.progress)
      options.progress(fmt::format("{} of {} passes of {} off: the difference {}", off.size(),
                                   switches->names.size(), failing.backend_a,
                                   went ? "goes" : "stays"));
    return went;
  };
  if (gone(switches->names)) {
    auto deadline = std::chrono::steady_clock::now() +
                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(options.seconds));
    SwitchSearch found = minimal_switches(switches->names, gone, [&] {
      return !(options.cancel && options.cancel->load()) &&
             std::chrono::steady_clock::now() < deadline;
    });
    out.passes = std::move(found.names);
    out.minimal = found.minimal;
  }
  out.at = utc_now();
  return out;
}

PassBlame blame_finding(const FindingsDb& db, const FindingRecord& f, const BackendLookup& lookup,
                        const BlameOptions& options) {
  const PassSwitches* switches = find_pass_switches(f.backend_a);
  if (!switches || !dynamic_cast<WorkerBackend*>(&lookup(f.backend_a)))
    fail("{} belongs to no family that declares pass switches, so no pass can be named",
         f.backend_a);
  std::vector<Backend*> backends;
  for (const auto& name : split_list(f.backends)) backends.push_back(&lookup(name));
  FindingReplay replay = replay_finding(db, f, backends, {});
  if (replay.report.bug_count() == 0)
    fail("finding #{} does not reproduce here, so no pass can be named", f.id);
  return blame_passes(replay.report, *replay.report.bug(matching_bug(replay.report, f)), lookup,
                      options);
}

std::string blame_text(const PassBlame& b) {
  std::string runs = fmt::format("{} run{}", b.runs, b.runs == 1 ? "" : "s");
  if (b.passes.empty())
    return fmt::format("none (the difference stays with every switchable pass of {} off; {})",
                       b.backend, runs);
  return fmt::format("{} (turning {} off on {} removes the difference{}; {})",
                     fmt::join(b.passes, " + "), b.passes.size() == 1 ? "it" : "them all",
                     b.backend, b.minimal ? "" : ", but the time ran out before each was tried",
                     runs);
}

std::string blame_root(const PassBlame& b) {
  if (b.passes.empty()) return "";
  return fmt::format("{}: {}", oracle_group(b.backend), fmt::join(b.passes, " + "));
}

bool declared_blame(const PassBlame& b) {
  const PassSwitches* switches = find_pass_switches(b.backend);
  return switches && std::all_of(b.passes.begin(), b.passes.end(), [&](const std::string& p) {
           return std::find(switches->names.begin(), switches->names.end(), p) !=
                  switches->names.end();
         });
}

}  // namespace retort
