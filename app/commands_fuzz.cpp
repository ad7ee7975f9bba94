// `fuzz` runs a campaign (core/campaign) into the findings database (core/findings), and `gen`
// draws one graph; `findings` (commands_findings.cpp) reads what campaigns found.
// docs/campaigns.md.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "app/backend_names.h"
#include "app/command_line.h"
#include "app/commands.h"
#include "app/consent.h"
#include "app/sigint_cancels.h"
#include "core/backend/family.h"
#include "core/backend/support.h"
#include "core/base/error.h"
#include "core/base/option_number.h"
#include "core/base/terminal_text.h"
#include "core/base/version.h"
#include "core/campaign/campaign.h"
#include "core/campaign/known_bugs.h"
#include "core/campaign/review.h"
#include "core/campaign/strategy.h"
#include "core/gen/graph_gen.h"
#include "core/io/json_reader.h"
#include "core/ops/registry.h"
#include "core/rules/rule.h"

namespace retort {

namespace {

using Clock = std::chrono::steady_clock;

// The specs a job of --jobs is handed (--approved): those its parent runs, which the person
// attached or agreed to. A job attaches them and nothing else (campaign_backends).
void attach_approved(Session& s, const Args& args) {
  if (!args.has("--job")) {
    if (args.has("--approved")) fail("--approved goes with --job (what --jobs starts)");
    return;
  }
  std::vector<BackendSpec> approved;
  try {
    approved =
        backend_specs_from_json(nlohmann::json::parse(args.option("--approved").value_or("[]")));
  } catch (const nlohmann::json::exception& e) {
    fail("--approved: not a list of backend specs: {}", e.what());
  }
  for (const BackendSpec& b : backends_to_attach(
           s.backends(), approved, "the specs its parent handed this job (--approved)"))
    s.backends().attach(b.name, b.argv, b.timeout_s, b.options);
}

// The campaign's backends from the session. Attached ones the session lacks (a process resuming
// the campaign) are attached as the campaign recorded them: their commands come from the
// database, so they run only once the person agrees (app/consent.h); one the session has under
// the same name must run the same command. A job of --jobs has exactly its parent's specs
// (attach_approved) and no one to ask.
std::vector<Backend*> campaign_backends(Session& s, const CampaignOptions& o, const Args& args,
                                        const std::string& source, Output& out) {
  attach_approved(s, args);
  std::vector<BackendSpec> missing = backends_to_attach(s.backends(), o.attached, source);
  if (!missing.empty()) {
    if (!consent_to_commands(missing, source, args.has("--trust"), out))
      fail(
          "not resuming: Retort runs a file's commands only once you have seen and trusted them "
          "(`fuzz --resume --trust`), or attach backends of these names yourself first");
    for (const BackendSpec& b : missing)
      s.backends().attach(b.name, b.argv, b.timeout_s, b.options);
  }
  std::vector<Backend*> backends;
  for (const auto& name : o.backends) backends.push_back(&s.backends().get(name));
  return backends;
}

// The environment families of the backends that run a family's default release in Python
// ("inductor" for torch:eager and inductor): those `--python` can move.
std::set<std::string> python_families(const std::vector<std::string>& backends) {
  std::set<std::string> out;
  for (const auto& b : backends) {
    std::optional<BackendName> name = find_backend_name(b);
    if (!name || !name->version.empty()) continue;
    const FamilyDef& env = environment_family(*name->family);
    if (env.installer == Installer::Pypi) out.insert(env.name);
  }
  return out;
}

// --python PATH (every Python family of the campaign at its default release) or --python
// FAMILY=PATH,FAMILY=PATH: each named environment is probed and used from now on, as `backend
// use` does (the person named the interpreter here, so it may run).
void use_campaign_python(Session& s, const std::string& value,
                         const std::vector<std::string>& backends, bool quiet, Output& out) {
  std::set<std::string> mine = python_families(backends);
  std::map<std::string, std::string> named;
  for (const auto& item : split_list(value)) {
    size_t eq = item.find('=');
    const FamilyDef* f = eq == std::string::npos ? nullptr : find_family(item.substr(0, eq));
    if (!f) {
      named.clear();
      break;
    }
    named[environment_family(*f).name] = item.substr(eq + 1);
  }
  if (named.empty()) {
    if (mine.empty())
      fail("--python: none of the backends ({}) runs a family's default release in Python",
           fmt::join(backends, ", "));
    for (const auto& family : mine) named[family] = value;
  }
  for (const auto& [family, path] : named)
    if (!mine.count(family))
      fail("--python: no backend of the campaign ({}) runs {}'s default release",
           fmt::join(backends, ", "), family);
  StringOutput silent;
  for (const auto& [family, path] : named)
    use_python_environment(s, get_family(family), path, quiet ? silent : out);
}

// The environments of the user's that the campaign's families run in, from the session.
std::map<std::string, PythonEnvironment> campaign_environments(
    const Session& s, const std::vector<std::string>& backends) {
  std::map<std::string, PythonEnvironment> out;
  for (const auto& family : python_families(backends))
    if (const PythonEnvironment* env = s.backends().environment(get_family(family)))
      out[family] = *env;
  return out;
}

// A resumed campaign runs each family where it began. Its stored interpreter is only shown: the
// session must run it already (`backend use`) or be given it again (`--python`), because a
// findings database never makes Retort run an interpreter on its say-so.
void check_resumed_environments(const Session& s, const CampaignOptions& o,
                                const std::string& source) {
  std::map<std::string, PythonEnvironment> now = campaign_environments(s, o.backends);
  for (const auto& [family, env] : o.python) {
    auto it = now.find(family);
    if (it == now.end() || it->second.python != env.python)
      fail(
          "{} ran {} in {}; Retort runs an interpreter named in a findings database only when "
          "you name it too: `fuzz --resume --python {}={}`{}",
          source, family, terminal_name(env.str()), family, terminal_name(env.python),
          it == now.end()
              ? ""
              : fmt::format(" (this session runs it in {})", terminal_name(it->second.python)));
    if (it->second.versions != env.versions)
      fail(
          "{} ran {} in {}, which now has {}: a campaign goes on with the versions it began "
          "with; start a new one",
          source, family, terminal_name(env.str()), terminal_name(it->second.versions));
  }
  for (const auto& [family, env] : now)
    if (!o.python.count(family))
      fail(
          "{} ran {} in Retort's own environment, but this session runs it in {} (`backend "
          "use`): resume it in a session without that",
          source, family, terminal_name(env.python));
}

// The specs of the attached backends a new campaign uses, to be recorded with it.
std::vector<BackendSpec> attached_specs(const Session& s, const std::vector<std::string>& names) {
  std::vector<BackendSpec> specs;
  for (const BackendSpec& b : s.backends().attached())
    if (std::find(names.begin(), names.end(), b.name) != names.end()) specs.push_back(b);
  return specs;
}

}  // namespace

GenOptions gen_options_from(Session& s, const Args& args, GenOptions g, Output& out) {
  if (auto v = args.option("--nodes")) {
    auto [lo, hi] = parse_int_range(*v, "--nodes");
    if (lo < 1) fail("--nodes: a graph needs at least 1 node");
    g.min_nodes = lo;
    g.max_nodes = hi;
  }
  if (auto v = args.option("--dtypes")) {
    g.dtypes.clear();
    for (const auto& name : split_list(*v)) {
      auto t = parse_dtype(name);
      if (!t) fail("--dtypes: unknown dtype '{}'", name);
      g.dtypes.push_back(*t);
    }
    if (g.dtypes.empty()) fail("--dtypes: name at least one dtype");
  }
  if (auto v = args.option("--ops")) {
    g.ops = split_list(*v);
    for (const auto& op : g.ops) OpRegistry::instance().get(op);
  }
  if (auto v = args.option("--rank")) g.max_rank = static_cast<int>(parse_u64(*v, "--rank"));
  if (auto v = args.option("--shapes")) g.shape_classes = parse_fraction(*v, "--shapes");
  if (auto v = args.option("--for")) g.op_dtypes = support_for(s, *v, out).supported();
  return g;
}

namespace {

// Per op, the dtypes every release among the backends runs: each release is probed once (through
// its baseline mode) and its table cached, so a campaign draws nothing a release cannot run.
std::map<std::string, std::set<DType>> campaign_support(Session& s,
                                                        const std::vector<std::string>& backends,
                                                        Output& out) {
  std::set<std::string> probes;
  for (const auto& b : backends)
    if (std::string probe = release_probe(b); !probe.empty()) probes.insert(probe);
  std::vector<SupportTable> tables;
  for (const auto& probe : probes) tables.push_back(support_for(s, probe, out));
  return supported_by_all(tables);
}

// --forms all|none|FORM,...: the program forms a campaign's cases draw from (validate() checks
// the names).
std::vector<std::string> parse_forms(const std::string& text) {
  if (text == "all") return program_form_kinds();
  if (text == "none") return {};
  return split_list(text);
}

// The generation, saturation and variant options of a new campaign.
CampaignOptions options_from(Session& s, const Args& args, Output& out) {
  CampaignOptions o;
  o.seed = s.seed();
  if (auto v = args.option("--seed")) o.seed = parse_u64(*v, "--seed");
  if (auto v = args.option("--strategy")) o.strategies = split_list(*v);
  o.backends = default_backends(o.strategies);
  if (auto v = args.option("--backends")) o.backends = split_list(*v);
  if (auto v = args.option("--python")) use_campaign_python(s, *v, o.backends, false, out);
  o.python = campaign_environments(s, o.backends);
  o.gen = gen_options_from(s, args, o.gen, out);
  if (!args.option("--for")) o.gen.op_dtypes = campaign_support(s, o.backends, out);
  if (auto v = args.option("--rules")) o.rules = split_list(*v);
  if (auto v = args.option("--wide-values")) o.wide_values = parse_fraction(*v, "--wide-values");
  for (const StrategyDef& strategy : strategies())
    for (const StrategyOption& option : strategy.options)
      if (auto v = args.option(option.name)) option.set(o, *v);
  if (auto v = args.option("--forms")) o.forms = parse_forms(*v);
  if (auto v = args.option("--shard")) std::tie(o.shard, o.shards) = parse_shard(*v);
  o.validate();             // the same check a stored campaign's options pass (`fuzz --resume`)
  campaign_rules(o.rules);  // a bad rule set name is an error now, not in every case
  o.attached = attached_specs(s, o.backends);
  return o;
}

// What may accompany --resume: the campaign keeps its own options.
void check_resume_args(const Args& args) {
  for (const auto& [name, value] : args.options)
    if (name != "--resume" && name != "--time" && name != "--cases" && name != "--db" &&
        name != "--jobs" && name != "--quiet" && name != "--job" && name != "--no-opinion" &&
        name != "--no-reduce" && name != "--review-time" && name != "--trust" &&
        name != "--rules" && name != "--python" && name != "--approved")
      fail("--resume continues the campaign with its own options; {} cannot change them", name);
}

// How long a campaign runs, for the campaign pane: "300 cases", "600 s", or both.
std::string budget_text(double seconds, uint64_t cases) {
  std::vector<std::string> parts;
  if (cases > 0) parts.push_back(fmt::format("{} cases", cases));
  if (seconds > 0) parts.push_back(fmt::format("{:g} s", seconds));
  return parts.empty() ? "until Ctrl-C" : fmt::format("{}", fmt::join(parts, " or "));
}

// --time bounds the whole command, the review at the end included: the cases get the budget
// less the review's share (a quarter, at most --review-time), the review what the cases left.
struct CommandBudget {
  Clock::time_point start = Clock::now();
  double seconds = 0;  // 0: no --time

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start).count(); }
  double seconds_left() const { return std::max(0.0, seconds - elapsed()); }
};

