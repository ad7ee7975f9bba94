// The workbench's panes, in the order of their F keys. A new pane is one file defining its
// make_ function (its spec, content source and keys) and a line in workbench_panes (panes.cpp).
#pragma once

#include <memory>
#include <vector>

#include "views/log_buffer.h"
#include "views/panes/pane.h"

namespace retort {

std::unique_ptr<Pane> make_graph_pane(bool unicode);        // graph_pane.cpp
std::unique_ptr<Pane> make_egraph_pane();                   // egraph_pane.cpp
std::unique_ptr<Pane> make_variants_pane();                 // variants_pane.cpp
std::unique_ptr<Pane> make_results_pane();                  // results_pane.cpp
std::unique_ptr<Pane> make_log_pane(const LogBuffer& log);  // log_pane.cpp
std::unique_ptr<Pane> make_campaign_pane();                 // campaign_pane.cpp
std::unique_ptr<Pane> make_program_pane();                  // program_pane.cpp

std::vector<std::unique_ptr<Pane>> workbench_panes(const LogBuffer& log, bool unicode);

}  // namespace retort
