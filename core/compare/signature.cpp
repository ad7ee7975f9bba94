#include "core/compare/signature.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/compare/inspect.h"
#include "core/exec/inputs.h"
#include "core/graph/graph_dot.h"

namespace retort {

namespace {

std::string escape_field(const std::string& field) {
  std::string out;
  for (char c : field) {
    if (c == '|' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// A finding whose runs finished with outputs that differ, as opposed to a failed run.
bool is_value_verdict(Verdict v) {
  return v == Verdict::Mismatch || v == Verdict::NanInfMismatch ||
         v == Verdict::ShapeDtypeMismatch || v == Verdict::Undefined;
}

// The name quoted right after `prefix` at `pos` in text ('x' or "x"), or empty.
std::string quoted_after(const std::string& text, size_t pos) {
  if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"')) return {};
  size_t end = text.find(text[pos], pos + 1);
  if (end == std::string::npos) return {};
  return text.substr(pos + 1, end - pos - 1);
}

// The pairs whose value in a is one that `outputs` of a are computed from; all when empty.
std::vector<ValuePair> upstream_pairs(std::vector<ValuePair> pairs, const Graph& a,
                                      const std::set<std::string>& outputs) {
  if (outputs.empty()) return pairs;
  std::set<std::string> upstream = values_upstream(a, outputs);
  std::erase_if(pairs, [&](const ValuePair& p) { return !upstream.count(p.a); });
  return pairs;
}

}  // namespace

std::string FailureSignature::key() const {
  std::string key =
      fmt::format("{}|{}|{}|{}|{}|{}", escape_field(family), escape_field(oracle),
                  escape_field(verdict), escape_field(op), escape_field(dtype), escape_field(rule));
  if (!text.empty()) key += "|" + escape_field(text);
  return key;
}

std::optional<FailureSignature> FailureSignature::parse(std::string_view key) {
  std::array<std::string, 7> fields;
  size_t field = 0;
  for (size_t i = 0; i < key.size(); ++i) {
    char c = key[i];
    if (c == '\\') {
      if (i + 1 == key.size() || (key[i + 1] != '|' && key[i + 1] != '\\')) return std::nullopt;
      fields[field] += key[++i];
    } else if (c == '|') {
      if (++field == fields.size()) return std::nullopt;
    } else {
      fields[field] += c;
    }
  }
  // Six fields, or seven with a text class (which is never empty then).
  if (field < 5 || (field == 6 && fields[6].empty())) return std::nullopt;
  return FailureSignature{fields[0], fields[1], fields[2], fields[3],
                          fields[4], fields[5], fields[6]};
}

std::string FailureSignature::str() const {
  std::string out = fmt::format("{} {} {}", family, oracle, verdict);
  if (!op.empty()) out += fmt::format(" at {}", op);
  if (!dtype.empty()) out += fmt::format(" ({})", dtype);
  if (!rule.empty()) out += fmt::format(" via rule {}", rule);
  if (!text.empty()) out += fmt::format(" #{}", text);
  return out;
}

std::string signature_family(const std::string& backend) {
  return backend.substr(0, backend.find_first_of(":@"));
}

const Node* node_named_in(const std::string& message, const Graph& g) {
  for (std::string_view prefix : {"node ", "Node ", "Name:", "name:", "node: "}) {
    for (size_t pos = message.find(prefix); pos != std::string::npos;
         pos = message.find(prefix, pos + 1)) {
      std::string name = quoted_after(message, pos + prefix.size());
      if (name.empty()) continue;
      // A compiler names the exported ONNX node by its name; Retort's own errors name it as
      // boxes do (node_title).
      if (const Node* n = g.find_node(name)) return n;
      if (const Node* n = node_titled(g, name)) return n;
    }
  }
  return nullptr;
}

std::set<std::string> outputs_after_named_node(const std::string& message, const Graph& g) {
  const Node* named = node_named_in(message, g);
  if (!named) return {};
  std::set<std::string> after(named->outputs.begin(), named->outputs.end());
  for (const Node& n : g.nodes)  // in topological order: a reader comes after its operands
    if (std::any_of(n.inputs.begin(), n.inputs.end(),
                    [&](const std::string& in) { return after.count(in) > 0; }))
      after.insert(n.outputs.begin(), n.outputs.end());
  std::set<std::string> outputs;
  for (const std::string& o : g.outputs)
    if (after.count(o)) outputs.insert(o);
  return outputs;
}

SignatureFinder::SignatureFinder(const CompareReport& report, std::vector<Backend*> backends,
                                 InputsFor inputs, const EGraph* egraph)
    : report_(report),
      backends_(std::move(backends)),
      inputs_for_(std::move(inputs)),
      egraph_(egraph) {
  if (backends_.size() != report_.backends.size())
    fail("the signature needs one backend per compare row ({} given for {})", backends_.size(),
         report_.backends.size());
  if (report_.graph_defs.empty()) fail("the compare report holds no graphs");
  if (!inputs_for_) {
    const CompareReport& r = report_;
    inputs_for_ = [&r](uint64_t seed) {
      return generate_inputs(r.graph_defs[0], seed, nullptr, r.inputs);
    };
  }
}

const Graph& SignatureFinder::graph(const std::string& name) const {
  for (size_t g = 0; g < report_.graphs.size(); ++g)
    if (report_.graphs[g] == name) return report_.graph_defs[g];
  fail("the compare report has no graph '{}'", name);
}

Backend* SignatureFinder::backend(const std::string& name) const {
  for (size_t b = 0; b < report_.backends.size(); ++b)
    if (report_.backends[b] == name) return backends_[b];
  return nullptr;
}

const TensorMap& SignatureFinder::inputs(uint64_t seed) {
  auto it = inputs_.find(seed);
  if (it == inputs_.end()) it = inputs_.emplace(seed, inputs_for_(seed)).first;
  return it->second;
}

std::optional<SignatureFinder::Culprit> SignatureFinder::against_reference(
    const std::string& b, const std::string& g, uint64_t seed,
    const std::set<std::string>& outputs) {
  auto key = std::make_tuple(b, g, seed, outputs);
  if (auto it = searched_.find(key); it != searched_.end()) return it->second;
  std::optional<Culprit> found;
  Backend* under_test = backend(b);
  if (under_test && b != "ref") {
    const Graph& graph_def = graph(g);
    InspectResult r =
        run_inspect({fmt::format("{} on {}", g, b), &graph_def, under_test, report_.mutations},
                    {fmt::format("{} on ref", g), &graph_def, &ref_},
                    upstream_pairs(pair_by_names(graph_def, graph_def), graph_def, outputs),
                    inputs(seed), report_.tolerances);
    if (r.diverged)
      found = Culprit{r.op_a, std::string(dtype_name(graph_def.type_of(r.value_a).dtype))};
    else if (r.failure.empty())
      unseen_.insert(key);
  }
  searched_.emplace(key, found);
  return found;
}

namespace {

// How many nodes a fed search feeds before it gives up: a record-time label costs a run or two.
constexpr int kFedRuns = 2;

}  // namespace

std::optional<SignatureFinder::Culprit> SignatureFinder::fed_culprit(
    const std::string& b, const std::string& g, uint64_t seed,
    const std::set<std::string>& outputs) {
  Backend* under_test = backend(b);
  if (!under_test || !unseen_.count(std::make_tuple(b, g, seed, outputs))) return std::nullopt;
  const Graph& graph_def = graph(g);
  std::set<std::string> observed = outputs;
  if (observed.empty()) observed.insert(graph_def.outputs.begin(), graph_def.outputs.end());
  std::vector<ValuePair> pairs;
  for (const std::string& o : observed) pairs.push_back({o, o});
  // Whether b's run of `cut` differs from the reference on the observed outputs alone; nullopt
  // when a run fails.
  auto differs = [&](const Graph& cut, const TensorMap& in) -> std::optional<bool> {
    InspectResult r =
        run_inspect({fmt::format("{} on {}", g, b), &cut, under_test, report_.mutations},
                    {fmt::format("{} on ref", g), &cut, &ref_}, pairs, in, report_.tolerances);
    if (!r.failure.empty()) return std::nullopt;
    return r.diverged;
  };
  if (differs(graph_def, inputs(seed)) != true) return std::nullopt;
  std::set<std::string> upstream = values_upstream(graph_def, observed);
  std::set<std::string> fed;  // the names of the nodes fed so far
  for (const Node& n : graph_def.nodes) {
    if (static_cast<int>(fed.size()) == kFedRuns) break;
    bool feeds = std::any_of(n.outputs.begin(), n.outputs.end(),
                             [&](const std::string& o) { return upstream.count(o) > 0; });
    bool observed_here = std::any_of(n.outputs.begin(), n.outputs.end(),
                                     [&](const std::string& o) { return observed.count(o) > 0; });
    if (!feeds || observed_here) continue;
    fed.insert(n.name);
    TensorMap in = inputs(seed);
    std::optional<bool> still;
    try {
      Graph cut = fed_from_reference(
          graph_def, [&](const Graph&, const Node& m) { return fed.count(m.name) > 0; }, in);
      still = differs(cut, in);
    } catch (const Error&) {
      return std::nullopt;  // a cut graph that does not run tells nothing
    }
    if (!still) return std::nullopt;
    auto made = std::find_if(n.outputs.begin(), n.outputs.end(),
                             [&](const std::string& o) { return upstream.count(o) > 0; });
    if (!*still) return Culprit{n.op, std::string(dtype_name(graph_def.type_of(*made).dtype))};
  }
  return std::nullopt;
}

std::optional<SignatureFinder::Culprit> SignatureFinder::culprit(const Finding& f) {
  if (!is_value_verdict(f.verdict)) {
    for (const std::string* g : {&f.graph_a, &f.graph_b}) {
      const Graph& graph_def = graph(*g);
      if (const Node* n = node_named_in(f.message, graph_def)) {
        std::string dtype = n->outputs.empty()
                                ? ""
                                : std::string(dtype_name(graph_def.type_of(n->outputs[0]).dtype));
        return Culprit{n->op, dtype};
      }
    }
    return std::nullopt;
  }
  // Verdict and op from the same outputs: those that carry the finding's verdict (a MaxPool
  // output of the wrong shape beside an int64 sum that differs is a shape mismatch at max_pool).
  std::set<std::string> outputs_a = verdict_outputs_a(f), outputs_b = verdict_outputs_b(f);
  // The side under test first; the side it had to agree with may be the wrong one (ort:O0 in
  // an optimization check, the original in an equivalence check).
  if (auto c = against_reference(f.backend_a, f.graph_a, f.seed, outputs_a)) return c;
  if (auto c = against_reference(f.backend_b, f.graph_b, f.seed, outputs_b)) return c;
  // Each side agrees with the reference within tolerance, but not with the other: compare the
  // two sides directly.
  Backend* a = backend(f.backend_a);
  Backend* b = f.backend_b == "ref" ? &ref_ : backend(f.backend_b);
  const Graph& ga = graph(f.graph_a);
  const Graph& gb = graph(f.graph_b);
  if (a && b) {
    std::vector<ValuePair> pairs = f.graph_a == f.graph_b ? pair_by_names(ga, gb)
                                   : egraph_              ? pair_by_classes(*egraph_, ga, gb)
                                                          : pair_by_names(ga, gb);
    InspectResult r =
        run_inspect({f.graph_a, &ga, a, report_.mutations}, {f.graph_b, &gb, b, report_.mutations},
                    upstream_pairs(pairs, ga, outputs_a), inputs(f.seed), report_.tolerances);
    if (r.diverged) return Culprit{r.op_a, std::string(dtype_name(ga.type_of(r.value_a).dtype))};
  }
  // No intermediate value differs while each is an output: the first node whose feeding from
  // the reference makes the failure go.
  if (auto c = fed_culprit(f.backend_a, f.graph_a, f.seed, outputs_a)) return c;
  if (auto c = fed_culprit(f.backend_b, f.graph_b, f.seed, outputs_b)) return c;
  // Nor does one found that way: the first output with the finding's verdict.
  for (const OutputDiff& d : f.outputs) {
    if (d.verdict == Verdict::Pass || (!outputs_a.empty() && !outputs_a.count(d.actual_name)))
      continue;
    if (const Node* n = ga.producer(d.actual_name))
      return Culprit{n->op, std::string(dtype_name(ga.type_of(d.actual_name).dtype))};
  }
  return std::nullopt;
}

FailureSignature SignatureFinder::of(const Finding& f) {
  FailureSignature s{.family = signature_family(f.backend_a),
                     .oracle = std::string(oracle_name(f.oracle)),
                     .verdict = std::string(verdict_name(f.verdict)),
                     .op = {},
                     .dtype = {},
                     .rule = {},
                     .text = {}};
  if (auto c = culprit(f)) {
    s.op = c->op;
    s.dtype = c->dtype;
  }
  return s;
}

void sign_findings(CompareReport& report, const std::vector<Backend*>& backends,
                   SignatureFinder::InputsFor inputs, const EGraph* egraph) {
  SignatureFinder finder(report, backends, std::move(inputs), egraph);
  for (Finding& f : report.findings) f.signature = finder.of(f).key();
}

}  // namespace retort
