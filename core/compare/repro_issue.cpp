#include "core/compare/repro_issue.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/terminal_text.h"
#include "core/exec/inputs.h"
#include "core/io/rtg.h"
#include "core/ops/registry.h"
#include "core/tensor/number_text.h"

namespace retort {

namespace {

// Inputs up to this many elements are written into the issue as well as into the .npy files.
constexpr int64_t kInlineElements = 64;

const Graph& graph_of(const CompareReport& report, const std::string& name) {
  for (size_t i = 0; i < report.graphs.size(); ++i)
    if (report.graphs[i] == name) return report.graph_defs.at(i);
  return report.graph_defs.at(0);
}

// The ONNX op types of a graph, in first-use order: what a maintainer searches the tracker for.
std::vector<std::string> onnx_ops(const Graph& g) {
  std::vector<std::string> ops;
  for (const Node& n : g.nodes) {
    const OpDef* def = OpRegistry::instance().find(n.op);
    std::string name = def && !def->onnx.op_type.empty() ? def->onnx.op_type : n.op;
    if (std::find(ops.begin(), ops.end(), name) == ops.end()) ops.push_back(name);
  }
  return ops;
}

std::string values_text(const Tensor& t) {
  std::vector<std::string> v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(float_literal_for(t.get(i), t.dtype()));
  return fmt::format("{}", fmt::join(v, ", "));
}

// A code fence longer than any run of backticks in `code` (a model's names are in the script).
std::string fence_for(const std::string& code) {
  size_t longest = 0, run = 0;
  for (char c : code) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<size_t>(3, longest + 1), '`');
}

std::string symptom(const Finding& f) {
  switch (f.verdict) {
    case Verdict::Error:
      return "fails on a valid model";
    case Verdict::Crash:
      return "crashes on a valid model";
    case Verdict::Timeout:
      return "hangs on a valid model";
    case Verdict::ShapeDtypeMismatch:
      return "gives an output of the wrong shape or type";
    default:
      return "gives a wrong result";
  }
}

std::string expected_against_actual(const CompareReport& report, const Finding& f) {
  std::string against =
      f.oracle == Oracle::Reference
          ? "Retort's reference interpreter (exact, in double, rounded once)"
          : fmt::format("{} on {}", markdown_code(f.backend_b), markdown_code(f.graph_b));
  std::string text = fmt::format("## Expected and actual\n\nExpected: {}. Actual: {} on {}.\n\n",
                                 against, markdown_code(f.backend_a), markdown_code(f.graph_a));
  if (f.outputs.empty()) {
    text += fmt::format("The run did not finish: {}\n\n", markdown_code(f.message));
    return text;
  }
  text +=
      "| output | expected | actual | elements off | first difference |\n"
      "|---|---|---|---|---|\n";
  for (const OutputDiff& d : f.outputs) {
    if (d.verdict == Verdict::Pass) continue;
    // Integers exactly: a double holds an int64 only up to 2^53.
    std::string first =
        d.first_mismatch < 0 ? "-"
        : d.integer ? fmt::format("[{}]: {} instead of {}", d.first_mismatch, d.first_actual_int,
                                  d.first_expected_int)
                    : fmt::format("[{}]: {} instead of {}", d.first_mismatch,
                                  float_literal(d.first_actual), float_literal(d.first_expected));
    std::string off = d.expected_type == d.actual_type
                          ? fmt::format("{} of {}", d.mismatched, d.numel)
                          : std::string("all (shape or type)");
    text += fmt::format("| {} | {} | {} | {} | {} |\n", markdown_cell(d.expected_name),
                        d.expected_type, d.actual_type, off, first);
  }
  text += fmt::format("\nTolerance: {}.\n\n", report.tolerances.str());
  return text;
}

std::string inputs_text(const CompareReport& report, const Finding& f, const Graph& g) {
  TensorMap inputs = generate_inputs(report.graph_defs.at(0), f.seed, nullptr, report.inputs);
  std::string text;
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    const Tensor& t = inputs.at(g.inputs[i].name);
    if (t.numel() > kInlineElements) {
      text += fmt::format("- {}: {} in `inputs/input_{}.npy`\n", markdown_code(g.inputs[i].name),
                          t.type().str(), i);
      continue;
    }
    text += fmt::format("- {}: {} = [{}] (`inputs/input_{}.npy`)\n",
                        markdown_code(g.inputs[i].name), t.type().str(), values_text(t), i);
  }
  return text;
}

}  // namespace

std::string repro_issue_markdown(const CompareReport& report, const Finding& f,
                                 const ReproBundle& bundle, const IssueFacts& facts) {
  const Graph& g = graph_of(report, f.graph_a);
  std::string compiler = bundle.standalone ? bundle.compiler : f.backend_a;
  std::string text = fmt::format("# {}: {} {}\n\n", markdown_code(compiler),
                                 fmt::join(onnx_ops(g), " + "), symptom(f));
  text += fmt::format(
      "- Compiler: {}{}\n"
      "- Found by: {} ({} oracle: {}), inputs seed {}\n"
      "- Verdict: {}\n",
      markdown_code(compiler),
      bundle.requirements.empty()
          ? ""
          : fmt::format(" ({})", markdown_code(fmt::format("pip install {}",
                                                           fmt::join(bundle.requirements, " ")))),
      facts.retort_version, oracle_name(f.oracle), markdown_code(f.str()), f.seed,
      verdict_name(f.verdict));
  // Pass and backend names a family declares (a stored blame counts only with those), as prose.
  if (!facts.passes.empty()) text += fmt::format("- Passes: {}\n", terminal_name(facts.passes));
  text += "\n";
  if (f.oracle == Oracle::Equivalence)
    text +=
        "model_b.onnx is an equivalent rewrite of model_a.onnx (same outputs for every input): "
        "the compiler must give both the same outputs.\n\n";
  if (f.oracle == Oracle::Optimization)
    text += "The same model must give the same outputs at both optimization settings.\n\n";
  text += "## Reproduce\n\n";
  if (bundle.standalone)
    text +=
        "With the files of this folder (repro.py, the .onnx model, inputs/, expected/, "
        "requirements.txt):\n\n"
        "    python3 -m venv venv && venv/bin/pip install -r requirements.txt\n"
        "    venv/bin/python repro.py\n\n"
        "It prints each run against the expected outputs and exits 1 when the bug shows.\n\n";
  else
    text += fmt::format(
        "No standalone script exists for this backend; Retort's replay runs it through its "
        "worker:\n\n    {}\n\n",
        bundle.run);
  std::string fence = fence_for(facts.script);
  text += fmt::format("<details><summary>repro.py</summary>\n\n{}python\n{}{}\n\n</details>\n\n",
                      fence, facts.script, fence);
  text += "Inputs:\n\n" + inputs_text(report, f, g) + "\n";
  text += expected_against_actual(report, f);
  text += "## The model\n\n";
  if (!facts.picture.empty()) text += fmt::format("![the model]({})\n\n", facts.picture);
  std::string rtg = rtg_can_print(g) ? print_rtg(g) : std::string("(names not printable)\n");
  text += fmt::format("In Retort's text form (one ONNX node per line):\n\n{}\n{}{}\n\n",
                      fence_for(rtg), rtg, fence_for(rtg));
  text += fmt::format("## In Retort\n\n    {}\n", facts.retort_command);
  return text;
}

}  // namespace retort
