#include "app/commands.h"

namespace retort {

const CommandRegistry& app_commands() {
  static const CommandRegistry registry = [] {
    CommandRegistry r;
    register_graph_commands(r);
    register_run_commands(r);
    register_egraph_commands(r);
    register_render_commands(r);
    register_session_commands(r);
    register_backend_commands(r);
    register_compare_commands(r);
    register_reduce_commands(r);
    register_sweep_commands(r);
    register_variant_commands(r);
    register_fuzz_commands(r);
    register_findings_commands(r);
    register_einsum_commands(r);
    register_oatest_commands(r);
    register_hirfuzz_commands(r);
    register_program_commands(r);
    register_help_commands(r);
    return r;
  }();
  return registry;
}

}  // namespace retort