// The review's switches and deadline as the command line gives them.
ReviewOptions review_options(const Args& args) {
  ReviewOptions review;
  review.opinion = !args.has("--no-opinion");
  review.reduce = !args.has("--no-reduce");
  if (auto v = args.option("--review-time")) review.seconds = parse_seconds(*v, "--review-time");
  return review;
}

// The seconds of a --time budget the cases may take.
double case_seconds(const Args& args, double budget) {
  ReviewOptions review = review_options(args);
  if (!review.opinion && !review.reduce) return budget;
  return budget - std::min(review.seconds, budget / 4);
}

// Every case's progress goes to the front end (Output::progress: a line redrawn in place, a
// status line every 10 s, the status bar) and to the session (the workbench's campaign pane);
// then the review's, finding by finding.
class ProgressDisplay {
 public:
  ProgressDisplay(Output& out, Session& s, CampaignStatus status, const CampaignOptions& o,
                  const CommandBudget& budget)
      : out_(out), s_(s), status_(std::move(status)), cases_(o.cases), budget_(budget) {}
  void show(const CampaignStats& stats) {
    status_.stats = stats;
    status_.running = true;
    s_.publish_campaign(status_);
    // A time budget has its ETA in the time left; a case budget in the cases left.
    std::string left = budget_.seconds > 0 && cases_ == 0
                           ? fmt::format(", {:.0f} s left", budget_.seconds_left())
                           : "";
    out_.progress(fmt::format("cases, {}{}", stats.line(), left), stats.cases, cases_);
  }
  void finish(const CampaignStats& stats) {
    status_.stats = stats;
    status_.running = false;
    s_.publish_campaign(status_);
  }
  // Before the k-th of the n findings a phase of the review takes; `ends_by`: when the review
  // stops at the latest, in seconds since the command started (the progress line's clock counts
  // the same).
  void reviewing(const std::string& phase, size_t k, size_t n, double ends_by) {
    status_.review = fmt::format("reviewing {}/{}", k, n);
    s_.publish_campaign(status_);
    out_.progress(
        fmt::format("{} new findings ({}), ends by {:.0f} s", status_.review, phase, ends_by));
  }
  void review_done() {
    status_.review.clear();
    s_.publish_campaign(status_);
  }

