// The session's e-graph commands and their undo history.
#include <algorithm>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/base/rng.h"
#include "core/egraph/extract.h"
#include "core/rules/ematch.h"
#include "core/session/session.h"

namespace retort {

namespace {

std::unique_ptr<EGraphWork> start_work(const Graph& g) {
  auto w = std::make_unique<EGraphWork>();
  w->start = g;
  w->meta = add_graph(w->eg, w->start);
  w->eg.rebuild();
  return w;
}

Variant extracted_variant(const EGraphWork& w, const ExtractOptions& options) {
  Extraction ex = extract(w.eg, w.meta, options);
  Variant v;
  v.graph = std::move(ex.graph);
  v.ops = ex.op_count;
  v.depth = ex.depth;
  v.steps = std::move(ex.steps);
  for (EClassId out : w.eg.term(w.meta.root).children)
    v.output_terms.push_back(w.eg.term_of(ex.selection.at(w.eg.find(out))));
  v.extraction = options;
  v.trace_length = w.trace.steps.size();
  v.selection = std::move(ex.selection);
  return v;
}

}  // namespace

const EGraphWork& Session::egraph() const {
  if (!work_) fail("no e-graph yet: build one from the current graph with `egraph`");
  return *work_;
}

EGraphWork& Session::work() {
  egraph();
  return *work_;
}

GraphSize Session::original_size() const {
  const Graph& g = egraph().start;
  return {g.op_count(), graph_depth(g)};
}

EGraphCheckpoint Session::checkpoint(const std::string& label) const {
  EGraphCheckpoint c{label, std::nullopt, {}, variants_, program_};
  if (work_) {
    c.start = work_->start;
    c.trace = work_->trace;
  }
  return c;
}

void Session::restore(const EGraphCheckpoint& c) {
  variants_ = c.variants;
  if (program_ != c.program) {
    program_ = c.program;
    topics_.bump(Topic::Program);
  }
  if (!variants_.count(newest_variant_)) newest_variant_.clear();
  topics_.bump(Topic::EGraph);
  topics_.bump(Topic::Variants);
  if (!c.start) {
    work_.reset();
    return;
  }
  auto w = start_work(*c.start);
  replay_trace(w->eg, rules_.all(), c.trace);
  w->trace = c.trace;
  work_ = std::move(w);
}

template <typename F>
decltype(auto) Session::undoable(const std::string& label, F&& change) {
  EGraphCheckpoint before = checkpoint(label);
  try {
    decltype(auto) result = change();
    undo_.push_back(std::move(before));
    redo_.clear();
    topics_.bump(Topic::EGraph);
    topics_.bump(Topic::Variants);
    return result;
  } catch (...) {
    restore(before);
    throw;
  }
}

uint64_t Session::rewrite_seed() const {
  // Forked by the trace's iteration count, so each rewriting command draws a fresh stream and
  // redoing the same command after an undo draws the same one.
  return Rng(seed_).fork(egraph().trace.iteration).next_u64();
}

const EGraphWork& Session::build_egraph() {
  const Graph& g = graph();
  return *undoable("egraph", [&]() -> EGraphWork* {
    work_ = start_work(g);
    // Variants stay (they are graphs), but their e-nodes belong to the old e-graph.
    for (auto& [name, v] : variants_) {
      v.output_terms.clear();
      v.selection.reset();
      v.extraction.reset();
    }
    return work_.get();
  });
}

std::vector<Match> Session::find_matches(const Rule& rule) const {
  return search(egraph().eg, rule);
}

ApplyResult Session::apply(const std::string& rule_name, size_t number, const std::string& label) {
  const Rule& rule = rules_.rule(rule_name);
  EGraphWork& w = work();
  return undoable(label, [&] {
    Rng rng(rewrite_seed());
    return apply_match_number(w.eg, rule, number, rng, w.trace);
  });
}

RunReport Session::run_rules(RunnerOptions options, const std::string& label) {
  EGraphWork& w = work();
  RuleSet enabled = rules_.enabled_rules();
  if (enabled.rules.empty()) fail("no rules are enabled (see `rules list`)");
  options.seed = rewrite_seed();
  options.cancel = &cancel_;
  options.progress_nodes = &progress_nodes_;
  cancel_ = false;
  progress_nodes_ = w.eg.node_count();
  return undoable(label, [&] {
    Runner runner(w.eg, enabled, options);
    return runner.run(w.trace);
  });
}

const std::string& Session::extract_variant(const ExtractOptions& options, std::string name,
                                            const std::string& label) {
  const EGraphWork& w = egraph();
  if (name.empty()) {
    name = std::string(extract_mode_name(options.mode));
    if (options.mode == ExtractMode::Random) {
      size_t k = 1;
      while (variants_.count(fmt::format("random_{}", k))) ++k;
      name = fmt::format("random_{}", k);
    }
  }
  return undoable(label, [&]() -> const std::string& {
    const std::string& made =
        variants_.insert_or_assign(name, extracted_variant(w, options)).first->first;
    newest_variant_ = made;
    return made;
  });
}

void Session::replay_egraph(const Graph& start, const RewriteTrace& trace,
                            const std::vector<Extracted>& variants) {
  std::vector<const Extracted*> order;
  for (const auto& v : variants) {
    if (v.trace_length > trace.steps.size())
      fail("variant '{}' was extracted after trace step {}, but the trace has {} steps", v.name,
           v.trace_length, trace.steps.size());
    order.push_back(&v);
  }
  std::stable_sort(order.begin(), order.end(), [](const Extracted* a, const Extracted* b) {
    return a->trace_length < b->trace_length;
  });
  auto w = start_work(start);
  size_t done = 0;
  auto replay_to = [&](size_t length) {
    replay_trace(w->eg, rules_.all(), trace, done, length);
    w->trace.steps.insert(w->trace.steps.end(),
                          trace.steps.begin() + static_cast<std::ptrdiff_t>(done),
                          trace.steps.begin() + static_cast<std::ptrdiff_t>(length));
    done = length;
  };
  for (const Extracted* v : order) {
    replay_to(v->trace_length);
    variants_.insert_or_assign(v->name, extracted_variant(*w, v->options));
  }
  replay_to(trace.steps.size());
  w->trace.iteration = trace.iteration;
  work_ = std::move(w);
  undo_.clear();
  redo_.clear();
  topics_.bump(Topic::EGraph);
  topics_.bump(Topic::Variants);
}

std::vector<Explanation> Session::explain_variant(const std::string& name) const {
  const Variant& v = variant_info(name);
  if (!v.selection) fail("variant '{}' was not extracted from the e-graph", name);
  const EGraphWork& w = egraph();
  std::vector<Explanation> proofs;
  for (EClassId original : w.eg.term(w.meta.root).children)
    proofs.push_back(w.eg.explain_selection(original, *v.selection));
  return proofs;
}

std::string Session::undo() {
  if (undo_.empty()) fail("nothing to undo");
  EGraphCheckpoint c = std::move(undo_.back());
  undo_.pop_back();
  EGraphCheckpoint now = checkpoint(c.label);
  restore(c);
  redo_.push_back(std::move(now));
  return c.label;
}

std::string Session::redo() {
  if (redo_.empty()) fail("nothing to redo");
  EGraphCheckpoint c = std::move(redo_.back());
  redo_.pop_back();
  EGraphCheckpoint now = checkpoint(c.label);
  restore(c);
  undo_.push_back(std::move(now));
  return c.label;
}

void Session::set_program_mutations(std::vector<ProgramMutation> mutations,
                                    const std::string& label) {
  undoable(label, [&] {
    program_ = std::move(mutations);
    topics_.bump(Topic::Program);
    return true;  // undoable() hands back what the change returns
  });
}

}  // namespace retort
