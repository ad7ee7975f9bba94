#include "core/ops/einsum.h"

#include <algorithm>
#include <map>

#include "core/base/error.h"
#include "core/ops/element_values.h"
#include "core/ops/index_space.h"
#include "core/ops/scalar_math.h"

namespace retort {

namespace {

// Labels as small integers in ASCII order ('A'..'Z' then 'a'..'z'); ellipsis axes follow them.
constexpr int kLetters = 52;
constexpr int kEllipsis = -1;  // placeholder in a parsed term before expansion

int label_of(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return 26 + (c - 'a');
  return -2;
}

std::vector<int> parse_term(const std::string& term, const std::string& equation) {
  std::vector<int> labels;
  bool seen_ellipsis = false;
  for (size_t i = 0; i < term.size(); ++i) {
    if (term[i] == '.') {
      if (term.compare(i, 3, "...") != 0)
        fail("einsum equation '{}': a '.' must be part of '...'", equation);
      if (seen_ellipsis) fail("einsum equation '{}': term '{}' has two '...'", equation, term);
      seen_ellipsis = true;
      labels.push_back(kEllipsis);
      i += 2;
      continue;
    }
    int l = label_of(term[i]);
    if (l < 0)
      fail("einsum equation '{}': '{}' is not a label (labels are letters a-z, A-Z)", equation,
           term[i]);
    labels.push_back(l);
  }
  return labels;
}

std::vector<std::string> split_terms(const std::string& lhs) {
  std::vector<std::string> terms{""};
  for (char c : lhs) {
    if (c == ',')
      terms.emplace_back();
    else
      terms.back() += c;
  }
  return terms;
}

size_t letter_count(const std::vector<int>& term) {
  return static_cast<size_t>(std::count_if(term.begin(), term.end(), [](int l) { return l >= 0; }));
}

// Replaces the ellipsis of a term by the ellipsis labels it covers, right-aligned among the
// `ell_rank` ellipsis labels of the whole equation.
std::vector<int> expand(const std::vector<int>& term, size_t covered, size_t ell_rank) {
  std::vector<int> out;
  for (int l : term) {
    if (l != kEllipsis) {
      out.push_back(l);
      continue;
    }
    for (size_t i = ell_rank - covered; i < ell_rank; ++i)
      out.push_back(kLetters + static_cast<int>(i));
  }
  return out;
}

char label_char(int l) {
  return l < 26 ? static_cast<char>('A' + l) : static_cast<char>('a' + l - 26);
}

}  // namespace

EinsumPlan plan_einsum(const std::string& equation, const std::vector<Shape>& shapes) {
  std::string eq;
  for (char c : equation)
    if (c != ' ') eq += c;
  size_t arrow = eq.find("->");
  bool explicit_out = arrow != std::string::npos;
  std::vector<std::string> terms = split_terms(eq.substr(0, arrow));
  if (terms.size() != shapes.size())
    fail("einsum equation '{}' has {} input term(s) but the op has {} input(s)", equation,
         terms.size(), shapes.size());

  std::vector<std::vector<int>> parsed;
  size_t ell_rank = 0;
  std::vector<size_t> covered(shapes.size(), 0);
  for (size_t k = 0; k < terms.size(); ++k) {
    parsed.push_back(parse_term(terms[k], equation));
    size_t letters = letter_count(parsed[k]);
    bool has_ell = letters != parsed[k].size();
    size_t rank = shapes[k].size();
    if (has_ell ? letters > rank : letters != rank)
      fail("einsum equation '{}': term '{}' names {} axes but input {} has shape {}", equation,
           terms[k], letters, k, shape_str(shapes[k]));
    covered[k] = rank - letters;
    ell_rank = std::max(ell_rank, covered[k]);
  }

  // Extent of every label, and how often each letter is used (for the implicit output).
  std::map<int, int64_t> extent;
  std::map<int, int> uses;
  std::vector<std::vector<int>> labels(shapes.size());
  for (size_t k = 0; k < shapes.size(); ++k) {
    labels[k] = expand(parsed[k], covered[k], ell_rank);
    for (size_t a = 0; a < labels[k].size(); ++a) {
      int l = labels[k][a];
      int64_t dim = shapes[k][a];
      auto [it, fresh] = extent.emplace(l, dim);
      if (l < kLetters) {
        ++uses[l];
        if (!fresh && it->second != dim)
          fail("einsum equation '{}': label '{}' has extent {} and {}", equation, label_char(l),
               it->second, dim);
      } else if (!fresh && it->second != dim) {
        if (it->second != 1 && dim != 1)
          fail("einsum equation '{}': the '...' axes of the inputs do not broadcast ({} vs {})",
               equation, it->second, dim);
        it->second = std::max(it->second, dim);
      }
    }
  }

  std::vector<int> out_labels;
  for (size_t i = 0; i < ell_rank; ++i)
    if (!explicit_out) out_labels.push_back(kLetters + static_cast<int>(i));
  if (explicit_out) {
    std::string out_term = eq.substr(arrow + 2);
    if (out_term.find("->") != std::string::npos || out_term.find(',') != std::string::npos)
      fail("einsum equation '{}' must have one output term", equation);
    std::vector<int> parsed_out = parse_term(out_term, equation);
    for (int l : parsed_out) {
      if (l == kEllipsis) continue;
      if (!uses.count(l))
        fail("einsum equation '{}': output label '{}' is not used by any input", equation,
             label_char(l));
      if (std::count(parsed_out.begin(), parsed_out.end(), l) > 1)
        fail("einsum equation '{}': output label '{}' appears twice", equation, label_char(l));
    }
    out_labels = expand(parsed_out, ell_rank, ell_rank);
  } else {
    for (const auto& [l, n] : uses)
      if (n == 1) out_labels.push_back(l);
  }

  EinsumPlan plan;
  std::vector<int> sum_labels;
  for (const auto& [l, _] : extent)
    if (std::find(out_labels.begin(), out_labels.end(), l) == out_labels.end())
      sum_labels.push_back(l);
  for (int l : out_labels) plan.out_shape.push_back(extent.at(l));
  for (int l : sum_labels) plan.sum_shape.push_back(extent.at(l));
  for (size_t k = 0; k < shapes.size(); ++k) {
    std::vector<int64_t> own = strides_of(shapes[k]);
    auto stride_of = [&](int l) {
      int64_t s = 0;
      for (size_t a = 0; a < labels[k].size(); ++a)
        if (labels[k][a] == l && shapes[k][a] != 1) s += own[a];
      return s;
    };
    std::vector<int64_t> os, ss;
    for (int l : out_labels) os.push_back(stride_of(l));
    for (int l : sum_labels) ss.push_back(stride_of(l));
    plan.out_strides.push_back(std::move(os));
    plan.sum_strides.push_back(std::move(ss));
  }
  return plan;
}

namespace {
template <typename T>
std::vector<T> einsum_values(const EinsumPlan& plan, const std::vector<const Tensor*>& inputs) {
  size_t n = inputs.size();
  const Shape& out_shape = plan.out_shape;
  if (std::find(out_shape.begin(), out_shape.end(), 0) != out_shape.end()) return {};
  const Shape& sum = plan.sum_shape;
  bool empty_sum = std::find(sum.begin(), sum.end(), 0) != sum.end();
  std::vector<std::vector<T>> values;
  std::vector<std::vector<int64_t>> out_off;
  for (size_t k = 0; k < n; ++k) {
    values.push_back(read_as<T>(*inputs[k]));
    out_off.push_back(offsets_over(out_shape, plan.out_strides[k]));
  }
  std::vector<T> out(out_off[0].size(), T{0});
  if (empty_sum) return out;
  // The summed labels are walked with an odometer rather than a precomputed offset list: their
  // joint extent is a product over operands and can far exceed any one input.
  size_t depth = sum.size();
  std::vector<int64_t> index(depth);
  std::vector<int64_t> off(n);
  for (size_t o = 0; o < out.size(); ++o) {
    for (size_t k = 0; k < n; ++k) off[k] = out_off[k][o];
    std::fill(index.begin(), index.end(), 0);
    T acc{0};
    for (bool done = false; !done;) {
      T p = values[0][off[0]];
      for (size_t k = 1; k < n; ++k) p = acc_mul(p, values[k][off[k]]);
      acc = acc_add(acc, p);
      done = true;  // unless a digit of the odometer advances below
      for (size_t d = depth; d-- > 0;) {
        if (++index[d] < sum[d]) {
          for (size_t k = 0; k < n; ++k) off[k] += plan.sum_strides[k][d];
          done = false;
          break;
        }
        for (size_t k = 0; k < n; ++k) off[k] -= plan.sum_strides[k][d] * (sum[d] - 1);
        index[d] = 0;
      }
    }
    out[o] = acc;
  }
  return out;
}
}  // namespace

Tensor run_einsum(const EinsumPlan& plan, const std::vector<const Tensor*>& inputs,
                  const TensorType& out) {
  if (is_float(out.dtype)) return tensor_from(out, einsum_values<double>(plan, inputs));
  return tensor_from(out, einsum_values<int64_t>(plan, inputs));
}

}  // namespace retort