 private:
  Output& out_;
  Session& s_;
  CampaignStatus status_;
  uint64_t cases_;
  const CommandBudget& budget_;
};

// Starts a job: a process of this program that dies with this one, however this one ends (a
// kill -9 included: the parent-death signal), in the jobs' own process group (`group`, 0 for the
// first), so that the terminal's Ctrl-C reaches this process only and it tells the jobs.
// Between fork and exec only system calls run. Returns -1 (errno set) when it cannot start.
pid_t start_job(const std::vector<char*>& argv, pid_t group) {
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid != 0) return pid;
  setpgid(0, group);
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(127);  // died already
  execv("/proc/self/exe", argv.data());
  _exit(127);
}

// --jobs N: N processes of this program run the campaign's cases (each `fuzz --resume --job
// J/N`, writing to the same database); this one shows their progress from the database.
CampaignStats run_jobs(FindingsDb& db, int64_t campaign, const CampaignOptions& o, uint64_t jobs,
                       const std::vector<BackendSpec>& approved, std::atomic<bool>& cancel,
                       ProgressDisplay& progress) {
  // The campaign's rule files, which the jobs read on this process's word (check_stored_rules).
  std::vector<std::string> builtin = builtin_rule_set_names(), files;
  for (const auto& r : o.rules)
    if (std::find(builtin.begin(), builtin.end(), r) == builtin.end()) files.push_back(r);
  std::vector<pid_t> children;
  for (uint64_t j = 0; j < jobs; ++j) {
    // The attached backends this process runs, attached by the person or with their consent:
    // the jobs run these and refuse any other command the database names.
    std::vector<std::string> words{"retort",     "fuzz",
                                   "--resume",   "--quiet",
                                   "--db",       db.path(),
                                   "--job",      fmt::format("{}/{}", j, jobs),
                                   "--approved", backend_specs_json(approved).dump()};
    if (o.seconds > 0) words.insert(words.end(), {"--time", fmt::format("{}", o.seconds)});
    if (o.cases > 0) words.insert(words.end(), {"--cases", fmt::format("{}", o.cases)});
    if (!files.empty())
      words.insert(words.end(), {"--rules", fmt::format("{}", fmt::join(files, ","))});
    // The environments this process uses, on the person's word (the jobs run them again).
    std::vector<std::string> python;
    for (const auto& [family, env] : o.python) python.push_back(family + "=" + env.python);
    if (!python.empty())
      words.insert(words.end(), {"--python", fmt::format("{}", fmt::join(python, ","))});
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    pid_t pid = start_job(argv, children.empty() ? 0 : children.front());
    if (pid < 0) {
      for (pid_t c : children) kill(c, SIGINT);
      fail("--jobs: cannot start job {}: {}", j, std::strerror(errno));
    }
    children.push_back(pid);
  }
  auto start = Clock::now();
  bool told = false;
  size_t running = children.size();
  std::vector<std::string> failed;
  while (running > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    if (cancel && !told) {
      for (pid_t c : children) kill(c, SIGINT);  // each ends after its case in flight
      told = true;
    }
    for (size_t j = 0; j < children.size(); ++j) {
      if (children[j] <= 0) continue;
      int status = 0;
      if (waitpid(children[j], &status, WNOHANG) != children[j]) continue;
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        failed.push_back(fmt::format("job {} ended with status {}", j, status));
      children[j] = -1;
      --running;
    }
    CampaignStats stats = campaign_stats(db, campaign);
    stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    progress.show(stats);
  }
  if (!failed.empty()) fail("fuzz: {}", fmt::join(failed, "; "));
  CampaignStats stats = campaign_stats(db, campaign);
  stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return stats;
}

