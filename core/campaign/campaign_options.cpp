#include "core/campaign/campaign_options.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <fmt/ranges.h>

#include "core/backend/family.h"
#include "core/base/error.h"
#include "core/base/rng.h"
#include "core/base/shape.h"
#include "core/base/terminal_text.h"
#include "core/campaign/case_salt.h"
#include "core/campaign/strategy.h"
#include "core/ops/registry.h"
#include "core/rules/rule.h"

namespace retort {

GenOptions CampaignOptions::default_gen() {
  GenOptions g;
  g.min_nodes = g.max_nodes = 10;
  return g;
}

GenOptions CampaignOptions::campaign_gen() {
  GenOptions g = default_gen();
  g.shape_classes = 0.25;
  return g;
}

void CampaignOptions::validate() const {
  if (gen.min_nodes < 1 || gen.min_nodes > gen.max_nodes || gen.max_nodes > kMaxCaseNodes)
    fail("--nodes: between 1 and {} op nodes, LO <= HI, not {}..{}", kMaxCaseNodes, gen.min_nodes,
         gen.max_nodes);
  if (gen.dtypes.empty()) fail("--dtypes: name at least one dtype");
  for (const auto& op : gen.ops) OpRegistry::instance().get(op);
  for (const auto& [op, dtypes] : gen.op_dtypes) OpRegistry::instance().get(op);
  if (gen.max_rank < 0 || gen.max_rank > static_cast<int>(kMaxRank))
    fail("--rank: between 0 and {}, not {}", kMaxRank, gen.max_rank);
  if (gen.max_dim < 1 || gen.max_dim > kMaxCaseDim)
    fail("max_dim: between 1 and {}, not {}", kMaxCaseDim, gen.max_dim);
  if (!(gen.shape_classes >= 0 && gen.shape_classes <= 1))
    fail("--shapes: between 0 and 1, not {}", gen.shape_classes);
  if (!(gen.avoid_keep >= 0 && gen.avoid_keep <= 1))
    fail("avoid_keep: a probability between 0 and 1, not {}", gen.avoid_keep);
  if (backends.empty()) fail("--backends: name at least one backend (e.g. ref,ort:O0,ort:O3)");
  for (const auto& name : backends)
    if (name.empty() || name.find_first_of(" \t\r\n,") != std::string::npos)
      fail("--backends: a backend name is one word without commas, not '{}'", name);
  for (const auto& [family, env] : python) {
    const FamilyDef* f = find_family(family);
    if (!f || &environment_family(*f) != f || f->installer != Installer::Pypi)
      fail("--python: '{}' is not a family with a Python environment", terminal_name(family));
    // The jobs of --jobs are told FAMILY=PATH,FAMILY=PATH.
    if (env.python.empty() || env.python.find(',') != std::string::npos)
      fail("--python: {}'s interpreter is a path without commas, not '{}'", family,
           terminal_name(env.python));
  }
  if (strategies.empty())
    fail("--strategy: name at least one ({})", fmt::join(strategy_names(), ", "));
  for (const auto& name : strategies) get_strategy(name);
  check_program_forms(forms, "--forms");
  if (rules.empty()) fail("--rules: a campaign needs at least one rule set");
  if (iter_limit > kMaxIterations)
    fail("--iters: at most {} saturation iterations, not {}", kMaxIterations, iter_limit);
  if (node_limit > kMaxENodes) fail("--enodes: at most {} e-nodes, not {}", kMaxENodes, node_limit);
  if (random_variants > kMaxRandomVariants)
    fail("--random: at most {} random variants, not {}", kMaxRandomVariants, random_variants);
  if (!(saturate_seconds > 0 && saturate_seconds <= kMaxSaturateSeconds))
    fail("saturate_seconds: more than 0 and at most {}, not {}", kMaxSaturateSeconds,
         saturate_seconds);
  if (!(wide_values >= 0 && wide_values <= 1))
    fail("--wide-values: between 0 and 1, not {}", wide_values);
  if (!(relax_p >= 0 && relax_p <= 1)) fail("--relax: between 0 and 1, not {}", relax_p);
  if (!(relax_alpha >= 0 && relax_alpha <= 1))
    fail("--relax-step: between 0 and 1, not {}", relax_alpha);
  if (!(seconds >= 0 && std::isfinite(seconds)))
    fail("--time: 0 (no limit) or more seconds, not {}", seconds);
  if (shards == 0 || shard >= shards || shards > kMaxShards)
    fail("--shard: K/N with 0 <= K < N and N at most {}, not {}/{}", kMaxShards, shard, shards);
}

void check_stored_rules(const CampaignOptions& o, const std::vector<std::string>& named_files) {
  std::vector<std::string> builtin = builtin_rule_set_names();
  for (const auto& name : o.rules)
    if (std::find(builtin.begin(), builtin.end(), name) == builtin.end() &&
        std::find(named_files.begin(), named_files.end(), name) == named_files.end())
      fail(
          "the campaign names the rule file '{}'; a file named in a findings database is read "
          "only when you name it too (`fuzz --resume --rules {}`); built-in sets: {}",
          name, name, fmt::join(builtin, ", "));
}

nlohmann::json backend_specs_json(const std::vector<BackendSpec>& specs) {
  nlohmann::json out = nlohmann::json::array();
  for (const BackendSpec& b : specs)
    out.push_back(
        {{"name", b.name}, {"argv", b.argv}, {"timeout", b.timeout_s}, {"options", b.options}});
  return out;
}

std::vector<BackendSpec> backend_specs_from_json(const nlohmann::json& j) {
  std::vector<BackendSpec> out;
  for (const auto& b : j.get_ref<const nlohmann::json::array_t&>())
    out.push_back({b.at("name").get<std::string>(), b.at("argv").get<std::vector<std::string>>(),
                   b.at("timeout").get<double>(),
                   b.at("options").get<std::map<std::string, std::string>>()});
  return out;
}

nlohmann::json CampaignOptions::to_json() const {
  nlohmann::json dtypes = nlohmann::json::array();
  for (DType t : gen.dtypes) dtypes.push_back(std::string(dtype_name(t)));
  nlohmann::json op_dtypes = nlohmann::json::object();
  for (const auto& [op, set] : gen.op_dtypes) {
    op_dtypes[op] = nlohmann::json::array();
    for (DType t : set) op_dtypes[op].push_back(std::string(dtype_name(t)));
  }
  nlohmann::json avoid = nlohmann::json::array();
  for (const NodePattern& p : gen.avoid) avoid.push_back(p.to_json());
  nlohmann::json environments = nlohmann::json::object();
  for (const auto& [family, env] : python)
    environments[family] = {{"python", env.python}, {"versions", env.versions}};
  return {{"nodes", {gen.min_nodes, gen.max_nodes}},
          {"op_dtypes", op_dtypes},
          {"attached", backend_specs_json(attached)},
          {"dtypes", dtypes},
          {"ops", gen.ops},
          {"rank", gen.max_rank},
          {"max_dim", gen.max_dim},
          {"avoid", avoid},
          {"avoid_keep", gen.avoid_keep},
          {"shape_classes", gen.shape_classes},
          {"backends", backends},
          {"python", environments},
          {"strategies", strategies},
          {"rules", rules},
          {"iterations", iter_limit},
          {"enodes", node_limit},
          {"saturate_seconds", saturate_seconds},
          {"random_variants", random_variants},
          {"intermediate", intermediate},
          {"input_ranges", input_ranges},
          {"wide_values", wide_values},
          {"forms", forms},
          {"relax_p", relax_p},
          {"relax_alpha", relax_alpha},
          {"seconds", seconds},
          {"cases", cases},
          {"seed", seed},
          {"shard", shard},
          {"shards", shards}};
}

CampaignOptions CampaignOptions::from_json(const nlohmann::json& j) {
  CampaignOptions o;
  try {
    o.gen.min_nodes = j.at("nodes").at(0).get<int>();
    o.gen.max_nodes = j.at("nodes").at(1).get<int>();
    o.gen.dtypes.clear();
    for (const auto& d : j.at("dtypes")) {
      auto t = parse_dtype(d.get<std::string>());
      if (!t) fail("campaign options: unknown dtype '{}'", d.get<std::string>());
      o.gen.dtypes.push_back(*t);
    }
    // Campaigns stored before `--for` have no op_dtypes: every op takes every dtype.
    if (j.contains("op_dtypes"))
      for (const auto& [op, names] : j.at("op_dtypes").items()) {
        std::set<DType>& set = o.gen.op_dtypes[op];
        for (const auto& d : names) {
          auto t = parse_dtype(d.get<std::string>());
          if (!t) fail("campaign options: unknown dtype '{}'", d.get<std::string>());
          set.insert(*t);
        }
      }
    o.gen.ops = j.at("ops").get<std::vector<std::string>>();
    o.gen.max_rank = j.at("rank").get<int>();
    o.gen.max_dim = j.at("max_dim").get<int64_t>();
    // Campaigns stored before the known-bug library drew every node alike.
    if (j.contains("avoid"))
      for (const auto& p : j.at("avoid"))
        o.gen.avoid.push_back(NodePattern::from_json(p, "campaign options: avoid"));
    if (j.contains("avoid_keep")) o.gen.avoid_keep = j.at("avoid_keep").get<double>();
    // Campaigns stored before shape classes drew plain shapes (and draw the same graphs again).
    o.gen.shape_classes = j.contains("shape_classes") ? j.at("shape_classes").get<double>() : 0;
    o.backends = j.at("backends").get<std::vector<std::string>>();
    o.attached = backend_specs_from_json(j.at("attached"));
    // Campaigns stored before `--python` ran in Retort's environments.
    if (j.contains("python"))
      for (const auto& [family, env] : j.at("python").items())
        o.python[family] = {.python = env.at("python").get<std::string>(),
                            .versions = env.at("versions").get<std::string>()};
    // Campaigns stored before `--strategy` ran POLYJUICE's cases only.
    if (j.contains("strategies")) o.strategies = j.at("strategies").get<std::vector<std::string>>();
    for (const auto& s : o.strategies) get_strategy(s);
    o.rules = j.at("rules").get<std::vector<std::string>>();
    o.iter_limit = j.at("iterations").get<size_t>();
    o.node_limit = j.at("enodes").get<size_t>();
    o.saturate_seconds = j.at("saturate_seconds").get<double>();
    o.random_variants = j.at("random_variants").get<size_t>();
    o.intermediate = j.at("intermediate").get<bool>();
    o.input_ranges = j.contains("input_ranges") && j.at("input_ranges").get<bool>();
    o.wide_values = j.contains("wide_values") ? j.at("wide_values").get<double>() : 0;
    o.forms = j.contains("forms") ? j.at("forms").get<std::vector<std::string>>()
                                  : std::vector<std::string>{};
    // Campaigns stored before HirFuzz keep its defaults (they never ran its cases).
    if (j.contains("relax_p")) o.relax_p = j.at("relax_p").get<double>();
    if (j.contains("relax_alpha")) o.relax_alpha = j.at("relax_alpha").get<double>();
    o.seconds = j.at("seconds").get<double>();
    o.cases = j.at("cases").get<uint64_t>();
    o.seed = j.at("seed").get<uint64_t>();
    o.shard = j.at("shard").get<uint64_t>();
    o.shards = j.at("shards").get<uint64_t>();
  } catch (const nlohmann::json::exception& e) {
    fail("campaign options: {}", e.what());
  }
  try {
    o.validate();
  } catch (const Error& e) {
    fail("campaign options: {}", e.message());
  }
  return o;
}

uint64_t case_seed(uint64_t campaign_seed, uint64_t index) {
  return mix_seed(campaign_seed, index);
}

namespace {

bool parse_number(std::string_view text, uint64_t& v) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

}  // namespace

std::pair<int, int> parse_int_range(const std::string& text, const std::string& what) {
  size_t dots = text.find("..");
  uint64_t lo = 0, hi = 0;
  bool ok = dots == std::string::npos
                ? parse_number(text, lo) && (hi = lo, true)
                : parse_number(std::string_view(text).substr(0, dots), lo) &&
                      parse_number(std::string_view(text).substr(dots + 2), hi);
  if (!ok || lo > hi || hi > 100000)
    fail("{}: expected N or LO..HI (numbers, LO <= HI), got '{}'", what, text);
  return {static_cast<int>(lo), static_cast<int>(hi)};
}

std::pair<uint64_t, uint64_t> parse_shard(const std::string& text) {
  size_t slash = text.find('/');
  uint64_t k = 0, n = 0;
  if (slash == std::string::npos || !parse_number(std::string_view(text).substr(0, slash), k) ||
      !parse_number(std::string_view(text).substr(slash + 1), n) || n == 0 || k >= n)
    fail("--shard: expected K/N with 0 <= K < N (e.g. 0/4), got '{}'", text);
  return {k, n};
}

RuleSet campaign_rules(const std::vector<std::string>& names) {
  if (names.empty()) fail("a campaign needs at least one rule set (--rules)");
  std::vector<std::string> builtin = builtin_rule_set_names();
  RuleSet all;
  for (const std::string& n : names)
    all.append(std::find(builtin.begin(), builtin.end(), n) != builtin.end() ? builtin_rules(n)
                                                                             : load_rules_file(n));
  return all;
}

InputPlan case_input_plan(const CampaignOptions& o, uint64_t case_seed) {
  return o.input_ranges ? campaign_input_plan(case_seed, o.wide_values) : InputPlan{};
}

std::vector<ProgramMutation> case_forms(const CampaignOptions& o, uint64_t case_seed) {
  std::vector<ProgramMutation> out;
  if (o.forms.empty()) return out;
  Rng rng(mix_seed(case_seed, kFormSalt));
  auto n = rng.uniform_int(0, 3);
  for (int64_t k = 0; k < n; ++k) {
    const std::string& kind =
        o.forms[static_cast<size_t>(rng.uniform_int(0, static_cast<int64_t>(o.forms.size()) - 1))];
    bool taken = std::any_of(out.begin(), out.end(),
                             [&](const ProgramMutation& m) { return m.kind == kind; });
    if (!taken) out.push_back({kind, rng.next_u64() >> 1});
  }
  return out;
}

}  // namespace retort
