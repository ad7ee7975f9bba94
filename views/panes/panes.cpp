#include "views/panes/panes.h"

namespace retort {

std::vector<std::unique_ptr<Pane>> workbench_panes(const LogBuffer& log, bool unicode) {
  std::vector<std::unique_ptr<Pane>> panes;
  panes.push_back(make_graph_pane(unicode));
  panes.push_back(make_egraph_pane());
  panes.push_back(make_variants_pane());
  panes.push_back(make_results_pane());
  panes.push_back(make_log_pane(log));
  panes.push_back(make_campaign_pane());  // F6: after the log, so F1..F5 stay what they were
  panes.push_back(make_program_pane());   // F7
  return panes;
}

}  // namespace retort