// The end of a campaign (core/campaign/review.h): a second opinion and a reduction for each new
// distinct finding, then findings with one root merged; within --review-time and what is left of
// the command's --time.
void review_findings(Session& s, FindingsDb& db, int64_t campaign, const CampaignOptions& o,
                     const Args& args, bool quiet, const CommandBudget& budget,
                     ProgressDisplay& progress, Output& out) {
  ReviewOptions review = review_options(args);
  if (!review.opinion && !review.reduce) return;
  if (budget.seconds > 0) review.seconds = std::min(review.seconds, budget.seconds_left());
  if (review.opinion) review.extra = opinion_backends(o.backends);
  std::atomic<bool>& cancel = s.cancel_flag();
  cancel = false;
  SigintCancels guard(cancel);
  review.cancel = &cancel;
  if (!quiet)
    review.progress = [&](const std::string& line) {
      out.print("  review {}", terminal_name(line));
    };
  double ends_by = budget.elapsed() + review.seconds;
  review.starting = [&](const std::string& phase, size_t k, size_t n) {
    progress.reviewing(phase, k, n, ends_by);
  };
  ReviewStats r = review_campaign(
      db, campaign, o, [&](const std::string& name) -> Backend& { return s.backends().get(name); },
      review);
  progress.review_done();
  if (r.reviewed == 0 && r.known == 0 && r.left == 0 && r.unasked == 0) return;
  out.print(
      "review: {} findings, {} of known bugs, {} reference disputed, {} reduced, {} merged into "
      "others{}",
      r.reviewed + r.known, r.known, r.disputed, r.reduced, r.merged,
      r.left ? fmt::format("; {} left for lack of time (`fuzz --resume` goes on)", r.left) : "");
  if (r.unasked)
    out.print("review: {} without a second opinion for lack of time (`fuzz --resume` asks)",
              r.unasked);
  if (!quiet) out.print("review phases: {}", r.phases_line());
}

