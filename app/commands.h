// The built-in commands. Each family registers itself from its own file.
#pragma once

#include "app/command.h"

namespace retort {

// The registry with every built-in command, in the order `help` lists them.
const CommandRegistry& app_commands();

void register_graph_commands(CommandRegistry& r);  // load def show info export
void register_run_commands(CommandRegistry& r);    // eval seed conformance
void register_egraph_commands(CommandRegistry& r);  // egraph rules match apply ... undo redo
void register_backend_commands(CommandRegistry& r);  // backend
void register_help_commands(CommandRegistry& r);   // help quit

}  // namespace retort
