// The built-in commands. Each family registers itself from its own file.
#pragma once

#include "app/command.h"
#include "app/command_args.h"
#include "core/backend/family_env.h"
#include "core/backend/support.h"
#include "core/compare/compare.h"
#include "core/compare/repro.h"
#include "core/findings/findings_db.h"
#include "core/gen/graph_gen.h"

namespace retort {

// The registry with every built-in command, in the order `help` lists them.
const CommandRegistry& app_commands();

void register_graph_commands(CommandRegistry& r);     // load def show info export
void register_run_commands(CommandRegistry& r);       // eval seed conformance
void register_egraph_commands(CommandRegistry& r);    // egraph rules match apply ... undo redo
void register_render_commands(CommandRegistry& r);    // render
void register_session_commands(CommandRegistry& r);   // save open history replay
void register_backend_commands(CommandRegistry& r);   // backend
void register_compare_commands(CommandRegistry& r);   // compare tolerance inspect
void register_reduce_commands(CommandRegistry& r);    // bisect reduce
void register_sweep_commands(CommandRegistry& r);     // sweep
void register_variant_commands(CommandRegistry& r);   // variant equiv
void register_fuzz_commands(CommandRegistry& r);      // gen fuzz
void register_findings_commands(CommandRegistry& r);  // findings
void register_einsum_commands(CommandRegistry& r);    // einsum (TENSURE)
void register_oatest_commands(CommandRegistry& r);    // oatest (OATest)
void register_hirfuzz_commands(CommandRegistry& r);   // hirfuzz (HirFuzz)
void register_program_commands(CommandRegistry& r);   // program (TorchProbe)
void register_help_commands(CommandRegistry& r);      // help quit

// `export repro DIR [--finding N] [--full] [--issue]`: the bundle for a finding of the last
// compare (commands_compare.cpp). write_repro_bundle writes that of finding #n, and with `issue`
// also DIR/issue.md (core/compare/repro_issue.h) and DIR/graph.svg, printing the issue.
void run_export_repro(Session& s, const Args& args, Output& out);
void write_repro_bundle(Session& s, const std::string& dir, size_t n, ReproOptions options,
                        bool issue, Output& out);
// The passes of failing.backend_a that the failing check of `report` needs
// (core/campaign/blame.h), searched on the session's backends with progress and Ctrl-C; and
// the text issue.md gives them, with how the compiler turns them off. write_repro_bundle names
// them itself for an issue whose ReproOptions::passes is empty (commands_compare.cpp).
PassBlame blame_failure(Session& s, const CompareReport& report, const Finding& failing,
                        Output& out);
std::string issue_passes(const PassBlame& b);

// The op x dtype support of a backend (core/backend/support.h), probed with a progress line
// when it is not cached (commands_backend.cpp).
SupportTable support_for(Session& s, const std::string& name, Output& out);
// `backend use FAMILY --python PATH` (commands_backend.cpp; fuzz --python too): asks the
// interpreter its versions, then f's default release and the families sharing its environment
// run in it for the rest of the session, which it says.
const PythonEnvironment& use_python_environment(Session& s, const FamilyDef& f,
                                                const std::string& python, Output& out);
// The generator options g with --nodes, --dtypes, --ops, --rank and --for (only what that backend
// runs) applied: gen, fuzz and oatest (commands_fuzz.cpp).
GenOptions gen_options_from(Session& s, const Args& args, GenOptions g, Output& out);
std::vector<OptionSpec> gen_option_specs();
// The findings database a command names with --db, else the default (commands_findings.cpp);
// and that option, as fuzz and findings declare it.
std::string findings_db_path(const Args& args);
OptionSpec findings_db_option();

}  // namespace retort
