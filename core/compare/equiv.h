// `equiv A B`: are two graphs equal? Both go into one e-graph, the enabled rules run under limits,
// and when every output class of A meets B's the e-graph's explanation is the proof. Otherwise
// seeded inputs on the reference interpreter look for a counterexample. Also the interface check
// that makes a hand-written graph a variant (`variant add`).
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "core/compare/output_match.h"
#include "core/compare/tensor_diff.h"
#include "core/compare/tolerance.h"
#include "core/egraph/explanation.h"
#include "core/exec/inputs.h"
#include "core/graph/graph.h"
#include "core/rules/runner.h"

namespace retort {

// Throws Error unless `variant` has the inputs of `original` (names and types, in order) and an
// output for each of the original's, of its type (core/compare/output_match.h: in any order, and
// with extra outputs); returns how they match.
OutputMatch check_variant_interface(const Graph& original, const Graph& variant,
                                    const std::string& variant_name);

struct EquivOptions {
  size_t iter_limit = 30;
  size_t node_limit = 10000;
  double time_limit_s = 5;
  const std::atomic<bool>* cancel = nullptr;
  uint64_t seed = 1;  // counterexample search: seeds seed .. seed + tries - 1
  size_t tries = 20;
  ToleranceTable tolerances;
  InputPlan inputs;
};

struct EquivResult {
  bool proven = false;
  // The outputs proven or tested equal: (A's output, B's output) indices, one per output of the
  // graph with fewer outputs (matched as check_variant_interface matches a variant's).
  std::vector<std::pair<size_t, size_t>> pairs;
  std::vector<Explanation> proofs;  // per pair, when proven
  size_t iterations = 0, nodes = 0;
  std::string stopped;  // why the rules stopped without a proof: "saturated", "node limit", ...
  // Without a proof: the first seed whose inputs make an output differ on the reference, and
  // how (empty when none of the tries did); seeds skipped for undefined behaviour are counted.
  std::optional<uint64_t> counterexample_seed;
  std::string counterexample;
  size_t tried = 0, undefined = 0;
};

// A and B must have the same inputs, and the one with more outputs an output for each of the
// other's (check_variant_interface, B the variant when both have as many). Throws Error when they
// do not, or when a constant name means different values in the two.
EquivResult prove_equivalent(const Graph& a, const Graph& b, const RuleSet& rules,
                             const EquivOptions& options);

}  // namespace retort
