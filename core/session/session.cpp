#include "core/session/session.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/base/suggest.h"
#include "core/egraph/rewrite_label.h"

namespace retort {

const Graph& Session::graph() const {
  if (!graph_)
    fail("no graph yet: load one with `load FILE`, build one with `def` or draw one with `gen`");
  return *graph_;
}

Session::Session(uint64_t seed) : seed_(seed) {
  rules_.add("polyjuice", "built-in", builtin_rules("polyjuice"),
             std::string(builtin_rules_text("polyjuice")));
}

void Session::set_variant(const std::string& name, Graph g) {
  Variant v;
  v.ops = g.op_count();
  v.depth = graph_depth(g);
  v.graph = std::move(g);
  variants_.insert_or_assign(name, std::move(v));
  newest_variant_ = name;
  topics_.bump(Topic::Variants);
}

void Session::start_graph(std::optional<Graph> g) {
  graph_ = std::move(g);
  variants_.clear();
  work_.reset();
  undo_.clear();
  redo_.clear();
  compare_report_.reset();
  last_eval_.reset();
  newest_variant_.clear();
  program_.clear();
  program_text_.clear();
  program_backend_.clear();
  for (Topic t : {Topic::Graph, Topic::EGraph, Topic::Variants, Topic::Values, Topic::Results,
                  Topic::Program})
    topics_.bump(t);
}

void Session::drop_variant(const std::string& name) {
  variant_info(name);  // the error names the variants there are
  variants_.erase(name);
  if (newest_variant_ == name) newest_variant_.clear();
  topics_.bump(Topic::Variants);
}

const Graph* Session::find_variant(const std::string& name) const {
  auto it = variants_.find(name);
  return it == variants_.end() ? nullptr : &it->second.graph;
}

const Graph& Session::variant(const std::string& name) const {
  return variant_info(name).graph;
}

const Variant& Session::variant_info(const std::string& name) const {
  if (auto it = variants_.find(name); it != variants_.end()) return it->second;
  if (variants_.empty()) fail("unknown variant '{}' (there are no variants yet)", name);
  fail_unknown("variant", name, variant_names());
}

bool Session::record(std::string command, bool ok, bool restorable) {
  journal_.push_back({std::move(command), ok, restorable});
  return !journal_file_ || journal_file_->append(journal_.back());
}

void Session::adopt(Session&& other) {
  graph_ = std::move(other.graph_);
  seed_ = other.seed_;
  variants_ = std::move(other.variants_);
  rules_ = std::move(other.rules_);
  work_ = std::move(other.work_);
  undo_ = std::move(other.undo_);
  redo_ = std::move(other.redo_);
  input_plan_ = std::move(other.input_plan_);
  // A BackendSet owns worker processes and does not move: the attached backends are replaced
  // by other's, trusted or not as they were (workers start on first use).
  backends_.adopt_attached(other.backends_);
  newest_variant_.clear();
  topics_.bump_all();
}

void Session::publish_campaign(CampaignStatus status) {
  {
    std::lock_guard lock(campaign_mutex_);
    campaign_ = std::move(status);
  }
  topics_.bump(Topic::Campaign);
}

std::optional<CampaignStatus> Session::campaign_status() const {
  std::lock_guard lock(campaign_mutex_);
  return campaign_;
}

std::vector<std::string> Session::variant_names() const {
  std::vector<std::string> names;
  for (const auto& [name, v] : variants_) names.push_back(name);
  return names;
}

std::string variant_steps_str(const Variant& v, size_t max_shown) {
  if (v.steps.empty()) return "-";
  std::vector<std::string> labels;
  for (size_t i = 0; i < v.steps.size() && i < max_shown; ++i)
    labels.push_back(rewrite_label(v.steps[i]));
  if (v.steps.size() <= max_shown) return fmt::format("{}", fmt::join(labels, ","));
  return fmt::format("{},… ({} in all)", fmt::join(labels, ","), v.steps.size());
}

}  // namespace retort
