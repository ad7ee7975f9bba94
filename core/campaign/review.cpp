#include "core/campaign/review.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/backend/family.h"
#include "core/backend/family_env.h"
#include "core/base/error.h"
#include "core/base/words.h"
#include "core/campaign/blame.h"
#include "core/campaign/finding_replay.h"
#include "core/campaign/known_bugs.h"
#include "core/compare/compare.h"
#include "core/compare/inspect.h"
#include "core/io/json_reader.h"
#include "core/io/rtg.h"

namespace retort {

namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kSecondReference = "onnx-ref";

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The outputs on which `backend`'s run in a report differs from the reference's.
std::set<std::string> differing_outputs(const CompareReport& report, const std::string& backend) {
  std::set<std::string> names;
  for (const Finding& f : report.findings)
    if (f.oracle == Oracle::Reference && f.backend_a == backend && is_bug(f.verdict))
      for (const OutputDiff& d : f.outputs)
        if (d.verdict != Verdict::Pass) names.insert(d.expected_name);
  return names;
}

bool is_failure(Verdict v) {
  return v == Verdict::Error || v == Verdict::Crash || v == Verdict::Timeout;
}

// Whether the second reference's run (`second`, in its report) disputes the reference on the
// finding: it gives other values (a run it cannot make says nothing of them), and for a finding
// of the reference oracle, on an output where the accused backend's values differ too. An
// onnx.reference bug on another output of the graph (its GlobalMaxPool shape) is no dispute,
// and a compiler that fails to run the model is accused whatever the references compute.
bool disputes(const FindingRecord& f, const Graph& g, const InputPlan& fixed,
              const CompareReport& second, const std::string& second_name,
              const BackendLookup& lookup) {
  Verdict v = second.cell(0, 0).verdict;
  std::optional<Verdict> accused_verdict = parse_verdict(f.signature.verdict);
  if (!is_bug(v) || is_failure(v) || (accused_verdict && is_failure(*accused_verdict)))
    return false;
  std::set<std::string> theirs = differing_outputs(second, second_name);
  if (f.signature.oracle != oracle_name(Oracle::Reference) || theirs.empty()) return true;
  Backend* accused = nullptr;
  try {
    accused = &lookup(f.backend_a);
  } catch (const Error&) {
    return true;
  }
  CompareReport mine =
      run_compare({{f.graph_a, &g}}, {accused},
                  CompareOptions{.seed = f.inputs_seed, .runs = 1, .tolerances = {}}, fixed);
  std::set<std::string> ours = differing_outputs(mine, f.backend_a);
  return ours.empty() || std::any_of(ours.begin(), ours.end(),
                                     [&](const std::string& o) { return theirs.count(o) > 0; });
}

// Whether the compilers of the opinion, the references and the accused's own family left out,
// side with the reference: at least two agree with it and more agree than differ. Then a second
// reference that differs is the odd one out (onnx.reference's MaxPool gives a third shape where
// ORT's is wrong and inductor, XLA and OpenVINO agree with the reference), not a dispute.
bool compilers_side_with_reference(const Agreement& a, const FindingRecord& f) {
  auto independent = [&](const std::string& name) {
    std::string family = signature_family(name);
    return name != "ref" && family != kSecondReference && family != f.signature.family;
  };
  auto count = [&](const std::vector<std::string>& names) {
    return std::count_if(names.begin(), names.end(), independent);
  };
  auto agreeing = count(a.agree);
  return agreeing >= 2 && agreeing > count(a.differ);
}

// "a", "a and b", "a, b and c".
std::string joined(const std::vector<std::string>& names) {
  if (names.size() < 2) return names.empty() ? "" : names.front();
  return fmt::format("{} and {}", fmt::join(names.begin(), names.end() - 1, ", "), names.back());
}

// Relaxed graphs break constraints on purpose: the reference cannot run them.
bool reviewable(const FindingRecord& f) {
  return f.signature.oracle != "robustness";
}

bool same_family(const std::string& backend, const FamilyDef& f) {
  std::optional<BackendName> name = find_backend_name(backend);
  return name && &environment_family(*name->family) == &environment_family(f);
}

Oracle oracle_named(const std::string& name) {
  for (Oracle o : {Oracle::Equivalence, Oracle::Optimization, Oracle::Reference})
    if (oracle_name(o) == name) return o;
  fail("unknown oracle '{}'", name);
}

}  // namespace

std::optional<Graph> finding_graph(const FindingRecord& f, const std::string& name) {
  for (auto& [graph_name, g] : finding_graphs(f))
    if (graph_name == name) return std::move(g);
  return std::nullopt;
}

