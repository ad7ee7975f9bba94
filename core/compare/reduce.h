// Reduction: the smallest graph that still shows one failure (`reduce`). Greedy delta debugging
// over the graph: each step tries one change (an earlier value as the only output, an output
// dropped, a node removed by rewiring its readers to a value of the same type, a constant made
// simple, an input dimension shrunk to 1 or dropped) and keeps it only when the failure is the
// same one: the same signature (backend family, oracle, verdict, op and dtype of the first
// diverging value) on the same backend, with no undefined behaviour on the reference. Peers
// drift to other failures there (Polygraphy, the PyTorch minifier); this does not.
//
// An equivalence finding is a pair: the variant must keep agreeing with the graph it was
// compared to in value, so each change is made to both graphs at once, on values the e-graph
// proved equal (a value cut into an input becomes the same input on both sides).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "core/compare/signature.h"

namespace retort {

// What is being reduced: the graph under test and, for an equivalence finding, the graph it must
// agree with and the pairs of values known equal (a's value -> b's value).
struct ReduceCase {
  Graph a;
  std::optional<Graph> b;
  std::map<std::string, std::string> pairs;

  size_t nodes() const { return a.op_count() + (b ? b->op_count() : 0); }
};

// The failure to keep: a finding's oracle and backends, its signature (the rule is ignored), and
// the inputs' seed and tolerances it was found with.
struct ReduceTarget {
  Oracle oracle = Oracle::Reference;
  std::string backend_a, backend_b;  // backend_b "ref" = the reference interpreter
  FailureSignature signature;
  uint64_t seed = 1;
  ToleranceTable tolerances;
  InputPlan inputs;  // inputs fixed by hand stay fixed while their type does
};

enum class CheckOutcome {
  SameFailure,  // kept
  Passes,       // no failure at all: a candidate for the largest passing graph
  Other,        // another failure, undefined behaviour or a graph that does not type
};

struct ReduceProgress {
  size_t checks = 0, nodes = 0, start_nodes = 0;
  double seconds = 0;
  std::string change;  // what the last kept step did
};

struct ReduceOptions {
  double time_limit_s = 0;                              // 0: none
  const std::atomic<bool>* cancel = nullptr;            // stops between checks (Ctrl-C)
  std::function<void(const ReduceProgress&)> progress;  // after each kept step
};

struct ReduceResult {
  ReduceCase smallest;                     // still fails the same way
  std::optional<ReduceCase> largest_pass;  // one change from smallest, and passes
  size_t checks = 0, start_nodes = 0;
  std::string stopped;  // empty when no change helps any more; else "time limit", "interrupted"
};

// Looks up a backend by name; "ref" is the reference.
using BackendLookup = std::function<Backend&(const std::string&)>;

// Whether a case shows the target failure.
CheckOutcome check_case(const ReduceCase& c, const ReduceTarget& target,
                        const BackendLookup& backends);

// The case cut down to the outputs `a_outputs` of a and `b_outputs` of b (in their order), with
// the nodes, constants and inputs that feed none of them dropped (but a's first input, kept
// unread where nothing else is left to feed): what a report shows of a failure. Throws Error when
// no output is left or what is left does not type.
ReduceCase only_outputs(ReduceCase c, const std::set<std::string>& a_outputs,
                        const std::set<std::string>& b_outputs);

// Throws Error when `start` does not show the failure.
ReduceResult reduce_case(const ReduceCase& start, const ReduceTarget& target,
                         const BackendLookup& backends, const ReduceOptions& options);

}  // namespace retort
