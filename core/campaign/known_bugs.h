// The known-bug library: the real bugs of docs/bugs.md that have a reduced graph in samples/bugs
// (declared in samples/bugs/index.json, compiled into Retort), and the roots people add from
// their own findings (`findings known add N`, kept in the findings database). A campaign
// recognises a finding one of them explains when it first records it, so that sixty findings of
// two known bugs read as two lines; and draws their trigger patterns less, so that its budget
// goes to bugs not known yet. docs/campaigns.md, "Known bugs".
//
// "Explained by a known bug K" (KnownBugCheck::explain) means all of:
//   1. the finding's backend is of K's family, at a release and level K names (none named: any);
//   2. a node of its graphs under test (review.h graphs_under_test: for an equivalence finding
//      also the graph it was compared to) that matches K's trigger pattern is in the failing slice
//      (the failing op and every node upstream of it; review.h failing_slice), reads the
//      failing op's value (a reader the compiler merges into it: a difference that shows only
//      where a Cast to f64 takes an f16 op's value is labelled at that op; through ops that only
//      move or negate the value too), or is a node that no value of the failing op reaches (one
//      beside it, whose wrongly shaped buffer the memory plan reuses for the failing op's output);
//   3. K's graph still shows K's verdict on the finding's backend (one run, once per campaign and
//      backend): the bug is live on that release and level;
//   4. the finding's failure shows again, and goes when the values of the matching nodes come
//      from the reference (review.h goes_when_fed): nothing else in the graph makes it. A wrong
//      value that does not show again is explained by a stale K (it leaves its output
//      unwritten): no fresh run can show what its buffer held.
// A graph may hold several known bugs, so that feeding one leaves another's failure (two
// refusals of empty tensors): the finding is then explained by them together when feeding the
// matching nodes of every live bug whose trigger the graph holds (one of them in the failing
// slice) makes it pass; it is labelled with the one at the failing op.

#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/campaign/review.h"
#include "core/findings/findings_db.h"
#include "core/gen/node_pattern.h"

namespace retort {

struct KnownBug {
  std::string label;                  // "row 1" (docs/bugs.md's row), "user 2" (UserRoot id)
  std::string family;                 // "ort"
  std::vector<std::string> releases;  // where it shows ("1.30.0"); empty: every release
  std::vector<std::string> levels;    // the modes it shows at ("O1", "O2", "O3"); empty: all
  std::string graph_name;             // samples/bugs file stem, or "finding #N"
  std::string graph;                  // .rtg text
  std::string verdict;                // what the graph shows (its `# shows:` line): "mismatch"
  std::string summary;                // what goes wrong, one line
  NodePattern trigger;
  // The bug leaves its output unwritten: what a finding of it reads is what the buffer held
  // before, so it may not show again in a fresh run (docs/bugs.md rows 45, 62, 63).
  bool stale = false;

  // Whether a backend of this name ("ort:O3", "ort@1.30.0:O0") is one it shows on: its family,
  // a release and a mode it names (the default release for a name without one).
  bool applies_to(const std::string& backend) const;
};

// The library shipped with Retort, in docs/bugs.md's order. Each graph's `# shows:` line gives
// its verdict; a declaration whose graph is missing or has no such line is an Error.
const std::vector<KnownBug>& shipped_known_bugs();
// A root of a database's as a known bug.
KnownBug user_known_bug(const UserRoot& root);
// The shipped library and the database's own roots.
std::vector<KnownBug> known_bugs(const FindingsDb& db);

// The trigger patterns of the bugs that some of `backends` shows: what a campaign on them draws
// less (GenOptions::avoid), each once.
std::vector<NodePattern> known_triggers(const std::vector<KnownBug>& bugs,
                                        const std::vector<std::string>& backends);

// A user root made from finding f: its reduced graph (else its graph under test), the verdict
// and backend it shows, and the trigger pattern of the node its signature names in that graph
// (pattern_of_node). release: the version its campaign recorded for the backend. Throws Error
// when the finding names no op or its graph holds no node of it.
UserRoot user_root_from(const FindingRecord& f, const std::string& reduced,
                        const std::string& release);

// The known-bug check of one campaign (see above), run on each finding the first time it is
// recorded. The liveness runs are cached per bug and backend.
class KnownBugCheck {
 public:
  KnownBugCheck(std::vector<KnownBug> bugs, BackendLookup lookup);

  // The label of the first known bug that explains f; empty when none does (a new root).
  std::string explain(const FindingRecord& f, const InputPlan& plan);

 private:
  bool live(size_t bug, const std::string& backend);

  std::vector<KnownBug> bugs_;
  BackendLookup lookup_;
  std::map<std::pair<size_t, std::string>, bool> live_;
};

}  // namespace retort