std::string Agreement::str() const {
  auto verb = [](const std::vector<std::string>& names, const char* one, const char* many) {
    return names.size() == 1 ? one : many;
  };
  // Who disagrees with whom in one sentence: the ones that differ, then those they differ from.
  std::string text;
  if (differ.empty())
    text = fmt::format("no backend differs on a rerun; {} {}", joined(agree),
                       verb(agree, "agrees", "agree"));
  else if (agree.empty())
    text = fmt::format("{} {}; none agrees", joined(differ), verb(differ, "differs", "differ"));
  else
    text = fmt::format("{} {} from {}{}", joined(differ), verb(differ, "differs", "differ"),
                       joined(agree), agree.size() > 1 ? ", which agree" : "");
  if (!silent.empty()) text += fmt::format("; {} silent", joined(silent));
  return disputed ? "reference disputed: " + text : text;
}

std::string Agreement::to_json() const {
  return nlohmann::json{
      {"agree", agree}, {"differ", differ}, {"silent", silent}, {"disputed", disputed}}
      .dump();
}

std::optional<Agreement> Agreement::from_json(const std::string& text) {
  auto j = parse_json_or_discarded(text);
  if (!j.is_object()) return std::nullopt;
  try {
    return Agreement{j.at("agree").get<std::vector<std::string>>(),
                     j.at("differ").get<std::vector<std::string>>(),
                     j.at("silent").get<std::vector<std::string>>(), j.at("disputed").get<bool>()};
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

std::vector<std::string> opinion_backends(const std::vector<std::string>& campaign_backends) {
  std::vector<std::string> names;
  for (const auto& f : families()) {
    if (!f.environment_of.empty() || default_version(f).empty() || !is_installed(f, "")) continue;
    bool compared = std::any_of(campaign_backends.begin(), campaign_backends.end(),
                                [&](const std::string& b) { return same_family(b, f); });
    if (compared) continue;
    std::string name = BackendName{.family = &f, .mode = f.default_mode}.str();
    // The second reference first: it decides whether the finding is disputed.
    if (f.name == kSecondReference)
      names.insert(names.begin(), name);
    else
      names.push_back(name);
  }
  return names;
}

Agreement second_opinion(const FindingRecord& f, const InputPlan& plan,
                         const std::vector<std::string>& backends, const BackendLookup& lookup,
                         double seconds) {
  std::optional<Graph> original = finding_graph(f, "original");
  std::optional<Graph> under_test = finding_graph(f, f.graph_a);
  if (!under_test) fail("finding #{} has no graph '{}'", f.id, f.graph_a);
  // The case's inputs, drawn from its original as the campaign drew them, fixed for every run.
  InputPlan fixed = plan;
  fixed.fixed = generate_inputs(*original, f.inputs_seed, nullptr, plan);
  Agreement a;
  a.agree = {"ref"};
  auto start = Clock::now();
  for (const auto& name : backends) {
    if (name == "ref") continue;
    if (seconds_since(start) > seconds) {
      a.silent.push_back(name);
      continue;
    }
    Backend* backend = nullptr;
    try {
      backend = &lookup(name);
    } catch (const Error&) {
      a.silent.push_back(name);
      continue;
    }
    CompareReport report =
        run_compare({{f.graph_a, &*under_test}}, {backend},
                    CompareOptions{.seed = f.inputs_seed, .runs = 1, .tolerances = {}}, fixed);
    Verdict v = report.cell(0, 0).verdict;
    if (v == Verdict::Pass || v == Verdict::Undefined || v == Verdict::Precision)
      a.agree.push_back(name);
    else if (is_bug(v))
      a.differ.push_back(name);
    else
      a.silent.push_back(name);
    if (signature_family(name) == kSecondReference)
      a.disputed = disputes(f, *under_test, fixed, report, name, lookup);
  }
  if (a.disputed && compilers_side_with_reference(a, f)) a.disputed = false;
  return a;
}

std::vector<const Node*> failing_slice(const Graph& g, const std::string& op) {
  std::set<std::string> failing;
  for (const Node& n : g.nodes)
    if (n.op == op) failing.insert(n.outputs.begin(), n.outputs.end());
  std::vector<const Node*> slice;
  if (failing.empty()) {
    for (const Node& n : g.nodes) slice.push_back(&n);
    return slice;
  }
  std::set<const Node*> seen;
  for (const std::string& v : values_upstream(g, failing))
    if (const Node* n = g.producer(v); n && seen.insert(n).second) slice.push_back(n);
  return slice;
}

namespace {

// The ops of failing_slice: what the failing value is computed from.
std::set<std::string> ops_upstream_of(const Graph& g, const std::string& op) {
  std::set<std::string> ops;
  for (const Node* n : failing_slice(g, op)) ops.insert(n->op);
  return ops;
}

// The failure of f as the reducer checks it, on inputs drawn by `plan`.
ReduceTarget failure_of(const FindingRecord& f, const InputPlan& plan) {
  // A failed run's text class is the campaign's own numbering; the reducer asks for the rest.
  FailureSignature signature = f.signature;
  signature.text.clear();
  return ReduceTarget{.oracle = oracle_named(f.signature.oracle),
                      .backend_a = f.backend_a,
                      .backend_b = f.backend_b,
                      .signature = signature,
                      .seed = f.inputs_seed,
                      .tolerances = {},
                      .inputs = plan};
}

// f's graph under test and, for an equivalence finding, the graph it had to agree with, as the
// reducer starts from them; nullopt when that graph is missing.
std::optional<ReduceCase> finding_case(const FindingRecord& f) {
  ReduceCase start;
  start.a = *finding_graph(f, f.graph_a);
  if (oracle_named(f.signature.oracle) == Oracle::Equivalence) {
    start.b = finding_graph(f, f.graph_b);
    if (!start.b) return std::nullopt;
    for (const auto& p : pair_by_names(start.a, *start.b)) start.pairs.emplace(p.a, p.b);
  }
  return start;
}

// The finding reduced within `seconds`; nullopt when its failure does not show again.
std::optional<ReduceResult> reduce_finding(const FindingRecord& f, const InputPlan& plan,
                                           const BackendLookup& lookup, double seconds,
                                           const std::atomic<bool>* cancel) {
  std::optional<ReduceCase> start = finding_case(f);
  if (!start) return std::nullopt;
  try {
    return reduce_case(*start, failure_of(f, plan), lookup,
                       {.time_limit_s = seconds, .cancel = cancel, .progress = {}});
  } catch (const Error&) {
    return std::nullopt;  // it does not fail that way again on its own
  }
}

// A root found before: "ort: max_pool" is the family ort and the ops {max_pool}.
struct KnownRoot {
  std::string text, family;
  std::set<std::string> ops;
};

std::optional<KnownRoot> parse_root(const std::string& root) {
  size_t colon = root.find(": ");
  if (colon == std::string::npos) return std::nullopt;
  KnownRoot r{root, root.substr(0, colon), {}};
  std::istringstream ops(root.substr(colon + 2));
  for (std::string op; ops >> op;) r.ops.insert(op);
  if (r.ops.empty()) return std::nullopt;
  return r;
}

// Adds a root (a review's text) to `roots` unless it is there or names no ops.
void add_root(std::vector<KnownRoot>& roots, const std::string& text) {
  std::optional<KnownRoot> root = parse_root(text);
  if (root && std::none_of(roots.begin(), roots.end(),
                           [&](const KnownRoot& k) { return k.text == root->text; }))
    roots.push_back(std::move(*root));
}

// The roots of the reviews so far that are no reference dispute.
std::vector<KnownRoot> known_roots(const std::map<std::string, FindingReview>& reviews) {
  std::vector<KnownRoot> roots;
  for (const auto& [key, r] : reviews)
    if (!r.disputed) add_root(roots, r.root);
  return roots;
}

// How f's failure shows on `graphs` with the values of the nodes `cut` selects fed from the
// reference, on the inputs `inputs.fixed`: each graph alone against the reference (the same
// backends, no pair to agree with). SameFailure when one graph shows it, Passes when all pass.
CheckOutcome outcome_when_fed(const FindingRecord& f, const std::vector<Graph>& graphs,
                              const NodeFilter& cut, const InputPlan& inputs,
                              const BackendLookup& lookup) {
  ReduceTarget target = failure_of(f, inputs);
  if (target.oracle == Oracle::Equivalence) target.backend_b = "ref";
  CheckOutcome outcome = CheckOutcome::Passes;
  for (const Graph& g : graphs) {
    ReduceCase c;
    target.inputs = inputs;
    c.a = fed_from_reference(g, cut, target.inputs.fixed);
    CheckOutcome o = check_case(c, target, lookup);
    if (o == CheckOutcome::SameFailure) return o;
    if (o != CheckOutcome::Passes) outcome = o;
  }
  return outcome;
}

// The nodes of g's failing slice in g's (topological) order: upstream first.
std::vector<const Node*> upstream_first(const Graph& g, const std::string& op) {
  std::vector<const Node*> slice = failing_slice(g, op);
  std::sort(slice.begin(), slice.end());  // g.nodes is one array in topological order
  return slice;
}

// The first named output of a node: what a cut keys it by in each graph of a case.
std::string first_output(const Node& n) {
  for (const std::string& out : n.outputs)
    if (!out.empty()) return out;
  return "";
}

}  // namespace

std::vector<Graph> graphs_under_test(const FindingRecord& f) {
  std::vector<Graph> graphs;
  for (const std::string* name : {&f.graph_a, &f.graph_b}) {
    if (name == &f.graph_b && oracle_named(f.signature.oracle) != Oracle::Equivalence) break;
    std::optional<Graph> g = finding_graph(f, *name);
    if (!g) return {};
    graphs.push_back(std::move(*g));
  }
  return graphs;
}

bool goes_when_fed(const FindingRecord& f, const NodeFilter& cut, const InputPlan& plan,
                   const BackendLookup& lookup) {
  std::vector<Graph> graphs = graphs_under_test(f);
  if (graphs.empty()) return false;
  InputPlan inputs = plan;
  inputs.fixed = generate_inputs(*finding_graph(f, "original"), f.inputs_seed, nullptr, plan);
  return outcome_when_fed(f, graphs, cut, inputs, lookup) == CheckOutcome::Passes;
}

std::string reduced_root(const FindingRecord& f, const ReduceCase& reduced, const InputPlan& plan,
                         const BackendLookup& lookup) {
  std::vector<const Node*> slice = upstream_first(reduced.a, f.signature.op);
  std::vector<Graph> graphs{reduced.a};
  if (reduced.b) graphs.push_back(*reduced.b);
  // The reducer's inputs: drawn from the graph it compares against, with the finding's seed.
  InputPlan inputs = plan;
  inputs.fixed = generate_inputs(graphs.back(), f.inputs_seed, nullptr, plan);
  // Feeds the slice from the reference node by node, upstream first: the failing op is the
  // first whose feeding makes the failure go, or the last one when feeding all that is upstream
  // of it leaves it failing (the op computes it wrong from exact values). The nodes are keyed
  // by output name, which an equivalence finding's two graphs share.
  std::set<std::string> fed;
  auto cut = [&](const Graph&, const Node& n) { return fed.count(first_output(n)) > 0; };
  const Node* failing = slice.empty() ? nullptr : slice.back();
  for (size_t k = 0; k + 1 < slice.size(); ++k) {
    fed.insert(first_output(*slice[k]));
    CheckOutcome o = CheckOutcome::Other;
    try {
      o = outcome_when_fed(f, graphs, cut, inputs, lookup);
    } catch (const Error&) {
      // A cut graph that does not run (a graph output made an input) tells nothing.
    }
    if (o == CheckOutcome::SameFailure) continue;
    failing = o == CheckOutcome::Passes ? slice[k] : nullptr;
    break;
  }
  if (failing) return fmt::format("{}: {}", f.signature.family, failing->op);
  return fmt::format("{}: {}", f.signature.family,
                     fmt::join(ops_upstream_of(reduced.a, f.signature.op), " "));
}

bool still_fails(const FindingRecord& f, const InputPlan& plan, const BackendLookup& lookup) {
  std::optional<ReduceCase> start = finding_case(f);
  return start && check_case(*start, failure_of(f, plan), lookup) == CheckOutcome::SameFailure;
}

namespace {

// Whether f's failure goes when the values of the root's ops come from the reference
// (goes_when_fed). The root's ops must all be upstream of the failing op of the graph under
// test, and not that op itself: cutting the failing value away would hide any bug of its op. A
// failure that names no op (an error whose message names no node) has no upstream to judge by:
// it is left to the reduction.
bool explained_by(const FindingRecord& f, const KnownRoot& root, const InputPlan& plan,
                  const BackendLookup& lookup) {
  if (f.signature.op.empty() || root.family != f.signature.family || root.ops.count(f.signature.op))
    return false;
  std::optional<Graph> under_test = finding_graph(f, f.graph_a);
  if (!under_test) return false;
  std::set<std::string> upstream = ops_upstream_of(*under_test, f.signature.op);
  if (!std::includes(upstream.begin(), upstream.end(), root.ops.begin(), root.ops.end()))
    return false;
  return goes_when_fed(
      f, [&](const Graph&, const Node& n) { return root.ops.count(n.op) > 0; }, plan, lookup);
}

// The first known root that explains f (explained_by): a duplicate of that root (ORT's MaxPool
// length bug under another downstream error), found with a run per root instead of a reduction.
// Only for a finding whose failure still shows: one that no longer fails passes every cut.
std::optional<std::string> explaining_root(const FindingRecord& f,
                                           const std::vector<KnownRoot>& roots,
                                           const InputPlan& plan, const BackendLookup& lookup) {
  if (roots.empty() || !still_fails(f, plan, lookup)) return std::nullopt;
  for (const KnownRoot& root : roots) {
    try {
      if (explained_by(f, root, plan, lookup)) return root.text;
    } catch (const Error&) {
      // A cut graph does not run (a graph output the cut made an input): not this root.
    }
  }
  return std::nullopt;
}

// Findings with one root merge into the oldest (the smallest id). A new finding the review left
// without a root (its failure did not show again alone: stale memory, as ORT's Conv of zero
// channels gives NaN in a long-lived worker only) merges into the oldest finding first seen in
// the same case: one case's variants and oracles show one bug unless a root says otherwise
// (seed 7216's case 2846 was five findings).
size_t merge_by_root(FindingsDb& db) {
  std::map<std::string, FindingReview> reviews = db.reviews();
  std::map<std::string, const FindingRecord*> by_key;
  std::vector<FindingRecord> findings = db.findings();
  for (const FindingRecord& f : findings) by_key[f.signature.key()] = &f;
  auto case_of = [](const FindingRecord& f) {
    return fmt::format("{} {} {}", f.campaign, f.case_index, f.signature.family);
  };
  // By root, the oldest finding; by case, the root of its oldest rooted finding, and its oldest
  // new one.
  std::map<std::string, int64_t> oldest, new_in_case;
  std::map<std::string, std::pair<int64_t, std::string>> rooted_in_case;
  auto keep_oldest = [](std::map<std::string, int64_t>& m, const std::string& k, int64_t id) {
    auto [it, fresh] = m.emplace(k, id);
    if (!fresh) it->second = std::min(it->second, id);
  };
  for (const auto& [key, r] : reviews) {
    if (r.disputed || !by_key.count(key)) continue;
    const FindingRecord& f = *by_key[key];
    if (!r.root.empty()) {
      keep_oldest(oldest, r.root, f.id);
      auto [it, fresh] = rooted_in_case.emplace(case_of(f), std::pair{f.id, r.root});
      if (!fresh && f.id < it->second.first) it->second = {f.id, r.root};
    } else if (f.known.empty()) {
      keep_oldest(new_in_case, case_of(f), f.id);
    }
  }
  size_t merged = 0;
  for (auto& [key, r] : reviews) {
    if (r.disputed || !by_key.count(key)) continue;
    const FindingRecord& f = *by_key[key];
    if (r.root.empty() && !f.known.empty()) continue;
    int64_t into = 0;
    if (!r.root.empty()) {
      into = oldest[r.root];
    } else if (auto rooted = rooted_in_case.find(case_of(f)); rooted != rooted_in_case.end()) {
      into = oldest[rooted->second.second];
    } else {
      into = new_in_case[case_of(f)];
    }
    if (into == f.id) into = 0;
    if (into == r.merged_into) continue;
    merged += into != 0 && r.merged_into == 0;
    r.merged_into = into;
    db.set_review(key, r);
  }
  return merged;
}

// Backends as the review runs them: each keeps to the review's deadline (a worker call still
// going then is stopped and the worker killed, as at a campaign's --time), so --review-time
// bounds the review whatever the workers do. The limits are lifted when the review ends.
class DeadlineLookup {
 public:
  DeadlineLookup(const BackendLookup& lookup, Clock::time_point deadline)
      : lookup_(lookup), deadline_(deadline), current_(deadline) {}
  DeadlineLookup(const DeadlineLookup&) = delete;
  DeadlineLookup& operator=(const DeadlineLookup&) = delete;
  ~DeadlineLookup() {
    for (Backend* b : bounded_) b->begin_case(CaseLimits{});
  }

  Backend& operator()(const std::string& name) {
    Backend& b = lookup_(name);
    if (bounded_.insert(&b).second)
      b.begin_case(CaseLimits{.deadline = current_, .timeouts = std::nullopt});
    return b;
  }
  // Runs from now on end by `t` as well (one finding's share of the review); nullopt: by the
  // review's deadline only. Each backend's trouble (case_trouble) starts afresh.
  void narrow(std::optional<Clock::time_point> t) {
    current_ = t ? std::min(*t, deadline_) : deadline_;
    for (Backend* b : bounded_) b->begin_case(CaseLimits{.deadline = current_, .timeouts = {}});
  }
  // The backend without the review's limits set: to ask it its state.
  Backend& peek(const std::string& name) const { return lookup_(name); }
  bool passed() const { return Clock::now() >= deadline_; }
  double seconds_left() const {
    return std::max(0.0, std::chrono::duration<double>(deadline_ - Clock::now()).count());
  }

 private:
  const BackendLookup& lookup_;
  Clock::time_point deadline_, current_;
  std::set<Backend*> bounded_;
};

// One review's state across its phases: the deadline, the findings' input plans, the roots so
// far, and each phase's time.
class Review {
 public:
  Review(FindingsDb& db, const CampaignOptions& options, const BackendLookup& lookup,
         const ReviewOptions& review)
      : db_(db),
        options_(options),
        review_(review),
        bounded_(lookup, Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                            std::chrono::duration<double>(review.seconds))),
        by_name_([this](const std::string& name) -> Backend& { return bounded_(name); }),
        roots_(known_roots(db.reviews())) {}

  ReviewStats& stats() { return stats_; }
  const BackendLookup& lookup() const { return by_name_; }
  const DeadlineLookup& bounded() const { return bounded_; }

  bool stopped() const { return (review_.cancel && review_.cancel->load()) || bounded_.passed(); }

  // Runs `settle` on each finding of `todo` in order until the deadline (or `until`), with the
  // number of findings left to take (itself included). Those it settles (returns true for) leave
  // todo; the rest stay, those it took first. Returns how many it took and did not settle. A
  // phase with nothing to take is not recorded.
  size_t phase(const std::string& name, std::vector<FindingRecord>& todo,
               const std::function<bool(const FindingRecord&, size_t left)>& settle,
               std::optional<Clock::time_point> until = std::nullopt) {
    if (todo.empty()) return 0;
    ReviewPhase p{name, 0, 0, 0};
    auto start = Clock::now();
    std::vector<FindingRecord> kept;
    for (size_t k = 0; k < todo.size(); ++k) {
      if (stopped() || (until && Clock::now() >= *until)) {
        kept.insert(kept.end(), todo.begin() + static_cast<std::ptrdiff_t>(k), todo.end());
        break;
      }
      if (review_.starting) review_.starting(name, k + 1, todo.size());
      ++p.taken;
      if (settle(todo[k], todo.size() - k))
        ++p.settled;
      else
        kept.push_back(std::move(todo[k]));
    }
    todo = std::move(kept);
    p.seconds = seconds_since(start);
    stats_.phases.push_back(p);
    return p.taken - p.settled;
  }

  // Phase 1: the label of the known bug that explains f, stored; empty for none.
  std::string known_label(KnownBugCheck& known, const FindingRecord& f) {
    std::string label = known.explain(f, plan(f));
    if (label.empty()) return label;
    db_.set_known(f.signature.key(), label);
    ++stats_.known;
    say(f, "; known: " + label);
    return label;
  }

  // Phases 2 and 3: whether a root found before explains f; it takes that root then.
  bool takes_root(const FindingRecord& f, const std::vector<KnownRoot>& roots) {
    std::optional<std::string> root = explaining_root(f, roots, plan(f), by_name_);
    if (!root) return false;
    FindingReview r;
    r.root = *root;
    db_.set_review(f.signature.key(), r);
    ++stats_.reviewed;
    say(f, fmt::format("; goes with the values of '{}' fed from the reference", *root));
    return true;
  }

  // Phase 3: f reduced within its share of the time until `until`, with `left` findings
  // (itself included) to share it; a root another reduction found this time is tried first.
  bool reduce(const FindingRecord& f, size_t left, Clock::time_point until) {
    if (!new_roots_.empty() && takes_root(f, new_roots_)) return true;
    double seconds_left = std::chrono::duration<double>(until - Clock::now()).count();
    double share = std::min(review_.finding_seconds, std::max(1.0, seconds_left / left));
    InputPlan p = plan(f);
    FindingReview r;
    std::string line;
    if (auto reduced = reduce_finding(f, p, by_name_, share, review_.cancel)) {
      r.reduced = print_rtg(reduced->smallest.a);
      if (reduced->smallest.b) r.reduced_b = print_rtg(*reduced->smallest.b);
      r.root = reduced_root(f, reduced->smallest, p, by_name_);
      line = fmt::format("; reduced {} -> {} nodes, root {}", reduced->start_nodes,
                         reduced->smallest.nodes(), r.root);
    } else {
      line = "; not reduced (the failure does not show again alone)";
    }
    // A finding the deadline cut short was not fully reduced: it is left for --resume.
    if (bounded_.passed()) return false;
    if (!r.root.empty()) {
      add_root(roots_, r.root);
      add_root(new_roots_, r.root);
      ++stats_.reduced;
    }
    db_.set_review(f.signature.key(), r);
    ++stats_.reviewed;
    say(f, line);
    return true;
  }

  // Phase 4: f's second opinion within its share of the time left, stored with its review.
  // A run still going at the end of the share is stopped (its worker killed) and says nothing,
  // so that one slow backend (onnx.reference on a large graph) cannot take every finding's time;
  // the share is at least kOpinionSeconds, time for a worker to start. A worker whose start a
  // share cut is not started again by this review (it says nothing on the findings after):
  // each try would take a finding's whole share.
  bool ask(const FindingRecord& f, size_t left) {
    constexpr double kOpinionSeconds = 10;
    std::vector<std::string> asked = split_list(f.backends), unstarted;
    asked.insert(asked.end(), review_.extra.begin(), review_.extra.end());
    std::erase_if(asked, [&](const std::string& name) {
      if (!too_slow_.count(name)) return false;
      unstarted.push_back(name);
      return true;
    });
    std::set<std::string> cold;
    for (const std::string& name : asked)
      if (!ready(name)) cold.insert(name);
    double share = std::max(kOpinionSeconds,
                            std::min(review_.finding_seconds, bounded_.seconds_left() / left));
    bounded_.narrow(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(share)));
    Agreement a = second_opinion(f, plan(f), warm_first(asked), by_name_, share);
    silence_cut(a);
    for (const std::string& name : cold)
      if (was_cut(name)) too_slow_.insert(name);
    a.silent.insert(a.silent.end(), unstarted.begin(), unstarted.end());
    bounded_.narrow(std::nullopt);
    if (bounded_.passed()) return false;
    std::map<std::string, FindingReview> reviews = db_.reviews();
    auto it = reviews.find(f.signature.key());
    bool fresh = it == reviews.end();
    FindingReview r = fresh ? FindingReview{} : it->second;
    r.agreement = a.to_json();
    r.disputed = a.disputed;
    stats_.disputed += a.disputed;
    db_.set_review(f.signature.key(), r);
    stats_.reviewed += fresh;
    say(f, ": " + a.str());
    return true;
  }

  const std::vector<KnownRoot>& roots() const { return roots_; }

 private:
  InputPlan plan(const FindingRecord& f) const { return case_input_plan(options_, f.case_seed); }

  // The opinion's backends with those whose workers run already first, each in its order
  // (onnx-ref, which decides a dispute, leads the rest): a worker's start is most of what an
  // opinion costs, so the share of a finding goes to answers before new starts.
  std::vector<std::string> warm_first(std::vector<std::string> names) const {
    std::stable_partition(names.begin(), names.end(), [&](const std::string& name) {
      return signature_family(name) == kSecondReference || ready(name);
    });
    return names;
  }

  // Whether the finding's share cut a run (or the start) of a backend.
  bool was_cut(const std::string& name) const {
    if (name == "ref") return false;
    try {
      return bounded_.peek(name).case_trouble().cut;
    } catch (const Error&) {
      return false;  // not one the lookup knows: it was never asked
    }
  }

  // Whether a backend's worker runs (the reference, in process, always does).
  bool ready(const std::string& name) const {
    if (name == "ref") return true;
    try {
      return bounded_.peek(name).info().state == "ready";
    } catch (const Error&) {
      return false;
    }
  }

  // A backend whose run the finding's share cut gave no answer: it is silent, not differing.
  void silence_cut(Agreement& a) const {
    for (auto* names : {&a.agree, &a.differ})
      std::erase_if(*names, [&](const std::string& name) {
        bool cut = was_cut(name);
        if (cut) a.silent.push_back(name);
        return cut;
      });
  }

  void say(const FindingRecord& f, const std::string& what) const {
    if (review_.progress) review_.progress(fmt::format("#{} {}{}", f.id, f.signature.str(), what));
  }

  FindingsDb& db_;
  const CampaignOptions& options_;
  const ReviewOptions& review_;
  DeadlineLookup bounded_;
  BackendLookup by_name_;
  std::vector<KnownRoot> roots_;      // every root not disputed, for the next findings
  std::vector<KnownRoot> new_roots_;  // those this review's reductions found
  std::set<std::string> too_slow_;    // backends whose worker start a finding's share cut
  ReviewStats stats_;
};

// The review's time left names the passes of the findings it reviewed now, then of those it
// found known (a blame is a dozen compares: it comes after every finding had its review; a known
// bug's pass confirms its label). A search the deadline cuts keeps the passes found so far,
// marked not minimal.
ReviewPhase blame_reviewed(FindingsDb& db, const std::vector<FindingRecord>& reviewed,
                           const BackendLookup& lookup, const DeadlineLookup& bounded,
                           const ReviewOptions& review) {
  ReviewPhase phase{"passes", 0, 0, 0};
  auto start = Clock::now();
  std::map<std::string, FindingReview> reviews = db.reviews();
  std::map<std::string, PassBlame> blames = db.blames();
  for (const FindingRecord& f : reviewed) {
    if ((review.cancel && review.cancel->load()) || bounded.passed()) break;
    auto r = reviews.find(f.signature.key());
    bool known = !f.known.empty();
    if ((!known && (r == reviews.end() || r->second.disputed)) || blames.count(f.signature.key()) ||
        !find_pass_switches(f.backend_a))
      continue;
    ++phase.taken;
    try {
      PassBlame b = blame_finding(db, f, lookup,
                                  {.seconds = bounded.seconds_left(), .cancel = review.cancel});
      db.set_blame(f.signature.key(), b);
      ++phase.settled;
      if (review.progress) review.progress(fmt::format("#{} pass {}", f.id, blame_text(b)));
    } catch (const Error&) {
      // A backend that is not a worker here, or a finding that no longer shows: no pass named.
    }
  }
  phase.seconds = seconds_since(start);
  return phase;
}

// Whether a stored review still wants its second opinion: one the reduction settled (reduced,
// or found not to fail again) before the deadline stopped the opinions. A finding that took a
// root found before needs none: that root's finding had it.
bool wants_opinion(const FindingReview& r) {
  return r.agreement.empty() && (r.root.empty() || !r.reduced.empty());
}

}  // namespace

