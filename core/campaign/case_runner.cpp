#include "core/campaign/case_runner.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <set>

#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/base/error.h"
#include "core/base/rng.h"
#include "core/campaign/relaxed_run.h"
#include "core/compare/compare.h"
#include "core/compare/signature.h"
#include "core/egraph/convert.h"
#include "core/egraph/extract.h"
#include "core/gen/einsum_gen.h"
#include "core/gen/functions_gen.h"
#include "core/gen/opt_pattern.h"
#include "core/gen/weave.h"
#include "core/io/rtg.h"
#include "core/rules/runner.h"
#include "core/rules/trace_json.h"

namespace retort {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Seeds of a case's sub-tasks, each from the case seed and a fixed salt.
enum Salt : uint64_t {
  kRewriteSalt = 1,
  kInputsSalt = 2,
  kRandomSalt = 3,
  kEinsumSalt = 4,
  kWeaveSalt = 5,
  kLevelSalt = 6,
  kFunctionSalt = 7,
  kRelaxSalt = 8,
  kProgramSalt = 9,
  kStorageSalt = 10
};

// TENSURE: the share of cases whose einsum operands are stored sparse where a backend can.
constexpr double kSparseShare = 0.5;

// OATest's seed pool: how many woven graphs it keeps, and how often a case draws from it rather
// than generating a fresh seed graph.
constexpr size_t kPoolSize = 64;
constexpr double kPoolShare = 0.5;

std::string failing_cells_json(const CompareReport& report) {
  nlohmann::json cells = nlohmann::json::array();
  for (size_t b = 0; b < report.backends.size(); ++b)
    for (size_t g = 0; g < report.graphs.size(); ++g) {
      const CompareCell& c = report.cell(b, g);
      if (c.verdict == Verdict::pass) continue;
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

std::string mutations_json(const std::vector<ProgramMutation>& mutations) {
  nlohmann::json list = nlohmann::json::array();
  for (const ProgramMutation& m : mutations) list.push_back({{"kind", m.kind}, {"seed", m.seed}});
  return nlohmann::json{{"program_mutations", list}}.dump();
}

std::vector<ProgramMutation> mutations_from_json(const std::string& text) {
  std::vector<ProgramMutation> out;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("program_mutations")) return out;
  for (const auto& m : j.at("program_mutations")) {
    if (!m.is_object() || !m.contains("kind") || !m.at("kind").is_string() || !m.contains("seed") ||
        !m.at("seed").is_number_unsigned())
      fail("a finding's program mutations are not readable");
    out.push_back({m.at("kind").get<std::string>(), m.at("seed").get<uint64_t>()});
  }
  return out;
}

RuleSet campaign_rules(const std::vector<std::string>& names) {
  if (names.empty()) fail("a campaign needs at least one rule set (--rules)");
  std::vector<std::string> builtin = builtin_rule_set_names();
  RuleSet all;
  for (const std::string& n : names)
    all.append(std::find(builtin.begin(), builtin.end(), n) != builtin.end() ? builtin_rules(n)
                                                                             : load_rules_file(n));
  return all;
}

CaseRunner::CaseRunner(const CampaignOptions& options, std::vector<Backend*> backends)
    : options_(options),
      backends_(std::move(backends)),
      rules_(campaign_rules(options.rules)),
      relax_p_(options.relax_p) {
  if (backends_.size() != options_.backends.size() || backends_.empty())
    fail("a campaign needs its backends (--backends)");
  for (const std::string& name : options_.strategies)
    strategies_.push_back(get_strategy(name).kind);
}

CaseOutcome CaseRunner::run(int64_t campaign, uint64_t index) {
  CaseOutcome out;
  CaseRecord& rec = out.record;
  rec.campaign = campaign;
  rec.index = index;
  rec.seed = case_seed(options_.seed, index);
  Strategy strategy = strategies_[index % strategies_.size()];

  try {
    auto t = Clock::now();
    if (strategy == Strategy::hirfuzz) {
      bool level0 = Rng(mix_seed(rec.seed, kLevelSalt)).coin(relax_p_);
      if (level0) {
        Graph valid = generate_graph(options_.gen, rec.seed);
        rec.nodes = valid.op_count();
        rec.gen_ms = ms_since(t);
        run_relaxed(valid, out);
      } else {
        std::vector<NamedGraph> graphs = function_graphs(rec.seed);
        rec.nodes = graphs.front().graph.op_count();
        rec.gen_ms = ms_since(t);
        compare_and_record(graphs, nullptr, RewriteTrace{}, out);
      }
      // The dynamic relaxation: towards the level that found a new bug.
      if (found_new(out))
        relax_p_ = std::clamp(relax_p_ + (level0 ? 1 : -1) * options_.relax_alpha, 0.0, 1.0);
      return out;
    }
    std::vector<NamedGraph> graphs{{"original", first_graph(strategy, rec.seed)}};
    rec.nodes = graphs.front().graph.op_count();
    rec.gen_ms = ms_since(t);

    EGraph eg;
    RewriteTrace trace;
    std::vector<ProgramMutation> mutations;
    if (strategy == Strategy::torchprobe) mutations = program_mutations(rec.seed);
    if (strategy == Strategy::tensure) {
      permute_einsum(graphs, rec);
      mutations = storage_mutations(rec.seed);
    }
    if (strategy == Strategy::polyjuice) saturate_and_extract(graphs, eg, trace, rec);
    // OATest compares the woven graph alone, across the backends and their optimization levels.
    compare_and_record(graphs, strategy == Strategy::polyjuice ? &eg : nullptr, trace, out,
                       mutations);
    if (strategy == Strategy::oatest && out.findings.empty()) keep_seed(graphs.front().graph);
    found_new(out);
  } catch (const Error& e) {
    rec.error = e.what();
  }
  return out;
}

void CaseRunner::know(const std::vector<FindingRecord>& findings) {
  for (const FindingRecord& f : findings) {
    known_keys_.insert(f.signature.key());
    if (f.signature.text.empty()) continue;
    FailureSignature group = f.signature;
    group.text.clear();
    // The text a class is known by: the message of the finding's own failing cell.
    nlohmann::json cells = nlohmann::json::parse(f.verdicts, nullptr, false);
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

// HirFuzz at constraint level 1: the generated graph, the same with 1-3 pieces collapsed into
// functions called once or more, and that with 1-3 rewrites of its call chain. All three compute
// the same; the backends' optimization levels add the "optimized" side of the paper's oracle.
std::vector<NamedGraph> CaseRunner::function_graphs(uint64_t seed) const {
  Rng rng(mix_seed(seed, kFunctionSalt));
  Graph original = generate_graph(options_.gen, seed);
  original.name = "hirfuzz";
  Graph functions =
      with_functions(original, rng, static_cast<int>(rng.uniform_int(1, 3)), /*rewrites=*/0);
  Graph rewritten = with_functions(functions, rng, 0, static_cast<int>(rng.uniform_int(1, 3)));
  return {{"original", std::move(original)},
          {"functions", std::move(functions)},
          {"rewritten", std::move(rewritten)}};
}

// HirFuzz at constraint level 0: a graph with 1-3 constraints broken, run on every compiler (the
// reference cannot run it) for crashes only; rejecting it with an error is the right answer.
void CaseRunner::run_relaxed(const Graph& valid, CaseOutcome& out) {
  CaseRecord& rec = out.record;
  Rng rng(mix_seed(rec.seed, kRelaxSalt));
  rec.graphs = 1;
  auto t = Clock::now();
  RelaxedRun run =
      run_relaxed_graph(valid, rng, static_cast<int>(rng.uniform_int(1, 3)), backends_);
  const RelaxedGraph& relaxed = run.relaxed;
  std::string broken = fmt::format("{}", fmt::join(relaxed.broken, "; "));
  for (size_t b = 0; b < backends_.size(); ++b) {
    if (!run.results[b] || run.results[b]->status != RunStatus::crash) continue;
    const RunResult& r = *run.results[b];
    FindingRecord fr;
    fr.signature = {signature_family(options_.backends[b]), "robustness", "crash", "", "", "", ""};
    if (const Node* n = node_named_in(r.message, relaxed.graph)) fr.signature.op = n->op;
    classify_text(fr.signature, r.message + "\n" + r.stderr_tail);
    if (std::any_of(out.findings.begin(), out.findings.end(),
                    [&](const FindingRecord& f) { return f.signature == fr.signature; }))
      continue;
    ++rec.findings;
    fr.backend_a = options_.backends[b];
    fr.graph_a = "relaxed";
    fr.backends = fmt::format("{}", fmt::join(options_.backends, ","));
    fr.original = print_rtg(valid);
    fr.variants = nlohmann::json{{"relaxed", print_rtg(relaxed.graph)}}.dump();
    fr.trace = "[]";
    fr.case_seed = rec.seed;
    fr.verdicts = nlohmann::json::array({{{"backend", fr.backend_a},
                                          {"graph", "relaxed"},
                                          {"verdict", "crash"},
                                          {"message", r.message}}})
                      .dump();
    fr.diverging =
        fmt::format("[robustness] {} crashed on a graph that breaks constraints ({}): {}",
                    fr.backend_a, broken, r.message);
    fr.first_seen = fr.last_seen = utc_now();
    fr.campaign = rec.campaign;
    fr.case_index = rec.index;
    out.findings.push_back(std::move(fr));
  }
  rec.compare_ms = ms_since(t);
}

// The graph a case starts from: generated (POLYJUICE), an einsum (TENSURE) or woven (OATest).
Graph CaseRunner::first_graph(Strategy strategy, uint64_t seed) const {
  switch (strategy) {
    case Strategy::tensure:
      return drawn_einsum(seed);
    case Strategy::oatest:
      return woven_graph(seed);
    case Strategy::polyjuice:
    case Strategy::torchprobe:  // its programs are mutated, not its graph
    case Strategy::hirfuzz:     // run() makes its graphs
      break;
  }
  return generate_graph(options_.gen, seed);
}

// OATest: a seed graph (from the pool of woven graphs that passed, or generated) with one of the
// built-in patterns woven in at a random point.
Graph CaseRunner::woven_graph(uint64_t seed) const {
  Rng rng(mix_seed(seed, kWeaveSalt));
  Graph base = !seed_pool_.empty() && rng.coin(kPoolShare) ? pick_from(rng, seed_pool_)
                                                           : generate_graph(options_.gen, seed);
  const OptPattern& pattern = pick_from(rng, builtin_opt_patterns());
  Graph woven = weave_pattern(base, pattern, rng);
  woven.name = "oatest_" + pattern.name;
  return woven;
}

// OATest's seed pool: a woven graph that revealed nothing becomes context for later cases (the
// newest kPoolSize, and none that grew past twice the generator's largest graph).
void CaseRunner::keep_seed(const Graph& g) {
  if (g.op_count() > 2 * static_cast<size_t>(options_.gen.max_nodes)) return;
  if (seed_pool_.size() == kPoolSize) seed_pool_.erase(seed_pool_.begin());
  seed_pool_.push_back(g);
}

// TENSURE: an einsum by Algorithm 3 in one of the campaign's numeric dtypes.
Graph CaseRunner::drawn_einsum(uint64_t seed) const {
  Rng rng(mix_seed(seed, kEinsumSalt));
  std::vector<DType> numeric;
  for (DType d : options_.gen.dtypes)
    if (d != DType::boolean) numeric.push_back(d);
  if (numeric.empty()) fail("the tensure strategy needs a numeric dtype (--dtypes)");
  EinsumGenOptions o;
  o.dtype =
      numeric[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(numeric.size()) - 1))];
  return einsum_graph(generate_einsum(o, rng), o.dtype);
}

// TENSURE's commutativity mutation, twice: two variants with the operands in other orders.
void CaseRunner::permute_einsum(std::vector<NamedGraph>& graphs, CaseRecord& rec) const {
  auto t = Clock::now();
  Rng rng(mix_seed(rec.seed, kRandomSalt));
  for (int k = 1; k <= 2; ++k)
    graphs.push_back(
        {fmt::format("permuted_{}", k), permute_einsum_operands(graphs[0].graph, rng)});
  rec.extract_ms = ms_since(t);
}

// POLYJUICE: saturate under the limits, then extract min, max, K random variants and the
// maximal graph after each iteration but the last.
void CaseRunner::saturate_and_extract(std::vector<NamedGraph>& graphs, EGraph& eg,
                                      RewriteTrace& trace, CaseRecord& rec) const {
  auto t = Clock::now();
  GraphMeta meta = add_graph(eg, graphs[0].graph);
  eg.rebuild();
  RunnerOptions ro;
  ro.iter_limit = 1;  // one iteration per run(), so the states between iterations can be seen
  ro.node_limit = options_.node_limit;
  ro.time_limit_seconds = options_.saturate_seconds;
  ro.seed = mix_seed(rec.seed, kRewriteSalt);
  Runner runner(eg, rules_, ro);
  ExtractOptions max_options;
  max_options.mode = ExtractMode::Max;
  max_options.collect_steps = false;
  double extract_ms = 0;
  for (size_t it = 1; it <= options_.iter_limit; ++it) {
    RunReport r = runner.run(trace);
    bool more = r.stop == StopReason::IterationLimit && it < options_.iter_limit;
    if (!more) break;
    if (options_.intermediate) {
      auto te = Clock::now();
      graphs.push_back({fmt::format("max_it{}", it), extract(eg, meta, max_options).graph});
      extract_ms += ms_since(te);
    }
  }
  if (!eg.clean()) eg.rebuild();
  rec.saturate_ms = ms_since(t) - extract_ms;

  t = Clock::now();
  ExtractOptions eo;
  eo.collect_steps = false;
  eo.mode = ExtractMode::Min;
  graphs.push_back({"min", extract(eg, meta, eo).graph});
  graphs.push_back({"max", extract(eg, meta, max_options).graph});
  Rng rng(mix_seed(rec.seed, kRandomSalt));
  eo.mode = ExtractMode::Random;
  for (size_t k = 1; k <= options_.random_variants; ++k) {
    eo.seed = rng.next_u64();
    graphs.push_back({fmt::format("random_{}", k), extract(eg, meta, eo).graph});
  }
  rec.extract_ms = extract_ms + ms_since(t);
}

// TorchProbe: 1-3 program mutations of kinds drawn with repeats, each with its own seed; they
// compose in order.
std::vector<ProgramMutation> CaseRunner::program_mutations(uint64_t seed) const {
  Rng rng(mix_seed(seed, kProgramSalt));
  std::vector<ProgramMutation> mutations(static_cast<size_t>(rng.uniform_int(1, 3)));
  for (ProgramMutation& m : mutations) {
    m.kind = std::string(pick_from(rng, kProgramMutationKinds));
    m.seed = rng.next_u64() >> 1;  // JSON carries it as a signed 64-bit number too
  }
  return mutations;
}

// TENSURE's storage formats: in half the cases, einsum operands stored sparse by the backends
// whose programs can (JAX BCOO); the reference computes the dense result.
std::vector<ProgramMutation> CaseRunner::storage_mutations(uint64_t seed) const {
  Rng rng(mix_seed(seed, kStorageSalt));
  if (!rng.coin(kSparseShare)) return {};
  return {{std::string(kStorageMutationKinds[0]), rng.next_u64() >> 1}};
}

// Compares the distinct graphs on the backends; one finding per distinct failure signature.
void CaseRunner::compare_and_record(const std::vector<NamedGraph>& graphs, const EGraph* eg,
                                    const RewriteTrace& trace, CaseOutcome& out,
                                    const std::vector<ProgramMutation>& mutations) {
  CaseRecord& rec = out.record;
  // A variant equal to an earlier graph up to names would only repeat its compiles and runs.
  std::set<std::string> seen;
  std::vector<std::string> texts;
  std::vector<CompareGraph> compared;
  nlohmann::json variants = nlohmann::json::object();
  for (const NamedGraph& g : graphs) {
    if (!seen.insert(structural_key(g.graph)).second) continue;
    std::string text = print_rtg(g.graph);
    compared.push_back({g.name, &g.graph});
    if (g.name != "original") variants[g.name] = text;
    texts.push_back(std::move(text));
  }
  rec.graphs = compared.size();

  auto t = Clock::now();
  CompareOptions co;
  co.seed = mix_seed(rec.seed, kInputsSalt);
  co.mutations = mutations;
  CompareReport report = run_compare(compared, backends_, co, case_input_plan(options_, rec.seed));
  std::map<std::string, size_t> by_key;
  if (report.bug_count() > 0) {
    SignatureFinder finder(report, backends_, {}, eg);
    std::string now = utc_now(), cells = failing_cells_json(report);
    std::string backends_list;
    for (const auto& b : options_.backends) backends_list += (backends_list.empty() ? "" : ",") + b;
    for (const Finding& f : report.findings) {
      if (!is_bug(f.verdict)) continue;
      FailureSignature sig = finder.of(f);
      if (f.verdict == Verdict::crash || f.verdict == Verdict::error) classify_text(sig, f.message);
      if (by_key.count(sig.key())) continue;
      ++rec.findings;
      by_key[sig.key()] = out.findings.size();
      FindingRecord fr;
      fr.signature = sig;
      fr.backend_a = f.backend_a;
      fr.graph_a = f.graph_a;
      fr.backend_b = f.backend_b;
      fr.graph_b = f.graph_b;
      fr.backends = backends_list;
      fr.original = texts.front();
      fr.variants = variants.dump();
      fr.trace = mutations.empty() ? trace_to_json(trace).dump() : mutations_json(mutations);
      fr.case_seed = rec.seed;
      fr.inputs_seed = f.seed;
      fr.verdicts = cells;
      fr.diverging = f.str();
      fr.first_seen = fr.last_seen = now;
      fr.campaign = out.record.campaign;
      fr.case_index = rec.index;
      out.findings.push_back(std::move(fr));
    }
  }
  rec.compare_ms = ms_since(t);
}

}  // namespace retort
