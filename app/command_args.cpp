#include "app/command_args.h"

#include <cstdlib>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/base/option_number.h"

namespace retort {

double parse_tolerance(const std::string& text, std::string_view what) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') fail("{} must be a number, not '{}'", what, text);
  return v;
}

const Graph& graph_named(const Session& s, const std::string& name) {
  return name == "original" ? s.graph() : s.variant(name);
}

ToleranceTable tolerances_for(const Session& s, const Args& args) {
  ToleranceTable t = s.tolerances();
  std::optional<double> atol, rtol, ulps;
  if (auto text = args.option("--atol")) atol = parse_tolerance(*text, "--atol");
  if (auto text = args.option("--rtol")) rtol = parse_tolerance(*text, "--rtol");
  if (auto text = args.option("--ulps")) ulps = parse_tolerance(*text, "--ulps");
  t.set_all_floats(atol ? &*atol : nullptr, rtol ? &*rtol : nullptr, ulps ? &*ulps : nullptr);
  return t;
}

double parse_seconds(const std::string& text, std::string_view option) {
  try {
    size_t used = 0;
    double seconds = std::stod(text, &used);
    if (used == text.size() && seconds > 0) return seconds;
  } catch (const std::exception&) {
  }
  fail("{} wants a positive number of seconds, not '{}'", option, text);
}

size_t parse_number_from_1(const std::string& text, std::string_view what) {
  std::string_view digits = text;
  if (digits.starts_with('#')) digits.remove_prefix(1);
  size_t k = parse_u64(digits, fmt::format("the {} number #K", what));
  if (k == 0) fail("{} numbers start at #1", what);
  return k;
}

std::function<void(size_t, size_t, const std::string&)> compare_progress(Output& out) {
  return [&out](size_t done, size_t total, const std::string& backend) {
    out.progress(fmt::format("runs (last on {})", backend), done, total);
  };
}

uint64_t seed_for(const Session& s, const Args& args) {
  auto text = args.option("--seed");
  return text ? parse_u64(*text, "--seed") : s.seed();
}

}  // namespace retort
