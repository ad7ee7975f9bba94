#include "core/campaign/case_runner.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/base/error.h"
#include "core/base/rng.h"
#include "core/campaign/case_salt.h"
#include "core/compare/compare.h"
#include "core/compare/signature.h"
#include "core/egraph/attrs_scope.h"
#include "core/io/json_reader.h"
#include "core/io/rtg.h"
#include "core/rules/trace_json.h"

namespace retort {

namespace {

std::string failing_cells_json(const CompareReport& report) {
  nlohmann::json cells = nlohmann::json::array();
  for (size_t b = 0; b < report.backends.size(); ++b)
    for (size_t g = 0; g < report.graphs.size(); ++g) {
      const CompareCell& c = report.cell(b, g);
      if (c.verdict == Verdict::Pass) continue;
      cells.push_back({{"backend", report.backends[b]},
                       {"graph", report.graphs[g]},
                       {"verdict", std::string(verdict_name(c.verdict))},
                       {"message", c.message}});
    }
  return cells.dump();
}

// A graph's structure without its names: nodes in the order a depth-first walk from the outputs
// reaches them, values and constants renamed in that order (graph inputs keep theirs: a case's
// graphs share them), printed without types (the ops and inputs fix them). Extraction names
// values after e-classes, so two variants that compute the same thing the same way may differ
// only in names; they export to the same model up to names, and one compile and one run test
// both. A graph with functions keeps its text: its calls name values inside bodies.
std::string structural_key(const Graph& g) {
  if (!g.functions.empty() || !g.calls.empty()) return print_rtg(g);
  std::map<std::string, const Node*> producer;
  for (const Node& n : g.nodes)
    for (const std::string& o : n.outputs) producer.emplace(o, &n);
  std::map<std::string, std::string> names;
  for (const ValueInfo& in : g.inputs) names.emplace(in.name, in.name);
  Graph c;
  c.inputs = g.inputs;
  std::set<const Node*> visited;
  auto renamed = [&](const std::string& v) {
    auto it = names.find(v);
    return it == names.end() ? v : it->second;
  };
  std::function<void(const std::string&)> visit = [&](const std::string& v) {
    if (v.empty() || names.count(v)) return;
    if (const Constant* k = g.find_constant(v)) {
      Constant copy = *k;
      copy.name = names[v] = fmt::format("c{}", c.constants.size());
      c.constants.push_back(std::move(copy));
      return;
    }
    auto it = producer.find(v);
    if (it == producer.end() || !visited.insert(it->second).second) return;
    for (const std::string& in : it->second->inputs) visit(in);
    Node copy = *it->second;
    for (std::string& in : copy.inputs) in = renamed(in);
    for (std::string& out : copy.outputs)
      if (!out.empty()) out = names[out] = fmt::format("v{}", names.size());
    c.nodes.push_back(std::move(copy));
  };
  for (const std::string& o : g.outputs) visit(o);
  for (const Node& n : g.nodes)
    for (const std::string& o : n.outputs) visit(o);
  for (const std::string& o : g.outputs) c.outputs.push_back(renamed(o));
  return print_rtg(c, {.show_types = false, .max_literal_elements = -1});
}

}  // namespace

CaseRunner::CaseRunner(const CampaignOptions& options, std::vector<Backend*> backends)
    : options_(options), backends_(std::move(backends)) {
  if (backends_.size() != options_.backends.size() || backends_.empty())
    fail("a campaign needs its backends (--backends)");
  // A strategy named twice takes two turns with one state (one seed pool, one relaxation).
  std::map<std::string, StrategyRun*> started;
  for (const std::string& name : options_.strategies) {
    StrategyRun*& run = started[name];
    if (!run) run = runs_.emplace_back(get_strategy(name).start(options_)).get();
    turns_.push_back(run);
  }
}

CaseOutcome CaseRunner::run(int64_t campaign, uint64_t index) {
  // The attribute sets only this case makes are freed with it (its outcome is text and counts).
  AttrsScope scope;
  CaseOutcome out;
  CaseRecord& rec = out.record;
  rec.campaign = campaign;
  rec.index = index;
  rec.seed = case_seed(options_.seed, index);
  StrategyRun& strategy = *turns_[index % turns_.size()];

  try {
    auto t = CaseClock::now();
    CasePrograms programs = strategy.draw(rec.seed);
    rec.nodes = programs.graphs.front().graph.op_count();
    rec.gen_ms = ms_since(t);
    strategy.vary(programs, rec);
    if (!programs.relaxed) {
      std::vector<ProgramMutation> forms = case_forms(options_, rec.seed);
      programs.mutations.insert(programs.mutations.end(), forms.begin(), forms.end());
    }
    if (programs.relaxed)
      run_for_crashes(programs, out);
    else
      compare(programs, out);
    strategy.learn(programs, out.findings, found_new(out));
  } catch (const Error& e) {
    rec.error = e.what();
  }
  return out;
}

double CaseRunner::relax_p() const {
  for (const auto& run : runs_)
    if (std::optional<double> p = run->gauge("relax_p")) return *p;
  return options_.relax_p;
}

void CaseRunner::know(const std::vector<FindingRecord>& findings) {
  for (const FindingRecord& f : findings) {
    known_keys_.insert(f.signature.key());
    if (f.signature.text.empty()) continue;
    FailureSignature group = f.signature;
    group.text.clear();
    // The text a class is known by: the message of the finding's own failing cell.
    nlohmann::json cells = parse_json_or_discarded(f.verdicts);
    if (!cells.is_array()) continue;
    for (const auto& c : cells)
      if (c.value("backend", "") == f.backend_a && c.value("graph", "") == f.graph_a) {
        texts_.add(group.key(), f.signature.text, c.value("message", ""));
        break;
      }
  }
}

// Whether the case found a signature not seen before in this campaign (or its database).
bool CaseRunner::found_new(const CaseOutcome& out) {
  bool fresh = false;
  for (const FindingRecord& f : out.findings) fresh |= known_keys_.insert(f.signature.key()).second;
  return fresh;
}

// A failed run's text class: similar texts (at least 90%) are one bug, HirFuzz's dedup.
void CaseRunner::classify_text(FailureSignature& sig, const std::string& text) {
  sig.text.clear();
  sig.text = texts_.classify(sig.key(), text);
}

// What every finding of the case shares, filled once: each failure adds what is its own.
FindingRecord CaseRunner::case_finding(const CasePrograms& programs, const CaseRecord& rec,
                                       std::string original, std::string variants) const {
  FindingRecord f;
  f.backends = fmt::format("{}", fmt::join(options_.backends, ","));
  f.original = std::move(original);
  f.variants = std::move(variants);
  // How the variants were made: a relaxed graph was made by neither rewrites nor mutations.
  if (!programs.relaxed) f.trace = {trace_to_json(programs.trace).dump(), programs.mutations};
  f.case_seed = rec.seed;
  f.first_seen = f.last_seen = utc_now();
  f.campaign = rec.campaign;
  f.case_index = rec.index;
  return f;
}

// Keeps a failure unless the case has one of its signature already.
void CaseRunner::add_finding(FindingRecord f, CaseOutcome& out) const {
  if (std::any_of(out.findings.begin(), out.findings.end(),
                  [&](const FindingRecord& g) { return g.signature == f.signature; }))
    return;
  ++out.record.findings;
  out.findings.push_back(std::move(f));
}

// The robustness oracle: the relaxed graph on every compiler; a crash is a finding, an error is
// the right answer to a graph that breaks constraints.
void CaseRunner::run_for_crashes(const CasePrograms& programs, CaseOutcome& out) {
  CaseRecord& rec = out.record;
  const RelaxedCase& relaxed = *programs.relaxed;
  rec.graphs = 1;
  auto t = CaseClock::now();
  std::vector<std::optional<RunResult>> results = run_relaxed(relaxed, backends_);
  std::string broken = fmt::format("{}", fmt::join(relaxed.relaxed.broken, "; "));
  std::optional<FindingRecord> shared;
  for (size_t b = 0; b < backends_.size(); ++b) {
    if (!results[b] || results[b]->status != RunStatus::Crash) continue;
    const RunResult& r = *results[b];
    if (!shared)
      shared = case_finding(programs, rec, print_rtg(programs.graphs.front().graph),
                            nlohmann::json{{"relaxed", print_rtg(relaxed.relaxed.graph)}}.dump());
    FindingRecord f = *shared;
    f.signature = {signature_family(options_.backends[b]), "robustness", "crash", "", "", "", ""};
    if (const Node* n = node_named_in(r.message, relaxed.relaxed.graph)) f.signature.op = n->op;
    classify_text(f.signature, r.message + "\n" + r.stderr_tail);
    f.backend_a = options_.backends[b];
    f.graph_a = "relaxed";
    f.verdicts = nlohmann::json::array({{{"backend", f.backend_a},
                                         {"graph", "relaxed"},
                                         {"verdict", "crash"},
                                         {"message", r.message}}})
                     .dump();
    f.diverging = fmt::format("[robustness] {} crashed on a graph that breaks constraints ({}): {}",
                              f.backend_a, broken, r.message);
    add_finding(std::move(f), out);
  }
  rec.compare_ms = ms_since(t);
}

// Compares the distinct graphs on the backends; one finding per distinct failure signature.
void CaseRunner::compare(const CasePrograms& programs, CaseOutcome& out) {
  CaseRecord& rec = out.record;
  // A variant equal to an earlier graph up to names would only repeat its compiles and runs.
  std::set<std::string> seen;
  std::vector<std::string> texts;
  std::vector<CompareGraph> compared;
  nlohmann::json variants = nlohmann::json::object();
  for (const NamedGraph& g : programs.graphs) {
    if (!seen.insert(structural_key(g.graph)).second) continue;
    std::string text = print_rtg(g.graph);
    compared.push_back({g.name, &g.graph});
    if (g.name != "original") variants[g.name] = text;
    texts.push_back(std::move(text));
  }
  rec.graphs = compared.size();

  auto t = CaseClock::now();
  CompareOptions co;
  co.seed = mix_seed(rec.seed, kInputsSalt);
  co.mutations = programs.mutations;
  CompareReport report = run_compare(compared, backends_, co, case_input_plan(options_, rec.seed));
  if (report.bug_count() > 0) {
    SignatureFinder finder(report, backends_, {}, programs.egraph.get());
    FindingRecord shared = case_finding(programs, rec, texts.front(), variants.dump());
    shared.verdicts = failing_cells_json(report);
    for (const Finding& f : report.findings) {
      if (!is_bug(f.verdict)) continue;
      FindingRecord fr = shared;
      fr.signature = finder.of(f);
      if (f.verdict == Verdict::Crash || f.verdict == Verdict::Error)
        classify_text(fr.signature, f.message);
      fr.backend_a = f.backend_a;
      fr.graph_a = f.graph_a;
      fr.backend_b = f.backend_b;
      fr.graph_b = f.graph_b;
      fr.inputs_seed = f.seed;
      fr.diverging = f.str();
      add_finding(std::move(fr), out);
    }
  }
  rec.compare_ms = ms_since(t);
}

}  // namespace retort