void run_fuzz(Session& s, const Args& args, Output& out) {
  const Clock::time_point started = Clock::now();
  std::string path = findings_db_path(args);
  bool resume = args.has("--resume");
  if (resume) check_resume_args(args);
  std::optional<double> seconds;
  std::optional<uint64_t> cases;
  if (auto v = args.option("--time")) seconds = parse_seconds(*v, "--time");
  if (auto v = args.option("--cases")) cases = parse_u64(*v, "--cases");
  uint64_t jobs = 1, job = 0;
  if (auto v = args.option("--jobs")) jobs = parse_u64(*v, "--jobs");
  if (auto v = args.option("--job")) {
    std::tie(job, jobs) = parse_shard(*v);
    if (!resume) fail("--job J/N runs one job of an existing campaign: it goes with --resume");
  }
  if (jobs == 0 || jobs > kMaxJobs) fail("--jobs: between 1 and {}, not {}", kMaxJobs, jobs);
  // A new campaign's options and backends are checked before the database is made.
  CampaignOptions o;
  if (!resume) o = options_from(s, args, out);
  std::vector<Backend*> backends;
  if (!resume) backends = campaign_backends(s, o, args, "", out);
  FindingsDb db = FindingsDb::open(path, !resume);
  int64_t campaign = 0;
  if (resume) {
    auto last = db.last_campaign();
    if (!last && db.campaign_count() > 0)
      fail("{}: no campaign to resume: its campaigns were all merged in from other databases",
           path);
    if (!last) fail("{}: no campaign to resume", path);
    campaign = last->id;
    try {
      o = CampaignOptions::from_json(
          parse_json_text(last->options, fmt::format("{}: campaign {} options", path, campaign)));
    } catch (const nlohmann::json::exception& e) {
      fail("{}: campaign {} has unreadable options: {}", path, campaign, e.what());
    }
    o.seconds = 0;
    std::vector<std::string> named = split_list(args.option("--rules").value_or(""));
    for (const auto& file : named)
      if (std::find(o.rules.begin(), o.rules.end(), file) == o.rules.end())
        fail(
            "--rules with --resume names the campaign's rule files to read; '{}' is not one "
            "of them ({})",
            file, fmt::join(o.rules, ", "));
    check_stored_rules(o, named);
    std::string source =
        fmt::format("campaign {} of findings database {}", campaign, terminal_name(path));
    if (auto v = args.option("--python"))
      use_campaign_python(s, *v, o.backends, args.has("--job"), out);
    check_resumed_environments(s, o, source);
    backends = campaign_backends(s, o, args, source, out);
  }
  CommandBudget budget{.start = started, .seconds = seconds.value_or(0)};
  // A job's --time is its parent's case share already.
  if (seconds) o.seconds = args.has("--job") ? *seconds : case_seconds(args, *seconds);
  if (cases) o.cases = *cases;
  if (!resume && !args.has("--include-known")) {
    // The budget goes to bugs not known yet: the triggers of the known bugs of these backends
    // (and of this database's own roots) are drawn less. Stored with the options, so --resume
    // draws the same cases.
    o.gen.avoid = known_triggers(known_bugs(db), o.backends);
    if (!o.gen.avoid.empty() && !args.has("--quiet")) {
      std::vector<std::string> drawn_less;
      for (const NodePattern& p : o.gen.avoid) drawn_less.push_back(p.str());
      out.print("drawn less (known bugs of these backends; --include-known draws them too): {}",
                fmt::join(drawn_less, "; "));
    }
  }
  if (!resume) {
    campaign = db.add_campaign({0, utc_now(), o.to_json().dump(), std::string(kRetortVersion), "{}",
                                o.seed, o.shard, o.shards});
  }
  bool quiet = args.has("--quiet");
  bool child = args.has("--job");
  // One process runs a campaign (with its jobs): a second resume would run the same cases.
  std::optional<CampaignLock> lock;
  if (!child) lock.emplace(path, campaign);
  std::atomic<bool>& cancel = s.cancel_flag();
  cancel = false;
  SigintCancels guard(cancel);
  ProgressDisplay progress(
      out, s, {campaign, path, budget_text(budget.seconds, o.cases), {}, true, {}}, o, budget);
  // --time counts from the command's start: what it did before the first case (the support
  // probe, seconds on a loaded machine) is spent, so the review keeps its share.
  std::optional<Clock::time_point> deadline;
  if (seconds)
    deadline = started + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(o.seconds));
  CampaignStats stats;
  if (jobs > 1 && !child) {
    CampaignOptions left = o;  // the jobs start now: they get what is left of the cases' share
    if (deadline)
      left.seconds =
          std::max(0.001, std::chrono::duration<double>(*deadline - Clock::now()).count());
    stats = run_jobs(db, campaign, left, jobs, attached_specs(s, o.backends), cancel, progress);
  } else {
    CampaignRun run{campaign, o,       job,
                    jobs,     &cancel, [&](const CampaignStats& st) { progress.show(st); }};
    run.deadline = deadline;
    stats = run_campaign(db, run, backends);
  }
  progress.finish(stats);
  if (child) return;
  std::string stopped = cancel ? " (stopped; `fuzz --resume` continues)" : "";
  if (quiet) {
    out.print("fuzz: campaign {} in {}: {} cases, {}{}", campaign, terminal_name(path), stats.cases,
              stats.counts(), stopped);
    if (!cancel) review_findings(s, db, campaign, o, args, quiet, budget, progress, out);
    return;
  }
  out.print("fuzz: campaign {} in {}: {} cases in {:.1f} s ({:.1f} cases/s), {}{}", campaign,
            terminal_name(path), stats.cases, stats.seconds, stats.cases_per_second(),
            stats.counts(), stopped);
  out.print("per case: {}", stats.stages());
  // The kinds name the backends of every finding in the database, a merged shard's too.
  for (const auto& [kind, n] : stats.by_kind) out.print("  {:>6}  {}", n, terminal_name(kind));
  if (!cancel) review_findings(s, db, campaign, o, args, quiet, budget, progress, out);
}

