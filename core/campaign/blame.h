// The guilty pass (issue 41): which of a compiler's own optimization passes a failing check
// needs. The check's compare runs again with the failing backend's passes turned off (its
// family's PassSwitches, core/backend/family.h, sent to a fresh worker in hello): all of them
// first, and a difference that stays then is no switchable pass's (a kernel's, or a pass no
// switch reaches); else delta debugging (Zeller and Hildebrandt's ddmin) narrows the set down
// to passes none of which may be left on. Findings whose differences need the same passes of one
// compiler release are one root candidate (`findings list`).
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "core/compare/compare.h"
#include "core/compare/reduce.h"
#include "core/findings/findings_db.h"

namespace retort {

struct SwitchSearch {
  std::vector<std::string> names{};  // `gone` holds with these off
  bool minimal = true;               // no one of them may be left on; false: stopped before
  size_t asked = 0;                  // distinct sets asked about
};

// ddmin over `names`, for which `gone` holds: a subset for which it holds too and from which no
// single name can be dropped (when minimal), assuming it fails for the empty set. Each distinct
// subset is asked once; `more` is asked before each question, and false stops the search with
// the last subset that held.
SwitchSearch minimal_switches(const std::vector<std::string>& names,
                              const std::function<bool(const std::vector<std::string>&)>& gone,
                              const std::function<bool()>& more = {});

struct BlameOptions {
  double seconds = 600;  // for the whole search; the passes found by then are kept, not minimal
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(const std::string&)> progress{};  // one line per compare run
};

// The passes of failing.backend_a's family that the failing check of `report` needs: the
// check's graphs and backends compare again (the report's seeds, inputs, tolerances and
// mutations), failing.backend_a replaced by a fresh worker of its spec with passes off. Throws
// Error when that backend is no family's worker with pass switches, when its worker does not
// start with its passes off, or when the check passes with every switch on.
PassBlame blame_passes(const CompareReport& report, const Finding& failing,
                       const BackendLookup& lookup, const BlameOptions& options);

// The same for a finding of a database: its compare run again (core/campaign/finding_replay.h)
// on its backends as `lookup` gives them, then the passes of its failing check's backend.
// Throws Error as blame_passes does, and when the finding does not reproduce.
PassBlame blame_finding(const FindingsDb& db, const FindingRecord& f, const BackendLookup& lookup,
                        const BlameOptions& options);

// One line: "MatmulTransposeFusion (turning it off on ort:O3 removes the difference; 9 runs)";
// "none (the difference stays with every switchable pass of ort:O3 off; 1 run)".
std::string blame_text(const PassBlame& b);
// What findings with one root candidate share: the compiler release and the passes
// ("ort: MatmulTransposeFusion", "ort@1.16.3: A + B"); empty for a blame naming no pass.
std::string blame_root(const PassBlame& b);
// Whether every pass of the blame is one its backend's family declares: a blame read from a
// database (a file someone may send) is shown and used only then.
bool declared_blame(const PassBlame& b);

}  // namespace retort
