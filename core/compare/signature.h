// The signature of a failure: what makes two findings the same bug. Deduplication (`compare`
// grouping, the findings database), reduction (a step is kept only while the signature holds) and
// bisection (which fills in the rule) all use it.
//   family   the backend family of the side under test ("ort" for "ort:O3" or "ort@1.17:O3")
//   oracle   as oracle_name prints it ("reference", "equivalence", "optimization")
//   verdict  as verdict_name prints it ("mismatch", "crash", ...)
//   op       the op producing the first diverging value (an inspect-style search against the
//            reference); for a failed run, the op of the node its message names, else empty
//   dtype    that value's element type ("f32"); empty when op is
//   rule     the rewrite that flips the verdict, once `bisect` found it; empty before
//   text     for a failed run (crash, error) in a campaign: which class of similar failure texts
//            it falls in (HirFuzz's dedup by bug trace, core/findings/text_clusters.h); empty
//            otherwise. Reduction and bisection match the other fields only.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/backend/ref_backend.h"
#include "core/compare/compare.h"
#include "core/egraph/egraph.h"

namespace retort {

struct FailureSignature {
  std::string family, oracle, verdict, op, dtype, rule, text;

  // One line, the fields in the order above joined by '|', with '|' and '\' inside a field
  // escaped by '\': "ort|reference|mismatch|mul|f32|" (text, when there is one, as a seventh
  // field). Equal keys mean equal signatures.
  std::string key() const;
  // The inverse of key(); nullopt when the text is not a key.
  static std::optional<FailureSignature> parse(std::string_view key);
  // For people: "ort reference mismatch at mul (f32)", "ort crash", "... via rule add-comm",
  // "ort reference crash #3fa2c1" (a text class).
  std::string str() const;

  bool operator==(const FailureSignature&) const = default;
};

// "ort:O3" -> "ort", "tvm@0.14:O2" -> "tvm": the name before the first ':' or '@'.
std::string signature_family(const std::string& backend);

// The node of g that a failed run's message names ("node 'm1'", "node \"m1\"", ORT's
// "Name:'m1'"), or null.
const Node* node_named_in(const std::string& message, const Graph& g);

// The outputs of g computed from the node `message` names (node_named_in): those a run that
// failed there cannot give (ONNX Runtime's "running MaxPool node. Name:'v7'"); empty when it
// names none.
std::set<std::string> outputs_after_named_node(const std::string& message, const Graph& g);

// Computes signatures for the findings of one compare report. The first-divergence searches
// (a graph run on a backend with every intermediate as an output, against the reference) are
// cached per backend, graph and seed, so the findings of a report cost one search per failing
// cell and run.
class SignatureFinder {
 public:
  // The inputs compare used for a seed (default: generate_inputs of the original with the
  // report's input plan).
  using InputsFor = std::function<TensorMap(uint64_t seed)>;

  // backends: parallel to report.backends. egraph (optional): pairs the values of two different
  // graphs when neither side differs from the reference on its own; by names when null.
  SignatureFinder(const CompareReport& report, std::vector<Backend*> backends,
                  InputsFor inputs = {}, const EGraph* egraph = nullptr);

  FailureSignature of(const Finding& finding);

 private:
  struct Culprit {
    std::string op, dtype;
  };
  const Graph& graph(const std::string& name) const;
  Backend* backend(const std::string& name) const;
  const TensorMap& inputs(uint64_t seed);
  // The first value of graph g that backend b computes differently from the reference, among
  // the values `outputs` are computed from (all values when empty).
  std::optional<Culprit> against_reference(const std::string& b, const std::string& g,
                                           uint64_t seed, const std::set<std::string>& outputs);
  // The op of the first node upstream of `outputs` of graph g whose values, fed from the
  // reference, make backend b's run agree with the reference on them, for a failure that b's
  // first-divergence search ran and did not see (it shows only while the intermediate values are
  // not outputs: ONNX Runtime merges two Splits of one input unless their pieces are returned;
  // a search that could not run, a backend that returns no intermediates, leaves the label to
  // the output's producer). The nodes are fed upstream first, as the review names a reduced
  // graph's root (core/campaign/review.h reduced_root), at most kFedRuns of them, after one run
  // that shows the failure.
  std::optional<Culprit> fed_culprit(const std::string& b, const std::string& g, uint64_t seed,
                                     const std::set<std::string>& outputs);
  std::optional<Culprit> culprit(const Finding& f);

  const CompareReport& report_;
  std::vector<Backend*> backends_;
  InputsFor inputs_for_;
  const EGraph* egraph_;
  RefBackend ref_;
  std::map<uint64_t, TensorMap> inputs_;
  std::map<std::tuple<std::string, std::string, uint64_t, std::set<std::string>>,
           std::optional<Culprit>>
      searched_;
  // The keys of searched_ whose search ran to the end and saw no divergence.
  std::set<std::tuple<std::string, std::string, uint64_t, std::set<std::string>>> unseen_;
};

// Fills Finding::signature of every finding of the report (backends: parallel to its rows).
void sign_findings(CompareReport& report, const std::vector<Backend*>& backends,
                   SignatureFinder::InputsFor inputs = {}, const EGraph* egraph = nullptr);

}  // namespace retort
