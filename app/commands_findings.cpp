// `findings` lists, shows, opens, exports, reports and merges what campaigns found in a findings
// database (core/findings); `fuzz` (commands_fuzz.cpp) fills it. docs/campaigns.md, docs/bugs.md.
#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "app/backend_names.h"
#include "app/commands.h"
#include "app/issue_bundle.h"
#include "core/base/error.h"
#include "core/base/suggest.h"
#include "core/base/terminal_text.h"
#include "core/base/words.h"
#include "core/campaign/blame.h"
#include "core/campaign/campaign_options.h"
#include "core/campaign/finding_replay.h"
#include "core/campaign/known_bugs.h"
#include "core/campaign/review.h"
#include "core/compare/verdict.h"
#include "core/io/json_reader.h"
#include "core/io/rtg.h"

namespace retort {

std::string findings_db_path(const Args& args) {
  return args.option("--db").value_or(FindingsDb::default_path());
}

OptionSpec findings_db_option() {
  return {"--db", "FILE",
          "the findings database (default ${XDG_DATA_HOME:-~/.local/share}/retort/findings.db)",
          Completion::FilePath};
}

namespace {

// How strongly a finding's second opinion accuses the compiler, for sorting: fewest backends
// differing first, then most agreeing with the reference; unreviewed ones after, and those no
// backend differs on any more last (the disputed ones have their own list).
std::tuple<int, size_t, size_t> accusation_rank(const std::optional<Agreement>& a) {
  if (!a) return {1, 0, 0};
  if (a->differ.empty()) return {2, 0, 0};
  return {0, a->differ.size(), static_cast<size_t>(-1) - a->agree.size()};
}

// The blames of a database that name only their families' own passes (declared_blame), by
// signature key.
std::map<std::string, PassBlame> declared_blames(const FindingsDb& db) {
  std::map<std::string, PassBlame> out = db.blames();
  std::erase_if(out, [](const auto& entry) { return !declared_blame(entry.second); });
  return out;
}

// Why a review merged findings: their one root, or their one case where the review found no root
// (core/campaign/review.cpp merge_by_root).
std::string merge_reason(const FindingReview& r) {
  return r.root.empty() ? "one case, no root found"
                        : fmt::format("one root: {}", terminal_name(r.root));
}

// For each finding whose blame names the same passes of one release as an older one's: that
// older finding (the oldest of them), with which it is one root candidate.
std::map<int64_t, int64_t> same_pass_as(const std::vector<FindingRecord>& all,
                                        const std::map<std::string, PassBlame>& blames) {
  std::map<std::string, int64_t> oldest;  // blame_root -> smallest id
  for (const auto& f : all) {
    auto b = blames.find(f.signature.key());
    if (b == blames.end() || blame_root(b->second).empty()) continue;
    auto [it, fresh] = oldest.emplace(blame_root(b->second), f.id);
    if (!fresh) it->second = std::min(it->second, f.id);
  }
  std::map<int64_t, int64_t> out;
  for (const auto& f : all) {
    auto b = blames.find(f.signature.key());
    if (b == blames.end() || blame_root(b->second).empty()) continue;
    int64_t first = oldest[blame_root(b->second)];
    if (first != f.id) out[f.id] = first;
  }
  return out;
}

// The findings a known bug explains, one line per bug with their summed count, after the new
// ones: "row 1   x23  #1, #4, #9: MaxPool with auto_pad SAME ...".
void list_known(const FindingsDb& db, const std::vector<FindingRecord>& known, Output& out) {
  std::map<std::string, std::string> summaries;
  for (const KnownBug& bug : known_bugs(db)) summaries[bug.label] = bug.summary;
  std::map<std::string, std::pair<int64_t, std::vector<std::string>>> by_label;
  std::vector<std::string> order;  // labels in the order of their newest finding
  for (const FindingRecord& f : known) {
    auto [it, fresh] = by_label.try_emplace(f.known);
    if (fresh) order.push_back(f.known);
    it->second.first += f.count;
    it->second.second.push_back(fmt::format("#{}", f.id));
  }
  out.print("known bugs ({} finding{}; `findings known` lists the library):", known.size(),
            known.size() == 1 ? "" : "s");
  for (const std::string& label : order) {
    auto& [count, ids] = by_label[label];
    std::reverse(ids.begin(), ids.end());  // oldest first
    auto summary = summaries.find(label);
    out.print("  {:<7} x{:<5} {}: {}", terminal_name(label), count, fmt::join(ids, ", "),
              summary == summaries.end() ? std::string("(no longer in the library)")
                                         : terminal_name(summary->second));
  }
}

void list_findings(const FindingsDb& db, Output& out) {
  auto everything = db.findings();
  if (everything.empty()) {
    out.print("no findings in {}", db.path());
    return;
  }
  // New roots first; those a known bug explains one line per bug at the end.
  std::vector<FindingRecord> all, known;
  for (FindingRecord& f : everything) (f.known.empty() ? all : known).push_back(std::move(f));
  if (all.empty()) {
    out.print("no new findings in {}", terminal_name(db.path()));
    list_known(db, known, out);
    return;
  }
  std::map<std::string, PassBlame> blames = declared_blames(db);
  std::map<int64_t, int64_t> same_pass = same_pass_as(all, blames);
  std::map<std::string, FindingReview> reviews = db.reviews();
  std::map<int64_t, std::vector<int64_t>> merged;  // root id -> findings merged into it
  std::map<int64_t, std::optional<Agreement>> agreements;
  int64_t total = 0;
  for (const auto& f : all) {
    total += f.count;
    auto r = reviews.find(f.signature.key());
    if (r == reviews.end()) continue;
    if (r->second.merged_into) merged[r->second.merged_into].push_back(f.id);
    agreements[f.id] = Agreement::from_json(r->second.agreement);
  }
  // Findings the two references dispute are listed apart, after the rest: one of Retort's own
  // references is wrong there, so they are no root candidates until a person has looked.
  std::vector<const FindingRecord*> shown, disputed_shown;
  size_t roots = 0;
  for (const auto& f : all) {
    auto r = reviews.find(f.signature.key());
    bool is_disputed = r != reviews.end() && r->second.disputed;
    (is_disputed ? disputed_shown : shown).push_back(&f);
    roots +=
        !is_disputed && (r == reviews.end() || !r->second.merged_into) && !same_pass.count(f.id);
  }
  std::stable_sort(shown.begin(), shown.end(), [&](const FindingRecord* a, const FindingRecord* b) {
    return accusation_rank(agreements[a->id]) < accusation_rank(agreements[b->id]);
  });
  if (reviews.empty() && same_pass.empty()) {
    out.print("{} in {}, newest first (xN: seen N times):",
              findings_count_text(all.size(), static_cast<uint64_t>(total)),
              terminal_name(db.path()));
  } else {
    out.print(
        "{} in {}, {} after merging, {} reference disputed; those one backend alone gets wrong "
        "first (xN: seen N times):",
        findings_count_text(all.size(), static_cast<uint64_t>(total)), terminal_name(db.path()),
        roots, disputed_shown.size());
  }
  if (!known.empty()) {
    int64_t seen = 0;
    for (const FindingRecord& f : known) seen += f.count;
    out.print("  (and {} of known bugs, listed last: one line per bug)",
              findings_count_text(known.size(), static_cast<uint64_t>(seen)));
  }
  // A database is a file someone may send: what it holds prints through terminal_name.
  auto print_finding = [&](const FindingRecord* f) {
    out.print("  #{:<4} x{:<5} {}  ({} on {}, case {})", f->id, f->count,
              terminal_name(f->signature.str()), terminal_name(f->backend_a),
              terminal_name(f->graph_a), f->case_index);
    if (!f->unreadable.empty()) out.print("        unreadable: {}", terminal_name(f->unreadable));
    if (const auto& a = agreements[f->id]) out.print("        {}", terminal_name(a->str()));
    const FindingReview& r = reviews[f->signature.key()];
    if (r.merged_into) out.print("        merged into #{} ({})", r.merged_into, merge_reason(r));
    if (merged.count(f->id)) {
      std::vector<std::string> ids;
      for (int64_t id : merged[f->id]) ids.push_back(fmt::format("#{}", id));
      out.print("        merged: {} ({})", fmt::join(ids, ", "), merge_reason(r));
    }
    if (auto b = blames.find(f->signature.key()); b != blames.end())
      out.print("        pass {}", terminal_name(blame_text(b->second)));
    if (auto first = same_pass.find(f->id); first != same_pass.end())
      out.print("        the same pass as #{}: one root candidate", first->second);
  };
  for (const FindingRecord* f : shown) print_finding(f);
  if (!disputed_shown.empty()) {
    out.print(
        "reference disputed ({}; Retort's two references disagree, so the backend may be right: "
        "check the reference first):",
        disputed_shown.size());
    for (const FindingRecord* f : disputed_shown) print_finding(f);
  }
  if (!known.empty()) list_known(db, known, out);
}

// The environments of the user's that a finding's campaign ran its families in (`fuzz
// --python`), by family; empty when it ran in Retort's or its options cannot be read.
std::map<std::string, PythonEnvironment> campaign_python(const FindingsDb& db, int64_t campaign) {
  std::optional<CampaignRecord> c = db.campaign(campaign);
  if (!c) return {};
  try {
    return CampaignOptions::from_json(parse_json_text(c->options, "")).python;
  } catch (const nlohmann::json::exception&) {
  } catch (const Error&) {
  }
  return {};
}

// A block of lines a database holds (a graph's text), whole: every byte may become an escape.
std::string stored_block(const std::string& text) {
  return terminal_safe(text, 4 * text.size() + 64);
}

void show_finding(const FindingRecord& f, const std::map<std::string, PythonEnvironment>& python,
                  Output& out) {
  auto safe = [](const std::string& text) { return terminal_name(text); };
  out.print("finding #{}: {}", f.id, safe(f.signature.str()));
  out.print("  signature   {}", safe(f.signature.key()));
  out.print("  seen        {} times, first {}, last {}", f.count, safe(f.first_seen),
            safe(f.last_seen));
  out.print("  example     campaign {}, case {} (case seed {}, inputs seed {})", f.campaign,
            f.case_index, f.case_seed, f.inputs_seed);
  out.print("  check       {}", safe(f.diverging));
  if (!f.known.empty()) out.print("  known       {} (`findings known` lists it)", safe(f.known));
  out.print("  backends    {}", safe(f.backends));
  if (!f.unreadable.empty()) out.print("  unreadable  {}", safe(f.unreadable));
  for (const auto& [family, env] : python)
    out.print("  environment {} ran in {}", family, safe(env.str()));
  auto variants = parse_json_or_discarded(f.variants);
  std::vector<std::string> names;
  if (variants.is_object())
    for (const auto& [name, text] : variants.items()) names.push_back(safe(name));
  out.print("  variants    {}", names.empty() ? "-" : fmt::format("{}", fmt::join(names, ", ")));
  auto cells = parse_json_or_discarded(f.verdicts);
  if (cells.is_array())
    for (const auto& c : cells) {
      if (!c.is_object()) continue;
      auto text = [&](const char* key) {
        auto it = c.find(key);
        return it != c.end() && it->is_string() ? safe(it->get<std::string>()) : std::string();
      };
      // Cells that differ without a bug (precision, undefined, unsupported) are shown apart.
      std::optional<Verdict> v = parse_verdict(text("verdict"));
      out.print("  {:<11} {} on {}: {}{}", !v || is_bug(*v) ? "failing" : "not a bug",
                text("backend"), text("graph"), text("verdict"),
                text("message").empty() ? "" : " (" + text("message") + ")");
    }
  out.print("original:");
  out.write(stored_block(f.original));
  // The variants the failing check ran, which the compiler got wrong where the original passed.
  std::vector<std::string> failing{f.graph_a};
  if (f.graph_b != f.graph_a) failing.push_back(f.graph_b);
  for (const std::string& name : failing) {
    if (name == "original" || !variants.is_object()) continue;
    auto text = variants.find(name);
    if (text == variants.end() || !text->is_string()) continue;
    out.print("failing variant {}:", safe(name));
    out.write(stored_block(text->get_ref<const std::string&>()));
  }
}

// What the end of its campaign learnt (core/campaign/review.h), when it was reviewed: the
// database's text, printed as show_finding prints it.
void show_review(const FindingsDb& db, const FindingRecord& f, Output& out) {
  std::map<std::string, FindingReview> reviews = db.reviews();
  auto r = reviews.find(f.signature.key());
  if (r == reviews.end()) return;
  if (auto a = Agreement::from_json(r->second.agreement))
    out.print("opinion: {}", terminal_name(a->str()));
  if (r->second.merged_into)
    out.print("merged into #{} ({})", r->second.merged_into, merge_reason(r->second));
  if (r->second.reduced.empty()) return;
  out.print("reduced ({}):", terminal_name(r->second.root));
  out.write(stored_block(r->second.reduced));
  if (!r->second.reduced_b.empty()) {
    out.print("reduced, the graph it must agree with:");
    out.write(stored_block(r->second.reduced_b));
  }
}

// Loads a finding into the session: the original as the current graph, its variants, the seed
// and plan of its inputs, its mutations, and the compare report re-run on its backends.
void open_finding(Session& s, const FindingsDb& db, const FindingRecord& f, Output& out) {
  std::vector<std::string> names = split_list(f.backends);
  for (const auto& name : names)
    if (!s.backends().has(name) && !parse_backend_name(name))
      fail(
          "finding #{} ran on {}, which is not attached here: attach it with `backend attach {} "
          "--cmd ...` first",
          f.id, name, name);
  // A campaign may name a family ("inductor"): the session attaches its default mode. A release
  // it names runs only when installed: a database installs nothing.
  std::vector<Backend*> backends;
  for (const auto& name : resolve_backends(s, names, out, NamedBy::File))
    backends.push_back(&s.backends().get(name));
  // An interpreter the database names is shown, not run: the replay uses the session's.
  for (const auto& [family, env] : campaign_python(db, f.campaign)) {
    const PythonEnvironment* here = s.backends().environment(get_family(family));
    if (!here || here->python != env.python)
      out.print(
          "note: its campaign ran {} in {}; here it runs in {} (`backend use {} --python {}` "
          "runs it there)",
          family, terminal_name(env.str()),
          here ? terminal_name(here->str()) : std::string("Retort's environment"), family,
          terminal_name(env.python));
  }
  CompareOptions options{.tolerances = s.tolerances()};
  options.progress = compare_progress(out);
  FindingReplay replay = replay_finding(db, f, backends, options);
  size_t bugs = replay.report.bug_count();
  s.set_graph(replay.graphs.front().second);
  for (size_t i = 1; i < replay.graphs.size(); ++i)
    s.set_variant(replay.graphs[i].first, replay.graphs[i].second);
  s.set_seed(f.inputs_seed);
  s.input_plan() = replay.plan;
  if (!f.trace.mutations.empty()) s.set_program_mutations(f.trace.mutations, "findings open");
  s.set_compare_report(std::move(replay.report));
  out.print("opened finding #{}: {} (seed {}, inputs {}); compare again: {} of its checks fail{}",
            f.id, terminal_name(f.signature.str()), f.inputs_seed, replay.plan.str(), bugs,
            bugs ? "" : " (it does not reproduce here)");
}

// The passes the finding's failing check needs: its stored blame when it names that backend's
// own passes, else searched now (the session holds the finding, opened) and stored; nullopt for
// a backend whose family has no pass switches.
std::optional<PassBlame> finding_blame(Session& s, FindingsDb& db, const FindingRecord& f,
                                       const Finding& failing, Output& out) {
  std::map<std::string, PassBlame> blames = declared_blames(db);
  if (auto b = blames.find(f.signature.key());
      b != blames.end() && b->second.backend == failing.backend_a)
    return b->second;
  if (!find_pass_switches(failing.backend_a)) return std::nullopt;
  PassBlame b = blame_failure(s, *s.compare_report(), failing, out);
  db.set_blame(f.signature.key(), b);
  return b;
}

// What the review stored of a finding for its issue: its reduced graphs (nullopt when it was not
// reduced, or they do not read) and its second opinion.
IssueSource reviewed_source(const FindingsDb& db, const FindingRecord& f) {
  IssueSource source;
  std::map<std::string, FindingReview> reviews = db.reviews();
  auto r = reviews.find(f.signature.key());
  if (r == reviews.end()) return source;
  if (auto a = Agreement::from_json(r->second.agreement)) source.opinion = a->str();
  if (r->second.reduced.empty()) return source;
  try {
    ReduceCase c{parse_rtg(r->second.reduced, "the reduced graph"), std::nullopt, {}};
    if (!r->second.reduced_b.empty()) c.b = parse_rtg(r->second.reduced_b, "the reduced graph");
    source.reduced = std::move(c);
  } catch (const Error&) {
  }
  return source;
}

// The known bug a finding is labelled with, as an issue names it: "row 35 of docs/bugs.md (the
// pooling kernels ...)"; empty when it has none.
std::string known_bug_text(const FindingsDb& db, const FindingRecord& f) {
  if (f.known.empty()) return "";
  for (const KnownBug& bug : known_bugs(db))
    if (bug.label == f.known)
      return fmt::format("{}{} ({})", bug.label,
                         bug.label.starts_with("row ") ? " of Retort's docs/bugs.md" : "",
                         bug.summary);
  return f.known;
}

// `findings report N [DIR]`: the finding re-run here, then its bundle with issue.md in DIR.
void report_finding(Session& s, FindingsDb& db, const FindingRecord& f, const Args& args,
                    Output& out) {
  std::string dir = args.arg(2) ? *args.arg(2) : fmt::format("finding-{}", f.id);
  open_finding(s, db, f, out);
  if (s.compare_report()->bug_count() == 0)
    fail("finding #{} does not reproduce here, so there is nothing to report", f.id);
  size_t n = matching_bug(*s.compare_report(), f);
  ReproOptions options;
  options.force = args.has("--force");
  options.full = args.has("--full");
  // A line to paste: the database by its file name, none for the default one (where it lies
  // here is nobody's business upstream), quoted for Retort's command line, then the whole for
  // the shell's.
  std::string name = std::filesystem::path(db.path()).filename().string();
  options.retort_command =
      command_text({"retort", "-c",
                    db.path() == FindingsDb::default_path()
                        ? fmt::format("findings report {}", f.id)
                        : fmt::format("findings report {} --db {}", f.id, shell_word(name))});
  if (std::optional<PassBlame> b = finding_blame(s, db, f, *s.compare_report()->bug(n), out))
    options.passes = issue_passes(*b);
  IssueSource source = reviewed_source(db, f);
  source.known = known_bug_text(db, f);
  if (!source.known.empty())
    out.print("finding #{} is known bug {}: it is likely filed already", f.id,
              terminal_name(source.known));
  write_issue_bundle(s, dir, n, options, source, out);
}

void merge_findings(Session&, const Args& args, Output& out) {
  std::string path = findings_db_path(args);
  FindingsDb db = FindingsDb::open(path);
  for (size_t i = 1; i < args.positional.size(); ++i) {
    MergeResult merged = db.merge(args.positional[i]);
    std::vector<std::string> campaigns;
    for (const auto& [there, here] : merged.campaigns)
      campaigns.push_back(there == here ? fmt::format("{}", here)
                                        : fmt::format("{} (there {})", here, there));
    out.print("merged {} findings and {} from {} into {}", merged.findings,
              campaigns.empty() ? std::string("no campaigns")
                                : fmt::format("campaign{} {}", campaigns.size() == 1 ? "" : "s",
                                              fmt::join(campaigns, ", ")),
              terminal_name(args.positional[i]), terminal_name(path));
  }
  if (auto own = db.last_campaign())
    out.print("`fuzz --resume` continues campaign {}, this database's own", own->id);
}

// `findings known`: the known-bug library, shipped and this database's own roots.
void list_known_bugs(const FindingsDb& db, Output& out) {
  std::vector<KnownBug> bugs = known_bugs(db);
  size_t shipped = shipped_known_bugs().size();
  out.print("{} known bugs: {} shipped with Retort (docs/bugs.md), {} added to {}", bugs.size(),
            shipped, bugs.size() - shipped, terminal_name(db.path()));
  for (const KnownBug& bug : bugs) {
    std::string where = bug.releases.empty()
                            ? bug.family
                            : fmt::format("{} {}", bug.family, fmt::join(bug.releases, ", "));
    where +=
        bug.levels.empty() ? ", every level" : fmt::format(" at {}", fmt::join(bug.levels, ","));
    out.print("  {:<7} {}: {} ({}, {})", terminal_name(bug.label), terminal_name(where),
              terminal_name(bug.summary), terminal_name(bug.graph_name),
              terminal_name(bug.verdict));
    out.print("          trigger: {}", terminal_name(bug.trigger.str()));
  }
}

// `findings known add N`: finding N's reduced graph (else its graph under test) becomes a root
// of the database's own, and N is labelled with it.
void add_known_root(FindingsDb& db, const FindingRecord& f, Output& out) {
  if (!f.known.empty())
    fail("finding #{} is explained by known bug {} already (`findings known`)", f.id,
         terminal_name(f.known));
  std::map<std::string, FindingReview> reviews = db.reviews();
  auto r = reviews.find(f.signature.key());
  std::string reduced = r == reviews.end() ? "" : r->second.reduced;
  // The release its campaign recorded: "1.30.0", or "1.30.0 in /path (...)".
  std::string release;
  if (std::optional<CampaignRecord> c = db.campaign(f.campaign)) {
    auto versions = nlohmann::json::parse(c->backends, nullptr, false);
    if (versions.is_object() && versions.contains(f.backend_a) && versions[f.backend_a].is_string())
      release = versions[f.backend_a].get<std::string>().substr(
          0, versions[f.backend_a].get<std::string>().find(' '));
  }
  UserRoot root = user_root_from(f, reduced, release);
  root.id = db.add_user_root(root);
  KnownBug bug = user_known_bug(root);
  db.set_known(f.signature.key(), bug.label);
  out.print("added {} from finding #{} ({}{}); trigger: {}", bug.label, f.id,
            terminal_name(f.signature.str()), reduced.empty() ? ", not reduced: its graph" : "",
            terminal_name(bug.trigger.str()));
  out.print("campaigns on {}{} recognise it and draw it less", terminal_name(f.backend_a),
            release.empty() ? "" : " " + terminal_name(release));
}

// The database an action reads, which must exist.
FindingsDb existing_db(const Args& args) {
  return FindingsDb::open(findings_db_path(args), false);
}

// The finding the action's N names.
FindingRecord named_finding(const FindingsDb& db, const Args& args) {
  return db.finding(static_cast<int64_t>(parse_u64(*args.arg(1), "a finding number")));
}

void run_list(Session&, const Args& args, Output& out) {
  list_findings(existing_db(args), out);
}

void run_show(Session&, const Args& args, Output& out) {
  FindingsDb db = existing_db(args);
  FindingRecord f = named_finding(db, args);
  show_finding(f, campaign_python(db, f.campaign), out);
  show_review(db, f, out);
  std::map<std::string, PassBlame> blames = declared_blames(db);
  if (auto b = blames.find(f.signature.key()); b != blames.end())
    out.print("pass: {}", terminal_name(blame_text(b->second)));
}

void run_open(Session& s, const Args& args, Output& out) {
  FindingsDb db = existing_db(args);
  open_finding(s, db, named_finding(db, args), out);
}

void run_export(Session& s, const Args& args, Output& out) {
  FindingsDb db = existing_db(args);
  FindingRecord f = named_finding(db, args);
  open_finding(s, db, f, out);
  if (s.compare_report()->bug_count() == 0)
    fail("finding #{} does not reproduce here, so there is nothing to export", f.id);
  Args repro = args;
  repro.positional = {"repro", *args.arg(2)};
  repro.options["--finding"] = std::to_string(matching_bug(*s.compare_report(), f));
  run_export_repro(s, repro, out);
}

void run_known(Session&, const Args& args, Output& out) {
  FindingsDb db = existing_db(args);
  if (!args.arg(1)) {
    list_known_bugs(db, out);
    return;
  }
  if (*args.arg(1) != "add") fail_unknown("`findings known` action", *args.arg(1), {"add"});
  if (!args.arg(2)) fail("findings known add N: name the finding to add as a root");
  add_known_root(db, db.finding(static_cast<int64_t>(parse_u64(*args.arg(2), "a finding number"))),
                 out);
}

void run_report(Session& s, const Args& args, Output& out) {
  FindingsDb db = existing_db(args);
  report_finding(s, db, named_finding(db, args), args, out);
}

// `findings blame N`: the finding re-run here, then its passes searched again and stored.
void run_blame(Session& s, const Args& args, Output& out) {
  FindingsDb db = existing_db(args);
  FindingRecord f = named_finding(db, args);
  open_finding(s, db, f, out);
  const CompareReport& report = *s.compare_report();
  if (report.bug_count() == 0)
    fail("finding #{} does not reproduce here, so no pass can be named", f.id);
  PassBlame b = blame_failure(s, report, *report.bug(matching_bug(report, f)), out);
  db.set_blame(f.signature.key(), b);
  out.print("finding #{}: pass {}", f.id, blame_text(b));
}

}  // namespace

void register_findings_commands(CommandRegistry& r) {
  OptionSpec db = findings_db_option();
  ArgSpec n{"N"};
  r.add({.name = "findings",
         .options = {db,
                     {"--force", "", "export, report: write into a non-empty DIR"},
                     {"--full", "", "export, report: also Retort's replay through its workers"}},
         .summary = "List, show, open, export, report, blame or merge the findings of campaigns.",
         .help = "See docs/campaigns.md and docs/bugs.md.",
         .actions =
             {{"list", {}, "The distinct findings, newest first, with their counts.", run_list},
              {"show",
               {n},
               "One finding: signature, counts, first and last seen, the failing checks,\n"
               "its second opinion, the original graph and the failing variants.",
               run_show},
              {"open",
               {n},
               "Makes it the session's work: its original as the current graph, its\n"
               "variants, its inputs seed, and its compare re-run on its backends, ready\n"
               "for `inspect`, `export repro` and the rest.",
               run_open},
              {"export",
               {n, {"DIR", Completion::FilePath}},
               "Writes its reproducer bundle (as `export repro`).",
               run_export},
              {"report",
               {n, {"DIR", Completion::FilePath, true}},
               "Writes its reproducer bundle (default DIR finding-N) of the review's\n"
               "reduced graph when it has one, cut to what feeds the failing outputs (a run\n"
               "that failed: the outputs computed from the node its message names); a\n"
               "picture of it with those outputs marked; and issue.md, an issue ready to file\n"
               "upstream: the failing op and its attributes, a summary, compiler and release,\n"
               "the second opinion, the known bug that explains it if one does, the model,\n"
               "expected against actual, the standalone script and the Retort command. It\n"
               "prints the issue; in the workbench, where it is.",
               run_report},
              {"blame",
               {n},
               "Names the compiler's passes that its difference needs: it runs again with\n"
               "its backend's passes turned off (the family's own switches: ONNX Runtime's\n"
               "transformers and rewrite rules, XLA's HLO passes, TVM's Relax and TIR\n"
               "passes, Inductor's config switches, IREE's compiler flags, OpenVINO's CPU\n"
               "plugin properties), all of them, then by halves down to passes none of\n"
               "which may stay on, and stores them. `list`,\n"
               "`show` and `report` show them; findings of the same passes of one release\n"
               "are one root candidate. A difference that stays with every pass off is no\n"
               "switchable pass's (a kernel's). `report` and `export repro --issue` search\n"
               "them first when none are stored.",
               run_blame},
              {"known",
               {{"add", Completion::None, true, false, {"add"}}, {"N", Completion::None, true}},
               "The known-bug library: the bugs of docs/bugs.md shipped with Retort and the\n"
               "roots added to this database, each with its trigger pattern. `known add N`\n"
               "adds finding N's reduced graph (else its graph under test) as a root: later\n"
               "campaigns on its backend label the findings it explains and draw it less.",
               run_known},
              {"merge",
               {{"DB...", Completion::FilePath, false, true}},
               "Adds other databases (shards) to --db: findings with the same signature add\n"
               "their counts; a database is merged at most once.",
               merge_findings}},
         .default_action = "list",
         .restorable = false});
}

}  // namespace retort
