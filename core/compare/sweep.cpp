#include "core/compare/sweep.h"

#include <fmt/format.h>

#include "core/backend/support.h"
#include "core/base/error.h"
#include "core/compare/compare.h"
#include "core/io/rtg.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

std::vector<InputPlan> default_plans() {
  std::vector<InputPlan> plans;
  for (InputRange r : {InputRange::Standard, InputRange::Full, InputRange::Special}) {
    InputPlan plan;
    plan.range = r;
    plans.push_back(plan);
  }
  return plans;
}

std::vector<std::string> swept_ops(const SweepOptions& options) {
  if (options.ops.empty()) return OpRegistry::instance().names();
  for (const auto& op : options.ops) OpRegistry::instance().get(op);  // unknown: Error
  return options.ops;
}

// What the reference oracle made of one run: the cell's verdict, and the line that says why.
// Where the inputs make the op undefined any answer will do, an error as well.
std::pair<Verdict, std::string> outcome(const CompareReport& report) {
  const CompareCell& cell = report.cell(0, 0);
  for (const auto& f : report.findings)
    if (f.verdict == cell.verdict)
      return {f.undefined.empty() ? cell.verdict : Verdict::Undefined, f.str()};
  for (const auto& n : report.notes)
    if (n.find("the reference failed") != std::string::npos) return {cell.verdict, n};
  return {cell.verdict, cell.message};
}

bool agrees(Verdict v) {
  return v == Verdict::Pass || v == Verdict::Undefined || v == Verdict::Precision;
}

}  // namespace

size_t SweepResult::explained() const {
  size_t n = 0;
  for (const auto& d : disagreements) n += d.known != nullptr;
  return n;
}

std::map<std::string, size_t> SweepResult::by_class() const {
  std::map<std::string, size_t> classes;
  for (const auto& d : disagreements)
    if (d.known) ++classes[d.known->klass];
  return classes;
}

SweepResult run_sweep(Backend& other, const SweepOptions& options) {
  const std::vector<std::string> ops = swept_ops(options);
  const std::vector<InputPlan> plans = options.plans.empty() ? default_plans() : options.plans;
  SweepResult result;
  result.other = other.info().name;
  result.ops = ops.size();
  for (size_t i = 0; i < ops.size(); ++i) {
    for (DType t : kAllDTypes) {
      bool typed = false;
      for (size_t k = 0; k < options.draws; ++k) {
        if (options.cancel && options.cancel->load()) fail("sweep: interrupted");
        const uint64_t seed = options.seed + k;
        std::optional<Graph> g = single_op_graph(ops[i], t, seed);
        if (!g) break;  // the op takes no operand of this dtype
        typed = true;
        ++result.graphs;
        for (const InputPlan& plan : plans) {
          CompareReport report =
              run_compare({{"original", &*g}}, {&other},
                          {.seed = seed, .runs = 1, .tolerances = options.tolerances}, plan);
          ++result.runs;
          auto [verdict, detail] = outcome(report);
          ++result.verdicts[verdict];
          if (agrees(verdict)) {
            ++result.agree;
            continue;
          }
          if (verdict == Verdict::Unsupported) {
            ++result.unsupported;
            continue;
          }
          SweepCase c{.op = ops[i],
                      .dtype = t,
                      .plan = plan.range_str(),
                      .seed = seed,
                      .verdict = verdict,
                      .detail = detail,
                      .graph = print_rtg(*g)};
          c.known = explain_disagreement(c.op, c.dtype, c.plan, c.detail);
          result.disagreements.push_back(std::move(c));
        }
      }
      result.op_dtypes += typed;
    }
    if (options.progress) options.progress(i + 1, ops.size());
  }
  return result;
}

}  // namespace retort