void run_gen(Session& s, const Args& args, Output& out) {
  GenOptions g = gen_options_from(s, args, CampaignOptions::default_gen(), out);
  uint64_t seed = s.seed();
  if (auto v = args.option("--seed")) seed = parse_u64(*v, "--seed");
  s.set_graph(generate_graph(g, seed));
  const Graph& graph = s.graph();
  out.print("generated {} ({} nodes, {} inputs, {} outputs) with seed {}", graph.name,
            graph.op_count(), graph.inputs.size(), graph.outputs.size(), seed);
}

}  // namespace

std::vector<OptionSpec> gen_option_specs() {
  return {{"--nodes", "N|LO..HI", "op nodes per generated graph (default 10)"},
          {"--dtypes", "T,T,...", "element types to draw (default: all but bf16)"},
          {"--ops", "OP,OP,...", "ops to draw (default: all)", Completion::OpName},
          {"--rank", "N", "highest rank of a value (default 4)"},
          {"--for", "BACKEND", "draw only op x dtype pairs BACKEND runs (`backend support`)",
           Completion::BackendName},
          {"--shapes", "P",
           fmt::format("the chance that a graph takes its shapes from a class: lengths past "
                       "vector widths, a size-0 dim, size-1 dims, a dim of 16k-64k (default {:g} "
                       "in fuzz, 0 in gen)",
                       CampaignOptions::campaign_gen().shape_classes)}};
}