std::string ReviewStats::phases_line() const {
  std::vector<std::string> parts;
  for (const ReviewPhase& p : phases)
    parts.push_back(
        fmt::format("{} {:.1f} s ({} taken, {} settled)", p.name, p.seconds, p.taken, p.settled));
  return fmt::format("{}", fmt::join(parts, ", "));
}

ReviewStats review_campaign(FindingsDb& db, int64_t campaign, const CampaignOptions& options,
                            const BackendLookup& lookup, const ReviewOptions& review) {
  Review run(db, options, lookup, review);
  ReviewStats& stats = run.stats();
  std::map<std::string, FindingReview> done = db.reviews();
  std::vector<FindingRecord> todo, unasked;
  // A finding a known bug explains was reviewed when it was recorded; one reviewed before but
  // left without its second opinion gets it in phase 4.
  for (FindingRecord& f : db.findings()) {
    if (f.campaign != campaign || !reviewable(f) || !f.known.empty()) continue;
    auto r = done.find(f.signature.key());
    if (r == done.end())
      todo.push_back(std::move(f));
    else if (review.opinion && wants_opinion(r->second))
      unasked.push_back(std::move(f));
  }
  auto most_seen = [](std::vector<FindingRecord>& v) {
    std::stable_sort(v.begin(), v.end(), [](const FindingRecord& a, const FindingRecord& b) {
      return a.count > b.count;
    });
  };
  most_seen(todo);
  most_seen(unasked);
  const size_t total = todo.size();
  // 1. Known bugs (a run or two each): for findings recorded before the check could tell, and
  // roots added since.
  KnownBugCheck known(known_bugs(db), run.lookup());
  std::vector<FindingRecord> found_known;
  size_t checked = run.phase("known bugs", todo, [&](const FindingRecord& f, size_t) {
    std::string label = run.known_label(known, f);
    if (label.empty()) return false;
    found_known.push_back(f);
    found_known.back().known = label;
    return true;
  });
  std::vector<FindingRecord> reviewed = todo;  // each unknown one, for the passes
  if (review.reduce) {
    // 2. The roots of earlier reviews (a run per root).
    std::vector<KnownRoot> roots = run.roots();
    if (!roots.empty())
      run.phase("roots", todo,
                [&](const FindingRecord& f, size_t) { return run.takes_root(f, roots); });
    // 3. Reductions, leaving the opinions a quarter of the time left.
    Clock::time_point until = Clock::now();
    if (!todo.empty()) {
      double share = run.bounded().seconds_left() * (review.opinion ? 0.75 : 1.0);
      until += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(share));
    }
    std::vector<FindingRecord> reducing = todo;
    run.phase(
        "reduction", reducing,
        [&](const FindingRecord& f, size_t left) { return run.reduce(f, left, until); }, until);
    // Those the reduction left stay without a review; the others want their opinion.
    for (const FindingRecord& f : todo)
      if (std::none_of(reducing.begin(), reducing.end(),
                       [&](const FindingRecord& r) { return r.id == f.id; }) &&
          review.opinion && wants_opinion(db.reviews()[f.signature.key()]))
        unasked.push_back(f);
  } else if (review.opinion) {
    unasked.insert(unasked.end(), todo.begin(), todo.end());
  }
  // 4. Second opinions, the most frequent first (those of an earlier review's among them).
  most_seen(unasked);
  if (review.opinion)
    run.phase("second opinion", unasked,
              [&](const FindingRecord& f, size_t left) { return run.ask(f, left); });
  if (!review.opinion && !review.reduce) {
    // Nothing to ask: the review of each finding checked is that no known bug explains it.
    for (size_t k = 0; k < checked; ++k) {
      db.set_review(reviewed[k].signature.key(), FindingReview{});
      ++stats.reviewed;
    }
  }
  std::map<std::string, FindingReview> now = db.reviews();
  size_t settled = 0;
  for (const FindingRecord& f : reviewed) settled += now.count(f.signature.key());
  stats.left = total - stats.known - settled;
  for (const FindingRecord& f : unasked) stats.unasked += now.count(f.signature.key());
  // 5. The passes: the known ones last (a known bug's pass only confirms its label).
  reviewed.insert(reviewed.end(), found_known.begin(), found_known.end());
  ReviewPhase passes = blame_reviewed(db, reviewed, run.lookup(), run.bounded(), review);
  if (passes.taken) stats.phases.push_back(passes);
  stats.merged = merge_by_root(db);
  return stats;
}

}  // namespace retort
