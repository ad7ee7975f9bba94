// `backend`: list the compilers under test, attach a worker program as a backend, detach it.
// The work is done by the session's BackendSet (core/backend/backend_set.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "app/backend_names.h"
#include "app/commands.h"
#include "app/sigint_cancels.h"
#include "core/backend/family_env.h"
#include "core/base/error.h"
#include "core/base/program_path.h"
#include "core/base/suggest.h"
#include "core/base/terminal_text.h"
#include "core/base/words.h"
#include "core/compare/release_bisect.h"
#include "core/tensor/number_text.h"

namespace retort {

namespace {

std::string options_text(const std::map<std::string, std::string>& options) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : options) parts.push_back(fmt::format("{}={}", k, v));
  return parts.empty() ? "-" : terminal_name(fmt::format("{}", fmt::join(parts, " ")));
}

// The release a family backend runs when its worker has not said yet: "1.30.0".
std::string release_of(const BackendInfo& info) {
  // An attached backend may be named like a family's mode ("ort:par"): no release.
  std::optional<BackendName> name = find_backend_release(info.name);
  return name ? name->version : "";
}

void list_backends(const Session& s, Output& out) {
  std::vector<BackendInfo> infos = s.backends().list();
  // Names come from session files, versions and errors from workers: one line each.
  for (auto& i : infos) {
    if (i.version.empty()) i.version = release_of(i);
    for (std::string* text :
         {&i.name, &i.state, &i.version, &i.unavailable, &i.environment, &i.last_error})
      *text = terminal_name(*text);
  }
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
    if (!i.unavailable.empty()) out.print("  unavailable: {}", i.unavailable);
    if (!i.environment.empty()) out.print("  environment: {}", i.environment);
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

// FAMILY or FAMILY@VERSION (a mode, if given, is ignored: a release installs every mode).
std::pair<const FamilyDef*, std::string> family_release(const std::string& text) {
  std::optional<BackendName> name = parse_backend_name(text);
  if (!name) get_family(text.substr(0, text.find_first_of("@:")));  // the unknown-family error
  return {name->family, name->version};
}

void install_backend(Session& s, const std::string& text, Output& out) {
  auto [family, version] = family_release(text);
  if (!install_with_progress(s, *family, version, out))
    out.print("{}@{} is installed already ({})", environment_family(*family).name,
              version.empty() ? default_version(*family) : version,
              environment_dir(*family, version));
}

// `backend use FAMILY --python PATH`: the family's default release runs in that environment.
void use_backend(Session& s, const std::string& text, const Args& args, Output& out) {
  auto python = args.option("--python");
  if (!python) fail("`backend use` needs --python PATH (the interpreter of the environment)");
  auto [family, version] = family_release(text);
  if (!version.empty())
    fail("`backend use` names a family, not a release: the environment has its own versions");
  use_python_environment(s, *family, *python, out);
}

void remove_backend(Session& s, const std::string& text, Output& out) {
  auto [family, version] = family_release(text);
  if (version.empty()) fail("`backend remove` needs FAMILY@VERSION; the default release stays");
  const FamilyDef& env = environment_family(*family);
  // Workers of that release must not run from a deleted environment.
  for (const auto& info : s.backends().list()) {
    std::optional<BackendName> n = find_backend_name(info.name);
    if (n && n->version == version && &environment_family(*n->family) == &env)
      s.backends().forget(info.name);
  }
  remove_version(env, version);
  out.print("removed {}@{}", env.name, version);
}

void list_versions(Session& s, const std::string& text, Output& out) {
  auto [family, version] = family_release(text);
  const FamilyDef& env = environment_family(*family);
  std::vector<std::string> installed = installed_versions(env);
  std::string def = default_version(env);
  out.print("{}: {} releases of {} ({}); default {}", env.name,
            env.installer == Installer::Npm ? "npm" : "PyPI", env.version_package,
            env.installer == Installer::Npm ? "npm view" : "PyPI's JSON API",
            def.empty() ? "none (no lock)" : def);
  out.print("installed: {}",
            installed.empty() ? "none" : fmt::format("{}", fmt::join(installed, " ")));
  s.cancel_flag().store(false);
  SigintCancels guard(s.cancel_flag());
  std::vector<PublishedVersion> published =
      published_versions(env, {.progress = {}, .cancel = &s.cancel_flag()});
  size_t usable = 0;
  for (const auto& p : published) usable += p.reason.empty();
  out.print("published: {} releases, {} installable here", published.size(), usable);
  for (const auto& p : published) {
    bool have = std::find(installed.begin(), installed.end(), p.version) != installed.end();
    std::string state = p.reason.empty() ? (have ? "installed" : "-") : p.reason;
    if (p.version == def) state += " (default)";
    out.print("  {:<14} {:<10}  {}", p.version, p.date.empty() ? "-" : p.date, state);
  }
}

// `backend bisect FAMILY A B` on the first finding of the last compare, with its input plan.
void bisect_backend(Session& s, const Args& args, Output& out) {
  const FamilyDef& family = get_family(args.positional[1]);
  const FamilyDef& env = environment_family(family);
  const CompareReport* report = s.compare_report();
  if (!report) fail("no compare results yet: run `compare` on the releases first");
  size_t n = 1;
  if (auto text = args.option("--finding")) n = parse_u64(*text, "--finding");
  const Finding* finding = report->bug(n);
  if (!finding) fail("the last compare has {} findings; there is no #{}", report->bug_count(), n);
  std::optional<BackendName> a = parse_backend_name(finding->backend_a);
  if (!a || &environment_family(*a->family) != &env)
    fail("finding #{} is on {}, not on a backend of {}", n, finding->backend_a, env.name);
  std::optional<BackendName> b;
  if (finding->oracle == Oracle::Optimization) b = parse_backend_name(finding->backend_b);

  auto release = [&](const std::string& word) {
    return word == "default" ? default_version(env) : word;
  };
  std::string from = release(args.positional[2]), to = release(args.positional[3]);
  std::vector<std::string> releases;
  if (args.has("--installed")) {
    releases = installed_versions(env);
  } else {
    for (const auto& p : published_versions(env, {.progress = {}, .cancel = &s.cancel_flag()}))
      if (p.reason.empty()) releases.push_back(p.version);
  }
  auto pos = [&](const std::string& v) {
    auto it = std::find(releases.begin(), releases.end(), v);
    if (it == releases.end())
      fail("{} {} is not among the {} releases{}", env.name, v,
           args.has("--installed") ? "installed" : "installable published",
           did_you_mean(v, releases));
    return it - releases.begin();
  };
  auto lo = pos(from), hi = pos(to);
  if (lo > hi) std::swap(lo, hi);
  releases = std::vector<std::string>(releases.begin() + lo, releases.begin() + hi + 1);
  out.print("bisecting {} over {} releases of {} ({} .. {})", finding->str(), releases.size(),
            env.name, releases.front(), releases.back());
  auto on_release = [&](const std::string& version) {
    install_with_progress(s, env, version, out);
    BackendName at = *a;
    at.version = version;
    Backend& side_a = s.backends().get(at.str());
    Backend* side_b = nullptr;
    if (b) {
      BackendName base = *b;
      base.version = version;
      side_b = &s.backends().get(base.str());
    }
    std::string cell;
    bool yes = finding_reproduces(*report, *finding, side_a, side_b, &cell);
    out.print("{}@{}: {} ({})", env.name, version, yes ? "reproduces" : "does not reproduce", cell);
    return yes;
  };
  BisectOutcome outcome = bisect_releases(releases, on_release);
  out.print("first {} release: {}@{} (last {}: {}; {} releases tested)",
            outcome.oldest_reproduces ? "good" : "bad", env.name, outcome.first_changed,
            outcome.oldest_reproduces ? "bad" : "good", outcome.last_same, outcome.tested);
}

// The families and their modes, from the registry (core/backend/family.h).
std::string family_help() {
  std::string text = "Families and their modes (* the default mode):\n";
  for (const auto& f : families()) {
    std::vector<std::string> modes;
    for (const auto& m : f.modes) modes.push_back(m.name == f.default_mode ? m.name + "*" : m.name);
    text += fmt::format("  {}: {}\n    modes {}\n    cannot run: {}\n", f.name, f.summary,
                        fmt::join(modes, ", "), f.cannot_run);
  }
  return text;
}

}  // namespace

