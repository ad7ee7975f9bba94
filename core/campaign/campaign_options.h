// What a fuzz campaign does per case and how long it runs (docs/campaigns.md). The options are
// stored with the campaign as JSON, so `--resume` continues with exactly the same ones.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/backend/family_env.h"
#include "core/backend/worker_backend.h"
#include "core/gen/graph_gen.h"
#include "core/rules/rule.h"

#include "core/exec/inputs.h"

namespace retort {

struct CampaignOptions {
  GenOptions gen = campaign_gen();
  std::vector<std::string> backends{"ref", "ort:O0", "ort:O3"};
  // How the attached (not built-in) backends among them were attached, so that --resume and
  // the processes of --jobs attach them again.
  std::vector<BackendSpec> attached;
  // The existing Python environments the campaign's families ran in (`fuzz --python`, `backend
  // use`), by environment family ("inductor"); absent: Retort's own. A stored interpreter is
  // shown, never run: `--resume` runs it only when the person names it again (app/commands_fuzz).
  std::map<std::string, PythonEnvironment> python;
  // How cases make their programs (core/campaign/strategy.h): case i uses strategies[i % n].
  std::vector<std::string> strategies{"polyjuice"};
  std::vector<std::string> rules{"polyjuice"};  // built-in set names or .rules files
  // Saturation limits per case: POLYJUICE's defaults.
  size_t iter_limit = 2, node_limit = 100;
  double saturate_seconds = 5;
  // Variants per case: min and max always; K random ones; the maximal graph after every
  // iteration but the last (a state between the original and max can fail alone, pytorch#190765).
  size_t random_variants = 2;
  bool intermediate = true;
  // Each case draws its inputs with a plan of its own (core/exec/inputs.h campaign_input_plan,
  // from the case seed): standard, full range, special values or a wide interval. Campaigns
  // stored before this existed read as false and keep the standard draw.
  bool input_ranges = true;
  // With input_ranges, the chance that a case draws the wide plan (integers past 2^31, 2^53 and
  // narrow wrap points; `--wide-values P`). Campaigns stored before it read as 0 and replay the
  // plans they drew.
  double wide_values = 0.25;
  // The program forms (core/backend/backend.h kProgramForms) a case may ask of the backends that
  // take them (torch.compile's): case_forms draws some per case. Campaigns stored before this
  // existed read as none.
  std::vector<std::string> forms = program_form_kinds();
  // HirFuzz's dynamic relaxation: a hirfuzz case breaks constraints (level 0) with probability p,
  // which moves by alpha towards the level that last found a new bug (the paper's recommended
  // p = 0.6, alpha = 0.01).
  double relax_p = 0.6, relax_alpha = 0.01;
  // Budget: stop after `seconds` (0: no limit) or once case indices reach `cases` (0: no limit).
  double seconds = 0;
  uint64_t cases = 0;
  uint64_t seed = 1;
  uint64_t shard = 0, shards = 1;  // cases i with i % shards == shard

  static GenOptions default_gen();  // 10 nodes, every op and dtype (the gen command's)
  // default_gen with a quarter of the graphs drawn with a shape class (core/gen/graph_gen.h).
  static GenOptions campaign_gen();

  // The one check of a campaign's options, wherever they come from (the command line, a campaign
  // stored in a findings database): throws Error naming the option (--nodes, --shard, ...) when
  // one is out of its range, so that no file can make a case loop forever or ask for more than
  // a case can do.
  void validate() const;

  nlohmann::json to_json() const;
  // Throws Error naming the field when the JSON is not a campaign's options or they fail
  // validate().
  static CampaignOptions from_json(const nlohmann::json& j);
};

// Attached backends' specs as JSON: a campaign's "attached", and the specs `fuzz --jobs` hands
// its jobs. The reader throws nlohmann::json::exception for JSON of another shape.
nlohmann::json backend_specs_json(const std::vector<BackendSpec>& specs);
std::vector<BackendSpec> backend_specs_from_json(const nlohmann::json& j);

// The bounds validate() holds the options to.
inline constexpr int kMaxCaseNodes = 100000;
inline constexpr int64_t kMaxCaseDim = 1024;
inline constexpr size_t kMaxIterations = 1000, kMaxENodes = 1000000, kMaxRandomVariants = 1000;
inline constexpr double kMaxSaturateSeconds = 3600;
// Shards of a campaign and jobs of a process at most: case indices step by shards x jobs, which
// then stays far inside what the database stores (int64), whatever a stored campaign says.
inline constexpr uint64_t kMaxShards = uint64_t{1} << 24, kMaxJobs = 1024;

// A stored campaign's rule sets resolve as built-in names only, or as the files the person names
// on the command line (`fuzz --resume --rules FILE`): a path stored in a findings database is
// never opened on its say-so. Throws Error naming the first other entry.
void check_stored_rules(const CampaignOptions& o, const std::vector<std::string>& named_files);

// The rule sets named in options.rules (built-in names or .rules files), in order.
RuleSet campaign_rules(const std::vector<std::string>& names);

// How case `case_seed` of a campaign with these options draws its inputs.
InputPlan case_input_plan(const CampaignOptions& o, uint64_t case_seed);
// The program forms case `case_seed` asks for: none to three of o.forms, each with a seed
// (backends that do not take a form never get it, core/backend/family.h applies_mutation).
std::vector<ProgramMutation> case_forms(const CampaignOptions& o, uint64_t case_seed);

// The seed of case `index` of a campaign: depends only on (campaign seed, index), so any shard
// or job can run any case and a resumed campaign draws the same graphs.
uint64_t case_seed(uint64_t campaign_seed, uint64_t index);

// "5..30" or "10" -> {lo, hi}; throws Error naming `what` otherwise.
std::pair<int, int> parse_int_range(const std::string& text, const std::string& what);
// "2/4" -> {2, 4} with 0 <= K < N; throws Error otherwise.
std::pair<uint64_t, uint64_t> parse_shard(const std::string& text);

}  // namespace retort