void register_fuzz_commands(CommandRegistry& r) {
  OptionSpec db = findings_db_option();
  std::vector<OptionSpec> gen_options = gen_option_specs();
  OptionSpec seed{"--seed", "S", "the seed (default: the session seed)"};
  std::vector<OptionSpec> gen_with_seed = gen_options;
  gen_with_seed.push_back(seed);
  r.add({.name = "gen",
         .options = gen_with_seed,
         .summary = "Generate a random well-typed graph as the current graph.",
         .help = "Draws a graph from the seed (the same seed and options give the same graph):\n"
                 "ops and attributes from the registry, every node typed by its inference rule,\n"
                 "inputs with the value domains their readers need, so no input makes an op\n"
                 "undefined. With --for BACKEND only the op x dtype pairs that backend runs are\n"
                 "drawn (probed once per backend version, see `backend support`). See\n"
                 "docs/generator.md.",
         .run = run_gen});
  std::vector<OptionSpec> fuzz_options = {
      {"--backends", "B,B,...",
       fmt::format("the backends to compare (default {})",
                   fmt::join(CampaignOptions{}.backends, ",")),
       Completion::BackendName},
      gen_options[0],
      gen_options[1],
      gen_options[2],
      gen_options[3],
      gen_options[4],
      gen_options[5],
      seed,
      {"--time", "S",
       "a deadline for the whole command, review included: it ends within S seconds"},
      {"--cases", "N", "stop once case indices reach N (with --shard: of all shards)"},
      {"--wide-values", "P",
       fmt::format("the chance that a case draws its inputs with the wide plan: integers past "
                   "2^31, 2^53 and narrow wrap points (default {:g})",
                   CampaignOptions{}.wide_values)},
      {"--strategy", "S,...",
       fmt::format("how cases make programs: {}; several take turns (default {})",
                   fmt::join(strategy_names(), ", "),
                   fmt::join(CampaignOptions{}.strategies, ","))},
      {"--python", "[FAMILY=]PATH,...",
       "run the Python families in an existing environment (as `backend use`); stored with the "
       "campaign, run on --resume only when named again"},
      {"--rules", "SET,...",
       "built-in rule sets or .rules files (default polyjuice); with --resume: the "
       "campaign's rule files, which it reads only when named here"},
      {"--forms", "all|none|F,...",
       fmt::format("the program forms a case may ask of torch.compile (default all): {}",
                   fmt::join(program_form_kinds(), ", "))}};
  // Each strategy's own options (core/campaign/strategies/), in the registry's order.
  for (const StrategyDef& strategy : strategies())
    for (const StrategyOption& option : strategy.options)
      fuzz_options.push_back({option.name, option.value_name, option.doc});
  fuzz_options.insert(
      fuzz_options.end(),
      {{"--jobs", "N", "run N worker processes in parallel"},
       db,
       {"--resume", "", "continue the database's last campaign where it stopped"},
       {"--trust", "",
        "with --resume: run the worker commands the campaign's attached backends name"},
       {"--shard", "K/N", "run only cases i with i mod N = K (one host of N)"},
       {"--job", "J/N", "with --resume: run job J of N (what --jobs starts)"},
       {"--approved", "JSON",
        "with --job: the attached backends' specs its parent runs; the job runs no other command"},
       {"--quiet", "", "no progress; a summary without timings"},
       {"--no-opinion", "", "no second opinion on the new findings"},
       {"--no-reduce", "", "do not reduce the new findings"},
       {"--review-time", "S",
        "a deadline for the review at the end (default 120; with "
        "--time, also what the cases left of it)"},
       {"--include-known", "",
        "draw the trigger patterns of known bugs as often as the rest (default: less)"}});
  r.add({.name = "fuzz",
         .options = fuzz_options,
         .summary = "Run a fuzz campaign: generate, saturate, extract, compare, record.",
         .help =
             "POLYJUICE's loop, once per case: generate a random graph, build its e-graph,\n"
             "saturate under the limits, extract min, max, K random variants and the maximal\n"
             "graph after each iteration but the last, compare them on the backends and record\n"
             "every failure in the findings database, one row per signature with a count.\n"
             "--strategy tensure makes each case an einsum drawn by TENSURE's Algorithm 3 and\n"
             "two operand permutations of it instead, in half the cases with operands stored\n"
             "sparse (JAX BCOO) on the xla backends (alone, its default backends are\n"
             "ref,ort:O0,ort:O3,xla:nojit,xla); with several strategies case i takes the\n"
             "(i mod n)-th (docs/techniques.md). --strategy hirfuzz compares a graph with\n"
             "the same collapsed into functions and with its call chain rewritten, or (level 0,\n"
             "probability --relax) runs a graph that breaks constraints for crashes only.\n"
             "Crashes and errors are told apart by the similarity of their texts.\n"
             "--strategy torchprobe mutates the Python program the torch and xla backends run\n"
             "(alone, its default backends are ref,torch:eager,inductor).\n"
             "Case i draws from a seed derived from (campaign seed, i), so shards and jobs split\n"
             "the same stream and --resume continues it. A compiler that crashes or hangs is a\n"
             "finding; its worker is restarted (once per case after a timeout). A worker that\n"
             "never answers hello is an infrastructure problem of the case, not a finding.\n"
             "--time S is a deadline for the whole command: the cases get S less the review's\n"
             "share (a quarter of S, at most --review-time), a run still going then is stopped\n"
             "and its case left for --resume, and the review gets what the cases left, so the\n"
             "command ends within S seconds; the progress line says \"reviewing k/N\" during\n"
             "the review, and the findings left unreviewed say so. Ctrl-C ends after the case\n"
             "in flight; every\n"
             "finished case is in the database (one transaction each). Without --time or\n"
             "--cases it runs until Ctrl-C. At the end the new distinct findings are reviewed\n"
             "in phases over all of them, cheapest first, until the --review-time deadline:\n"
             "the known-bug check, the roots found before, a reduction of the rest (most\n"
             "frequent first, each within its share of the time), then a second opinion (its\n"
             "case run on onnx-ref and every installed family, running workers first: who\n"
             "agrees with whom; \"reference disputed\" when the two references disagree) and\n"
             "the guilty passes. A run still going at the deadline is stopped and what is left\n"
             "stays for --resume; findings whose reduced graphs share a root (the backend and\n"
             "the failing op) merge into one. A finding that a known bug explains (docs/bugs.md's\n"
             "library, or a root added with `findings known add`) is labelled so when first\n"
             "recorded and not reviewed again; the known bugs' trigger patterns are drawn less\n"
             "unless --include-known. --resume shows the worker commands of attached\n"
             "backends this session lacks, stored with the campaign, and runs them only when\n"
             "the console's question is answered yes or with --trust; one attached here under\n"
             "the same name must run the same command. --jobs hands its jobs exactly the\n"
             "commands this process runs. --python PATH runs the campaign's Python families\n"
             "in that environment (as `backend use`); the campaign stores it, and --resume\n"
             "runs it only when named again. See docs/campaigns.md.",
         .run = run_fuzz,
         .restorable = false});
}

}  // namespace retort