SupportTable support_for(Session& s, const std::string& name, Output& out) {
  s.cancel_flag().store(false);
  SigintCancels guard(s.cancel_flag());
  return backend_support(
      s.backends().get(name), name,
      [&](size_t done, size_t all) {
        out.progress(fmt::format("graphs probed on {}", name), done, all);
      },
      &s.cancel_flag());
}

const PythonEnvironment& use_python_environment(Session& s, const FamilyDef& f,
                                                const std::string& python, Output& out) {
  s.cancel_flag().store(false);
  SigintCancels guard(s.cancel_flag());
  PythonEnvironment env = probe_python_environment(f, resolve_program(python), &s.cancel_flag());
  s.backends().use_environment(f, env);
  const FamilyDef& shared = environment_family(f);
  std::vector<std::string> names;
  for (const FamilyDef& other : families())
    if (&environment_family(other) == &shared) names.push_back(other.name);
  out.print("{} now run in {}", fmt::join(names, ", "), terminal_name(env.str()));
  return *s.backends().environment(f);
}

void register_backend_commands(CommandRegistry& r) {
  ArgSpec name{"NAME", Completion::BackendName};
  ArgSpec release{"FAMILY@VERSION", Completion::Release};
  ArgSpec family{"FAMILY", Completion::FamilyName};
  auto on_name = [](void (*f)(Session&, const std::string&, Output&)) -> CommandFn {
    return [f](Session& s, const Args& args, Output& out) { f(s, *args.arg(1), out); };
  };
  r.add(
      {.name = "backend",
       .options = {{"--cmd", "C", "the worker's command line (attach)"},
                   {"--timeout", "S", "seconds a worker may take per request (attach; default 30)"},
                   {"--option", "K=V", "options sent to the worker in hello, K=V,K=V... (attach)"},
                   {"--finding", "N", "bisect the N-th finding of the last compare (default 1)"},
                   {"--installed", "", "bisect over the installed releases only"},
                   {"--python", "PATH", "the interpreter of an existing environment (use)"}},
       .summary = "List, install, attach or bisect the compilers under test.",
       .help = family_help() +
               "A backend is FAMILY[@VERSION][:MODE]: a family alone is its default mode; without\n"
               "@VERSION it is the default release, pinned by scripts/backends/locks (ORT:\n"
               "scripts/backends/package-lock.json).",
       .actions =
           {{"list",
             {},
             "Each backend: its state (not started, ready, dead, ...), its version (the\n"
             "worker's own word once it ran, else the release), its options and its last error.",
             [](Session& s, const Args&, Output& out) { list_backends(s, out); }},
            {"attach",
             {{"NAME"}},
             "With --cmd \"PROGRAM ARGS...\", attaches any program that speaks the worker\n"
             "protocol (docs/backend-protocol.md). The command line is split into words as a\n"
             "shell would (quotes respected) and run directly, never through a shell. A worker\n"
             "starts on its first run, is restarted after it dies, and is killed when a request\n"
             "takes longer than its timeout.",
             [](Session& s, const Args& args, Output& out) {
               attach_backend(s, *args.arg(1), args, out);
             }},
            {"detach",
             {name},
             "Stops and removes an attached backend.",
             [](Session& s, const Args& args, Output& out) {
               s.backends().detach(*args.arg(1));
               out.print("detached {}", *args.arg(1));
             }},
            {"support",
             {name},
             "Which op x dtype pairs the backend runs: learnt once per backend and version by\n"
             "running a one-node graph of each op with each dtype, then cached in\n"
             "${XDG_CACHE_HOME:-~/.cache}/retort/support/. `gen --for` and `fuzz --for` draw\n"
             "from it.",
             [](Session& s, const Args& args, Output& out) {
               out.write(support_for(s, *args.arg(1), out).str());
             }},
            {"install",
             {release},
             "Installs a published release into ${XDG_CACHE_HOME:-~/.cache}/retort/envs (PyPI\n"
             "families: a uv environment; ORT: an npm prefix); naming a release in\n"
             "`compare --backends` installs it too.",
             on_name(install_backend)},
            {"versions",
             {family},
             "Lists the installed and the published releases (and why one cannot install here).",
             on_name(list_versions)},
            {"remove", {release}, "Deletes an installed release.", on_name(remove_backend)},
            {"use",
             {family},
             "With --python PATH, runs the family's default release (and the families sharing\n"
             "its environment: torch with inductor) in an existing Python environment instead,\n"
             "a CUDA torch or a nightly; its package versions are asked of it, shown by\n"
             "`backend list` and recorded by campaigns. Modes on a device (inductor:cuda,\n"
             "torch:cuda, xla:gpu, tvm:cuda) are listed as unavailable, with the reason, where\n"
             "the machine has none; their runs are unsupported.",
             [](Session& s, const Args& args, Output& out) {
               use_backend(s, *args.arg(1), args, out);
             }},
            {"bisect",
             {family, {"A", Completion::Release}, {"B", Completion::Release}},
             "Runs the check of the last compare's first finding (--finding N: the N-th), with\n"
             "its seed and input plan (`inputs --range full`, inputs fixed by hand), on the\n"
             "published releases from A to B (`default` is the default release) by binary\n"
             "search, installing each, and names the first release that behaves unlike the\n"
             "older end: the first bad one, or the first good one.",
             bisect_backend}},
       .default_action = "list"});
}

}  // namespace retort
