#include "core/compare/repro_issue.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/terminal_text.h"
#include "core/compare/inspect.h"
#include "core/compare/signature.h"
#include "core/exec/inputs.h"
#include "core/io/rtg.h"
#include "core/ops/registry.h"
#include "core/tensor/number_text.h"

namespace retort {

namespace {

// Inputs up to this many elements are written into the issue as well as into the .npy files.
constexpr int64_t kInlineElements = 64;

// The ONNX name of a node's op ("MaxPool"); Retort's own for an op ONNX lacks.
std::string onnx_name(const Node& n) {
  const OpDef* def = OpRegistry::instance().find(n.op);
  return def && !def->onnx.op_type.empty() ? def->onnx.op_type : n.op;
}

// The ONNX op types of a graph, in first-use order: what a maintainer searches the tracker for.
std::vector<std::string> onnx_ops(const Graph& g) {
  std::vector<std::string> ops;
  for (const Node& n : g.nodes) {
    std::string name = onnx_name(n);
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

// The node the failure is at: the one a failed run's message names, else one of the
// signature's op that a failing output reads, else the producer of the first failing output;
// null when none is known.
const Node* failing_node(const Graph& g, const Finding& f) {
  std::set<std::string> failing = verdict_outputs_a(f);
  if (failing.empty())
    if (const Node* named = node_named_in(f.message, g)) return named;
  std::set<std::string> upstream = values_upstream(g, failing);
  std::optional<FailureSignature> sig = FailureSignature::parse(f.signature);
  if (sig && !sig->op.empty())
    for (const Node& n : g.nodes)
      if (n.op == sig->op &&
          (failing.empty() || std::any_of(n.outputs.begin(), n.outputs.end(),
                                          [&](const std::string& v) { return upstream.count(v); })))
        return &n;
  if (!failing.empty()) return g.producer(*failing.begin());
  return g.nodes.size() == 1 ? &g.nodes.front() : nullptr;
}

// An attribute's value as a title shows it: a word as it is, lists and numbers as .rtg writes
// them, anything else (a stored string is untrusted) as a code span; cut when long.
std::string attr_text(const AttrValue& v) {
  constexpr size_t kLongest = 24;
  if (const auto* word = std::get_if<std::string>(&v)) {
    bool plain = !word->empty() && word->size() <= kLongest &&
                 std::all_of(word->begin(), word->end(), [](char c) {
                   return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                 });
    return plain ? *word : markdown_code(word->substr(0, kLongest));
  }
  std::string text = attr_value_str(v);
  return text.size() <= kLongest ? text : text.substr(0, kLongest - 3) + "...";
}

// "MaxPool (auto_pad=SAME_LOWER, dilations=[2])": the op and the attributes it was given that
// are not ONNX's defaults (required ones, such as a kernel's shape, are left out: every node has
// them), at most four.
std::string op_with_attributes(const Node& n) {
  constexpr size_t kMost = 4;
  const OpDef* def = OpRegistry::instance().find(n.op);
  std::vector<std::string> shown;
  for (const auto& [name, value] : n.attrs) {
    const AttrSpec* spec = nullptr;
    if (def)
      for (const AttrSpec& a : def->attrs)
        if (a.name == name) spec = &a;
    if (spec && (spec->required || !spec->onnx)) continue;
    if (spec && spec->default_value &&
        attr_coerce(*spec->default_value, spec->kind) == attr_coerce(value, spec->kind))
      continue;
    if (shown.size() == kMost) {
      shown.push_back("...");
      break;
    }
    shown.push_back(fmt::format("{}={}", name, attr_text(value)));
  }
  std::string op = onnx_name(n);
  return shown.empty() ? op : fmt::format("{} ({})", op, fmt::join(shown, ", "));
}

// What differs between an output's actual and expected type: "shape", "type" (the element type),
// "shape and type", or empty when they are equal.
std::string type_difference(const OutputDiff& d) {
  // "f32[1,1,6]": the element type, then the shape.
  auto dtype = [](const std::string& t) { return t.substr(0, t.find('[')); };
  auto shape = [](const std::string& t) { return t.substr(std::min(t.find('['), t.size())); };
  bool type = dtype(d.actual_type) != dtype(d.expected_type);
  bool dims = shape(d.actual_type) != shape(d.expected_type);
  return type && dims ? "shape and type" : type ? "type" : dims ? "shape" : "";
}

// The first output its verdict comes from, or null for a run that did not finish.
const OutputDiff* first_failing(const Finding& f) {
  for (const OutputDiff& d : f.outputs)
    if (d.verdict == f.verdict) return &d;
  return nullptr;
}

std::string symptom(const Finding& f) {
  switch (f.verdict) {
    case Verdict::Error:
      return "fails on a valid model";
    case Verdict::Crash:
      return "crashes on a valid model";
    case Verdict::Timeout:
      return "hangs on a valid model";
    case Verdict::ShapeDtypeMismatch: {
      const OutputDiff* d = first_failing(f);
      std::string what = d ? type_difference(*d) : "";
      return fmt::format("gives an output of the wrong {}", what.empty() ? "shape or type" : what);
    }
    default:
      return "gives a wrong result";
  }
}

// " (`pip install onnxruntime==1.30.0 numpy`)": the pins of requirements.txt, the first few when
// it pins a whole environment.
std::string requirements_text(const std::vector<std::string>& requirements) {
  constexpr size_t kShown = 3;
  if (requirements.empty()) return "";
  if (requirements.size() <= kShown)
    return fmt::format(" ({})",
                       markdown_code(fmt::format("pip install {}", fmt::join(requirements, " "))));
  std::vector<std::string> first(requirements.begin(), requirements.begin() + kShown);
  return fmt::format(" ({} and {} more: requirements.txt pins the release's environment)",
                     markdown_code(fmt::format("pip install {}", fmt::join(first, " "))),
                     requirements.size() - kShown);
}

// What it had to agree with, in words.
std::string expected_side(const Finding& f) {
  return f.oracle == Oracle::Reference
             ? "Retort's reference interpreter (exact, in double, rounded once)"
             : fmt::format("{} on {}", markdown_code(f.backend_b), markdown_code(f.graph_b));
}

// One line: who gives what, against what was expected.
std::string summary(const Finding& f, const Graph& g) {
  std::string who = fmt::format("{} on a {}-node model", markdown_code(f.backend_a), g.op_count());
  const OutputDiff* d = first_failing(f);
  // A failed run's first line, cut: the section below quotes it whole.
  constexpr size_t kLongest = 160;
  if (!d)
    return fmt::format(
        "{} does not finish the run: {}.", who,
        markdown_code(f.message.substr(0, std::min(f.message.find('\n'), kLongest))));
  std::string against =
      f.oracle == Oracle::Reference
          ? std::string("the reference")
          : fmt::format("{} on {}", markdown_code(f.backend_b), markdown_code(f.graph_b));
  if (d->actual_type != d->expected_type)
    return fmt::format("{} gives output {} as {} where {} gives {}.", who,
                       markdown_code(d->actual_name), d->actual_type, against, d->expected_type);
  return fmt::format("{} gives output {} ({}) with {} of {} elements off from {}.", who,
                     markdown_code(d->actual_name), d->actual_type, d->mismatched, d->numel,
                     against);
}

std::string expected_against_actual(const CompareReport& report, const Finding& f) {
  std::string text =
      fmt::format("## Expected and actual\n\nExpected: {}. Actual: {} on {}.\n\n", expected_side(f),
                  markdown_code(f.backend_a), markdown_code(f.graph_a));
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

const Graph& compared_graph(const CompareReport& report, const std::string& name) {
  for (size_t i = 0; i < report.graphs.size(); ++i)
    if (report.graphs[i] == name) return report.graph_defs.at(i);
  return report.graph_defs.at(0);
}

std::map<std::string, std::string> failing_output_notes(const Finding& f) {
  std::map<std::string, std::string> out;
  for (const OutputDiff& d : f.outputs) {
    if (d.verdict != f.verdict) continue;
    out[d.actual_name] =
        d.actual_type != d.expected_type
            ? fmt::format("wrong {}: {}, not {}", type_difference(d), d.actual_type,
                          d.expected_type)
            : fmt::format("{}: {} of {} elements", verdict_name(d.verdict), d.mismatched, d.numel);
  }
  return out;
}

std::string repro_issue_markdown(const CompareReport& report, const Finding& f,
                                 const ReproBundle& bundle, const IssueFacts& facts) {
  const Graph& g = compared_graph(report, f.graph_a);
  std::string compiler = bundle.standalone ? bundle.compiler : f.backend_a;
  const Node* at = failing_node(g, f);
  std::string what =
      at ? op_with_attributes(*at) : fmt::format("{}", fmt::join(onnx_ops(g), " + "));
  std::string text = fmt::format("# {}: {} {}\n\n{}\n\n", markdown_code(compiler), what, symptom(f),
                                 summary(f, g));
  text += fmt::format(
      "- Compiler: {}{}\n"
      "- Found by: {} ({} oracle: {}), inputs seed {}\n"
      "- Verdict: {}\n",
      markdown_code(compiler), requirements_text(bundle.requirements), facts.retort_version,
      oracle_name(f.oracle), markdown_code(f.str()), f.seed, verdict_name(f.verdict));
  if (!facts.opinion.empty())
    text += fmt::format(
        "- Second opinion (the same case on other backends; ref is Retort's "
        "reference): {}\n",
        markdown_code(facts.opinion));
  // Pass and backend names a family declares (a stored blame counts only with those), as prose.
  if (!facts.passes.empty()) text += fmt::format("- Passes: {}\n", terminal_name(facts.passes));
  if (!facts.known.empty())
    text += fmt::format(
        "- Known: {} (Retort's library of known bugs explains it; search the tracker for it "
        "before filing)\n",
        terminal_name(facts.known));
  text += "\n";
  if (f.oracle == Oracle::Equivalence)
    text +=
        "model_b.onnx is an equivalent rewrite of model_a.onnx (same outputs for every input): "
        "the compiler must give both the same outputs.\n\n";
  if (f.oracle == Oracle::Optimization)
    text += "The same model must give the same outputs at both optimization settings.\n\n";
  text += "## The model\n\n";
  if (!facts.picture.empty())
    text += fmt::format("![the model, its failing output marked]({})\n\n", facts.picture);
  std::string rtg = rtg_can_print(g) ? print_rtg(g) : std::string("(names not printable)\n");
  text += fmt::format("In Retort's text form (one ONNX node per line):\n\n{}\n{}{}\n\n",
                      fence_for(rtg), rtg, fence_for(rtg));
  if (!facts.program.empty())
    text += fmt::format(
        "The program the compiler ran, generated from it (model_a.py, its constants in "
        "model_a/):\n\n{}python\n{}{}\n\n",
        fence_for(facts.program), facts.program, fence_for(facts.program));
  text += "Inputs:\n\n" + inputs_text(report, f, g) + "\n";
  text += expected_against_actual(report, f);
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
  text += fmt::format("## In Retort\n\n    {}\n", facts.retort_command);
  return text;
}

}  // namespace retort
