// The campaign pane: the progress of the campaign `fuzz` runs in this session, live while it
// runs (the session publishes it after every case), "reviewing k/N" during the review at its
// end, then its totals. Hidden until a campaign starts.
#include <fmt/format.h>

#include "core/base/terminal_text.h"
#include "views/panes/panes.h"
#include "views/panes/session_text.h"

namespace retort {

std::vector<StyledLine> campaign_text(const Session& s) {
  std::optional<CampaignStatus> c = s.campaign_status();
  if (!c) return {{"no campaign yet: `fuzz --cases N` runs one", Style::Dim}};
  const CampaignStats& st = c->stats;
  std::vector<StyledLine> lines;
  // The database's findings (a merged shard's too) name their backends.
  lines.push_back(
      {fmt::format("campaign {} in {}: {} ({})", c->campaign, terminal_name(c->database),
                   !c->review.empty() ? c->review
                   : c->running       ? "running"
                                      : "ended",
                   c->budget),
       Style::Title});
  lines.push_back({fmt::format("{} cases in {:.1f} s ({:.1f}/s), {} retort errors", st.cases,
                               st.seconds, st.cases_per_second(), st.errors)});
  lines.push_back({"findings: " + findings_count_text(st.signatures.size(), st.seen),
                   st.signatures.empty() ? Style::Good : Style::Error});
  for (const auto& [kind, n] : st.by_kind)
    lines.push_back({fmt::format("  {:>6}  {}", n, terminal_name(kind))});
  if (!st.last_finding.empty()) lines.push_back({"last: " + terminal_name(st.last_finding)});
  lines.push_back({"per case: " + st.stages(), Style::Dim});
  lines.push_back(
      {fmt::format("`findings list --db {}` lists them", shell_word(c->database)), Style::Dim});
  return lines;
}

namespace {

class CampaignPane : public SessionTextPane {
 public:
  CampaignPane()
      : SessionTextPane(
            {.name = "campaign", .weight = 30, .topics = {Topic::Campaign}, .live = true},
            campaign_text) {}
  void refresh(const Session& s, TopicSet changed) override {
    visible_ = s.campaign_status().has_value();
    SessionTextPane::refresh(s, changed);
  }
  bool visible() const override { return visible_; }

 private:
  bool visible_ = false;
};

}  // namespace

std::unique_ptr<Pane> make_campaign_pane() {
  return std::make_unique<CampaignPane>();
}

}  // namespace retort
