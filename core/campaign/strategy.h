// The ways a campaign makes the programs of a case (`fuzz --strategy`; docs/techniques.md). A
// strategy declares itself once, in core/campaign/strategies/<name>.cpp: its name and summary,
// the backends a campaign of it alone runs on, the options it owns, how it makes a case's
// programs and what it learns from the outcome. `fuzz` (its options, help and defaults), the
// validation of a campaign's options and the case runner all ask this registry; none keeps its
// own list. A campaign with several strategies gives case i to strategies[i % n].
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend/backend.h"
#include "core/campaign/campaign_options.h"
#include "core/campaign/relaxed_run.h"
#include "core/egraph/egraph.h"
#include "core/findings/findings_db.h"
#include "core/rules/trace.h"

namespace retort {

// The clock a case's times come from (CaseRecord's *_ms): the case runner's and vary()'s.
using CaseClock = std::chrono::steady_clock;
inline double ms_since(CaseClock::time_point start) {
  return std::chrono::duration<double, std::milli>(CaseClock::now() - start).count();
}

struct NamedGraph {
  std::string name;
  Graph graph;
};

// What a strategy makes for one case. The case runner compares the graphs on the backends (or
// runs the relaxed graph for crashes) and records one finding per distinct signature.
struct CasePrograms {
  // The graphs to compare: first the case's own ("original"), then its variants.
  std::vector<NamedGraph> graphs;
  // Asked of the backends that run a generated Python program (core/backend/backend.h); a
  // finding keeps them in place of a rewrite trace, so opening it mutates the program the same
  // way.
  std::vector<ProgramMutation> mutations;
  // The e-graph the variants were extracted from, and the rewrites that grew it: a signature
  // names the rules behind a failing variant, a finding keeps the trace.
  std::unique_ptr<EGraph> egraph;
  RewriteTrace trace;
  // Set: a graph that breaks constraints, run on the compilers for crashes only in place of the
  // comparison (the robustness oracle); graphs hold the valid graph it was made from.
  std::optional<RelaxedCase> relaxed;
};

// A strategy through one campaign: the state it keeps between cases (OATest's seed pool,
// HirFuzz's relaxation). Cases run in index order, so a campaign run again from its seed goes
// through the same states and draws the same cases.
class StrategyRun {
 public:
  virtual ~StrategyRun() = default;
  // The case's generated graphs (from the case seed); the case runner times this as the case's
  // generation and counts the first graph's nodes.
  virtual CasePrograms draw(uint64_t seed) = 0;
  // What the case makes of them: variants, mutations, a relaxed graph; none by default. It
  // times its own work in `rec` (saturate_ms, extract_ms).
  virtual void vary(CasePrograms&, CaseRecord&) {}
  // The case's findings, `fresh` when one of them was new to the campaign; by default the
  // strategy learns nothing from them.
  virtual void learn(const CasePrograms&, const std::vector<FindingRecord>&, bool) {}
  // A number the strategy has learnt so far, by name (HirFuzz's "relax_p"), for whoever reports
  // on a campaign without knowing its strategies' types; none for names it does not keep.
  virtual std::optional<double> gauge(std::string_view) const { return std::nullopt; }
};

// A command-line option of `fuzz` that a strategy owns. Its value is kept in CampaignOptions,
// which a campaign stores, so that --resume continues with it.
struct StrategyOption {
  std::string name;        // "--relax"
  std::string value_name;  // "P"; empty for a flag
  std::string doc;         // for `help fuzz`: "hirfuzz: ..." when others ignore it
  // Sets it from the command line's text (empty for a flag); Error naming the option otherwise.
  std::function<void(CampaignOptions&, std::string_view)> set;
};

struct StrategyDef {
  std::string name;     // "polyjuice"
  std::string summary;  // for `help fuzz` and docs
  // The backends of a campaign of this strategy alone, when --backends does not name them;
  // empty: CampaignOptions's.
  std::vector<std::string> backends;
  std::vector<StrategyOption> options;
  // Its state for a new campaign with these options; Error for options it cannot work with.
  std::function<std::unique_ptr<StrategyRun>(const CampaignOptions&)> start;
};

// Every strategy, in the order `help fuzz` lists them.
const std::vector<StrategyDef>& strategies();
const StrategyDef* find_strategy(std::string_view name);
std::vector<std::string> strategy_names();  // in that order
// Throws Error listing the strategies when `name` is none of them.
const StrategyDef& get_strategy(std::string_view name);
// The backends a new campaign of these strategies runs on when --backends names none: a single
// strategy's own, else CampaignOptions's.
std::vector<std::string> default_backends(const std::vector<std::string>& strategies);

}  // namespace retort
