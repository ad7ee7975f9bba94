// The end of a campaign: each new distinct finding is checked against the known bugs, reduced
// and given a second opinion, and the findings whose reduced graphs come down to one root merge
// into one (issue 22: a finding a compiler maintainer would accept).
//
// Second opinion: the finding's graph under test runs, on the inputs of its case, on onnx-ref
// (ONNX's own reference), on every backend the campaign compared, and on the default mode of
// every other installed family; each either agrees with Retort's reference (the reference
// oracle passes), differs, or says nothing (cannot run it, out of time). When onnx-ref differs
// from Retort's reference the finding is "reference disputed": one of the references is wrong,
// and it is not counted as a compiler bug.
//
// Reduction: core/compare/reduce.h, the same failure, bounded in time. The root of a reduced
// graph is its backend family and its failing op: the op whose values go wrong although every
// value upstream of it comes from the reference (ORT's MaxPool length bug reduced under a Split
// error, a Clip error and a Reshape error has the root "ort: max_pool" each time; its ReduceSum
// of i64 after a CumSum has "ort: reduce_sum"). Findings with one root merge into the oldest
// (the others keep their rows and name it).
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/campaign/campaign_options.h"
#include "core/compare/reduce.h"
#include "core/findings/findings_db.h"

namespace retort {

// Who agrees with whom on a finding's case. Retort's reference ("ref") is the yardstick.
struct Agreement {
  std::vector<std::string> agree;   // gave the reference's results (ref first)
  std::vector<std::string> differ;  // did not: a wrong value, an error or a crash
  std::vector<std::string> silent;  // could not run it, or was not asked in time
  bool disputed = false;            // onnx-ref differs from ref

  // "ort:O3 differs from ref, onnx-ref:default and xla:jit, which agree; tvm:O3 silent";
  // with "reference disputed: " before it when the references disagree.
  std::string str() const;
  std::string to_json() const;
  // nullopt for text that is not an Agreement's JSON (a damaged or foreign row).
  static std::optional<Agreement> from_json(const std::string& text);
};

// The backends asked for a second opinion besides a finding's own: onnx-ref, then the default
// mode of each installed family none of `campaign_backends` belongs to (a family that runs in
// another's environment is left out: it is that release again).
std::vector<std::string> opinion_backends(const std::vector<std::string>& campaign_backends);

// The finding's graph under test run on `backends` (ref is added first); stops asking new
// backends after `seconds`. Throws Error when the finding's graphs do not parse.
Agreement second_opinion(const FindingRecord& f, const InputPlan& plan,
                         const std::vector<std::string>& backends, const BackendLookup& lookup,
                         double seconds);

// The root of a finding's reduced case (see above), found with a run or two per node of its
// failing slice; `plan` is the finding's input plan. With no node found so (a cut graph that
// does not run), the ops of the failing slice.
std::string reduced_root(const FindingRecord& f, const ReduceCase& reduced, const InputPlan& plan,
                         const BackendLookup& lookup);

// One of a finding's graphs: the original, or a variant by name; nullopt when it has none.
std::optional<Graph> finding_graph(const FindingRecord& f, const std::string& name);

// The graphs a finding's failing check ran: the graph under test, and for an equivalence
// finding the graph it was compared to (either may be the one its compiler got wrong); empty
// when the finding lacks one.
std::vector<Graph> graphs_under_test(const FindingRecord& f);

// The nodes of g a failure at `op` reads: the nodes of `op` and every node upstream of them; all
// of g's nodes when none has `op` (an error that names no op of the graph).
std::vector<const Node*> failing_slice(const Graph& g, const std::string& op);

// Whether f's failure shows again: its case run once more on its backends.
bool still_fails(const FindingRecord& f, const InputPlan& plan, const BackendLookup& lookup);

// Whether f's failure goes when the values of the nodes `cut` selects come from the reference:
// each of its graphs (the graph under test, and for an equivalence finding the graph it was
// compared to) with those values cut into inputs fed the reference's values on the case's
// inputs, run on its backends, agrees with the reference. Only telling for a finding that
// still_fails: one that no longer fails passes every cut.
using NodeFilter = std::function<bool(const Graph&, const Node&)>;
bool goes_when_fed(const FindingRecord& f, const NodeFilter& cut, const InputPlan& plan,
                   const BackendLookup& lookup);

struct ReviewOptions {
  bool opinion = true, reduce = true;
  double seconds = 120;            // for the whole review; findings left over stay unreviewed
  double finding_seconds = 30;     // per finding at most: reduction's limit, and the opinion's
  std::vector<std::string> extra;  // opinion_backends() of the campaign
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(const std::string&)> progress;  // one line per finding a phase settles
  // Before the k-th (from 1) of the n findings a phase takes, for a "reviewing k/N" display.
  std::function<void(const std::string& phase, size_t k, size_t n)> starting;
};

// What one phase of a review did: its name, its seconds, how many findings it took and settled.
struct ReviewPhase {
  std::string name;
  double seconds = 0;
  size_t taken = 0, settled = 0;
};

struct ReviewStats {
  size_t reviewed = 0, left = 0;  // reviewed now; new findings left for lack of time
  size_t disputed = 0, reduced = 0;
  size_t merged = 0;   // findings merged into another this time
  size_t known = 0;    // found explained by a known bug now (core/campaign/known_bugs.h)
  size_t unasked = 0;  // reviewed, but left without a second opinion for lack of time
  std::vector<ReviewPhase> phases;  // in the order they ran

  // "known bugs 3.1 s (28 taken, 27 settled), roots 0.4 s (1, 0), ..."
  std::string phases_line() const;
};

// Reviews the findings this campaign recorded first that have no review yet and that no known
// bug explains, in phases over all of them, cheapest first, each stopping at the deadline:
//   1. the known-bug check (a finding one explains is labelled so, as a campaign does when it
//      records it);
//   2. with reduction, the roots found before: a finding whose failure goes when a root's ops
//      are fed from the reference takes that root (a run per root);
//   3. with reduction, the rest are reduced, most frequent first, each within its share of the
//      time left (at most finding_seconds), so one slow finding cannot take the others' time;
//      a finding another reduced root explains takes it instead;
//   4. the second opinion of the findings reduced (or found not to fail again), each within its
//      share, asking first the backends whose workers already run;
//   5. with time left, the passes (core/campaign/blame.h) of the findings reviewed and not
//      disputed, then of those found known, on backends whose families declare pass switches.
// Then findings with one root merge. A finding without a review stays for `fuzz --resume`, and
// so does a reviewed one without its second opinion. Backends that the lookup does not know say
// nothing.
ReviewStats review_campaign(FindingsDb& db, int64_t campaign, const CampaignOptions& options,
                            const BackendLookup& lookup, const ReviewOptions& review);

}  // namespace retort
