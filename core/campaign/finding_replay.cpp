#include "core/campaign/finding_replay.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/base/error.h"
#include "core/campaign/campaign_options.h"
#include "core/io/json_reader.h"
#include "core/io/rtg.h"

namespace retort {

std::vector<std::pair<std::string, Graph>> finding_graphs(const FindingRecord& f) {
  std::vector<std::pair<std::string, Graph>> out;
  out.emplace_back("original", parse_rtg(f.original, fmt::format("finding #{}", f.id)));
  auto variants = parse_json_or_discarded(f.variants);
  if (!variants.is_object()) fail("finding #{}: its variants are not readable", f.id);
  for (const auto& [name, text] : variants.items()) {
    if (!text.is_string()) fail("finding #{}: variant {} is not .rtg text", f.id, name);
    out.emplace_back(name,
                     parse_rtg(text.get<std::string>(), fmt::format("finding #{} {}", f.id, name)));
  }
  return out;
}

InputPlan finding_input_plan(const FindingsDb& db, const FindingRecord& f) {
  std::optional<CampaignRecord> c = db.campaign(f.campaign);
  if (!c) return {};
  auto options = parse_json_or_discarded(c->options);
  if (options.is_discarded()) return {};
  return case_input_plan(CampaignOptions::from_json(options), f.case_seed);
}

FindingReplay replay_finding(const FindingsDb& db, const FindingRecord& f,
                             const std::vector<Backend*>& backends, CompareOptions options) {
  if (!f.unreadable.empty()) fail("{}", f.unreadable);
  FindingReplay out{finding_graphs(f), finding_input_plan(db, f), {}};
  std::vector<CompareGraph> graphs;
  for (const auto& [name, g] : out.graphs) graphs.push_back({name, &g});
  options.seed = f.inputs_seed;
  options.runs = 1;
  options.mutations = f.trace.mutations;
  out.report = run_compare(graphs, backends, options, out.plan);
  return out;
}

size_t matching_bug(const CompareReport& report, const FindingRecord& f) {
  for (size_t n = 1; n <= report.bug_count(); ++n) {
    const Finding* b = report.bug(n);
    if (b->backend_a == f.backend_a && b->graph_a == f.graph_a && b->backend_b == f.backend_b &&
        b->graph_b == f.graph_b)
      return n;
  }
  return 1;
}

}  // namespace retort
