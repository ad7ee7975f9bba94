// `einsum`: TENSURE (seeds/003) in the workbench. `einsum gen` draws an einsum by Algorithm 3 as
// the current graph, `einsum permute` makes a variant with its operands in another order (the
// commutativity mutation, checked by compare's equivalence oracle), `einsum validity` measures
// how many drawn einsums are valid. docs/techniques.md.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/commands.h"
#include "core/base/error.h"
#include "core/campaign/campaign_options.h"
#include "core/compare/compare.h"
#include "core/gen/einsum_gen.h"
#include "core/graph/graph.h"
#include "core/ops/attrs.h"

namespace retort {

namespace {

EinsumGenOptions einsum_options(const Args& args) {
  EinsumGenOptions o;
  if (auto v = args.option("--inputs"))
    std::tie(o.min_inputs, o.max_inputs) = parse_int_range(*v, "--inputs");
  if (auto v = args.option("--rank")) o.max_rank = static_cast<int>(parse_u64(*v, "--rank"));
  if (auto v = args.option("--pool")) o.pool = static_cast<int>(parse_u64(*v, "--pool"));
  if (auto v = args.option("--dim")) o.max_dim = static_cast<int64_t>(parse_u64(*v, "--dim"));
  if (auto v = args.option("--dtype")) {
    std::optional<DType> d = parse_dtype(*v);
    if (!d || *d == DType::boolean)
      fail("--dtype: a numeric dtype (i32 or i64 for exact results), not '{}'", *v);
    o.dtype = *d;
  }
  return o;
}

void run_gen_einsum(Session& s, const Args& args, Output& out) {
  EinsumGenOptions o = einsum_options(args);
  uint64_t seed = seed_for(s, args);
  Rng rng(seed);
  EinsumSpec spec = generate_einsum(o, rng);
  s.start_graph(einsum_graph(spec, o.dtype));
  std::string shapes;
  for (const auto& in : s.graph().inputs)
    shapes += fmt::format("{}{} {}", shapes.empty() ? "" : ", ", in.name, in.type.str());
  out.print("einsum {} with seed {}: {} -> A {}", spec.equation(), seed, shapes,
            s.graph().type_of("A").str());
}

void run_permute(Session& s, const Args& args, Output& out) {
  const Graph& g = s.graph();
  size_t k = 1;
  while (s.find_variant(fmt::format("permuted_{}", k))) ++k;
  std::string name = args.arg(1) ? *args.arg(1) : fmt::format("permuted_{}", k);
  Rng rng = Rng(seed_for(s, args)).fork(k);
  Graph v = permute_einsum_operands(g, rng);
  std::string equations;
  for (const Node& n : v.nodes)
    if (n.op == "einsum")
      equations += (equations.empty() ? "" : "; ") + attr_string(n.attrs, "equation") + " (" +
                   fmt::format("{}", fmt::join(n.inputs, ", ")) + ")";
  if (equations.empty()) fail("the current graph has no einsum node (`einsum gen` draws one)");
  s.set_variant(name, std::move(v));
  out.print("variant {}: {}", name, equations);
}

// Valid: Retort's inference types it and the reference runs it; with --backend, that backend
// also runs it (an error or crash there is a frontend rejection, as TENSURE counts validity).
void run_validity(Session& s, const Args& args, Output& out) {
  uint64_t n = parse_u64(*args.arg(1), "N");
  EinsumGenOptions o = einsum_options(args);
  uint64_t seed = seed_for(s, args);
  std::vector<Backend*> backends{&s.backends().get("ref")};
  if (auto b = args.option("--backend")) backends.push_back(&s.backends().get(*b));
  uint64_t typed = 0, ran = 0, contracted = 0;
  std::string first_invalid;
  for (uint64_t i = 0; i < n && !s.cancel_flag().load(); ++i) {
    Rng rng = Rng(seed).fork(i);
    EinsumSpec spec = generate_einsum(o, rng);
    if (!spec.summed().empty()) ++contracted;
    Graph g;
    try {
      g = einsum_graph(spec, o.dtype);
      ++typed;
    } catch (const Error& e) {
      if (first_invalid.empty()) first_invalid = spec.equation() + ": " + e.what();
      continue;
    }
    CompareOptions options;
    options.seed = seed + i;
    CompareReport r = run_compare({{"original", &g}}, backends, options);
    bool ok = true;
    for (size_t b = 0; b < backends.size(); ++b) {
      Verdict v = r.cell(b, 0).verdict;
      ok = ok && v != Verdict::Error && v != Verdict::Crash && v != Verdict::Timeout &&
           v != Verdict::Unsupported;
    }
    if (ok) {
      ++ran;
    } else if (first_invalid.empty()) {
      first_invalid = spec.equation() + ": " + r.cell(backends.size() - 1, 0).message;
    }
  }
  std::string on = backends.size() > 1 ? "ref and " + *args.option("--backend") : "ref";
  out.print(
      "{} einsums (seed {}): {} typed by inference ({:.2f}%), {} ran on {} ({:.2f}%); {} sum over "
      "a label",
      n, seed, typed, n ? 100.0 * static_cast<double>(typed) / static_cast<double>(n) : 0.0, ran,
      on, n ? 100.0 * static_cast<double>(ran) / static_cast<double>(n) : 0.0, contracted);
  if (!first_invalid.empty()) out.print("first invalid: {}", first_invalid);
}

}  // namespace

void register_einsum_commands(CommandRegistry& r) {
  r.add({.name = "einsum",
         .options = {{"--inputs", "N|LO..HI", "operands of a drawn einsum (default 2..3)"},
                     {"--rank", "R", "highest rank of an operand (default 3)"},
                     {"--pool", "K", "labels to draw from, a.. (default 6)"},
                     {"--dim", "D", "largest size of a label (default 4)"},
                     {"--dtype", "T", "element type (default f32; i32 or i64: exact)"},
                     {"--seed", "S", "the seed (default: the session seed)"},
                     {"--backend", "B", "validity: also run each einsum on backend B",
                      Completion::BackendName}},
         .summary = "TENSURE's einsums: draw one, permute its operands, measure validity.",
         .help = "See docs/techniques.md.",
         .actions = {{"gen",
                      {},
                      "Draws an einsum by TENSURE's Algorithm 3 as the current graph (inputs\n"
                      "B1..BN, output A): labels from a pool, the output a subset of the used\n"
                      "labels, every summed label in at least two operands, one size per label.",
                      run_gen_einsum},
                     {"permute",
                      {{"NAME", Completion::VariantName, true}},
                      "Adds a variant (default permuted_K) with the operands of every einsum node\n"
                      "in another order, the equation permuted to match: `compare` then checks\n"
                      "that each backend computes the same for both.",
                      run_permute},
                     {"validity",
                      {{"N"}},
                      "Draws N einsums and counts those Retort types and runs (and --backend B\n"
                      "runs).",
                      run_validity}}});
}

}  // namespace retort
