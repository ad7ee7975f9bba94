// `backend`: list the compilers under test, attach a worker program as a backend, detach it.
// The work is done by the session's BackendSet (core/backend/backend_set.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "app/commands.h"
#include "core/base/error.h"
#include "core/base/program_path.h"
#include "core/base/words.h"
#include "core/io/number_text.h"

namespace retort {

namespace {

std::string options_text(const std::map<std::string, std::string>& options) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : options) parts.push_back(fmt::format("{}={}", k, v));
  return parts.empty() ? "-" : fmt::format("{}", fmt::join(parts, " "));
}

void list_backends(const Session& s, Output& out) {
  std::vector<BackendInfo> infos = s.backends().list();
  size_t name_w = 4, state_w = 5, version_w = 7;
  for (const auto& i : infos) {
    name_w = std::max(name_w, i.name.size());
    state_w = std::max(state_w, i.state.size());
    version_w = std::max(version_w, std::max<size_t>(i.version.size(), 1));
  }
  out.print("{:<{}}  {:<{}}  {:<{}}  {}", "NAME", name_w, "STATE", state_w, "VERSION", version_w,
            "OPTIONS");
  for (const auto& i : infos) {
    out.print("{:<{}}  {:<{}}  {:<{}}  {}", i.name, name_w, i.state, state_w,
              i.version.empty() ? "-" : i.version, version_w, options_text(i.options));
    if (!i.last_error.empty()) out.print("  last error: {}", i.last_error);
  }
}

// "K=V,K=V" into a map.
std::map<std::string, std::string> parse_options(const std::string& text) {
  std::map<std::string, std::string> options;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = std::min(text.find(',', start), text.size());
    std::string item = text.substr(start, end - start);
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      fail("--option takes K=V pairs separated by commas, not '{}'", item);
    options[item.substr(0, eq)] = item.substr(eq + 1);
    start = end + 1;
  }
  return options;
}

void attach_backend(Session& s, const std::string& name, const Args& args, Output& out) {
  auto cmd = args.option("--cmd");
  if (!cmd) fail("`backend attach` needs --cmd \"PROGRAM ARGS...\"");
  std::vector<std::string> argv = split_words(*cmd);
  if (argv.empty()) fail("`backend attach` needs a program in --cmd");
  double timeout = kDefaultWorkerTimeout;
  if (auto text = args.option("--timeout")) {
    auto value = parse_float_text(*text);
    if (!value) fail("--timeout takes seconds, not '{}'", *text);
    timeout = *value;
  }
  std::map<std::string, std::string> options;
  if (auto text = args.option("--option")) options = parse_options(*text);
  std::string given = fmt::format("{}", fmt::join(argv, " "));
  // Resolved now: the worker starts later, and reproducer bundles start it from their folder.
  argv[0] = resolve_program(argv[0]);
  s.backends().attach(name, argv, timeout, options);
  out.print("attached {}: {} (timeout {} s; it starts on its first run)", name, given, timeout);
}

void run_backend(Session& s, const Args& args, Output& out) {
  const std::string* action = args.arg(0);
  const std::string* name = args.arg(1);
  if (!action || *action == "list") {
    if (name) fail("`backend list` takes no argument");
    list_backends(s, out);
    return;
  }
  if (*action != "attach" && *action != "detach")
    fail("unknown backend action '{}' (list, attach, detach)", *action);
  if (!name) fail("`backend {}` needs a NAME", *action);
  if (args.positional.size() > 2) fail("`backend {}` takes one NAME", *action);
  if (*action == "attach") {
    attach_backend(s, *name, args, out);
  } else {
    s.backends().detach(*name);
    out.print("detached {}", *name);
  }
}

}  // namespace

void register_backend_commands(CommandRegistry& r) {
  r.add(
      {.name = "backend",
       .args = {{"ACTION", Completion::None, true}, {"NAME", Completion::None, true}},
       .options = {{"--cmd", "C", "the worker's command line (attach)"},
                   {"--timeout", "S", "seconds a worker may take per request (attach; default 30)"},
                   {"--option", "K=V", "options sent to the worker in hello, K=V,K=V... (attach)"}},
       .summary = "List, attach or detach the compilers under test.",
       .help = "`backend` or `backend list` shows each backend: its state (not started, ready,\n"
               "dead, ...), the version its worker reported, its options and its last error.\n"
               "Built in: ref (the reference interpreter), ort:O0..O3 (ONNX Runtime with graph\n"
               "optimisation disabled, basic, extended, all) and torch:eager, torch:trace,\n"
               "torch:script, torch:trace-frozen, torch:script-frozen, torch:script-te.\n"
               "`backend attach NAME --cmd \"PROGRAM ARGS...\"` attaches any program that speaks\n"
               "the worker protocol (docs/backend-protocol.md). The command line is split into\n"
               "words as a shell would (quotes respected) and run directly, never through a\n"
               "shell. A worker starts on its first run, is restarted after it dies, and is\n"
               "killed when a request takes longer than its timeout.\n"
               "`backend detach NAME` stops and removes an attached backend.",
       .run = run_backend});
}

}  // namespace retort
