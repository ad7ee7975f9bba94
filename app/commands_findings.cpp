// `findings` lists, shows, opens, exports, reports and merges what campaigns found in a findings
// database (core/findings); `fuzz` (commands_fuzz.cpp) fills it. docs/campaigns.md, docs/bugs.md.
#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "app/backend_names.h"
#include "app/commands.h"
#include "core/base/error.h"
#include "core/base/terminal_text.h"
#include "core/base/words.h"
#include "core/campaign/campaign_options.h"
#include "core/campaign/finding_replay.h"
#include "core/campaign/review.h"
#include "core/compare/verdict.h"

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
// differing first, then most agreeing with the reference; unreviewed ones after, and findings
// the references dispute last.
std::tuple<int, size_t, size_t> accusation_rank(const std::optional<Agreement>& a) {
  if (!a) return {1, 0, 0};
  if (a->disputed || a->differ.empty()) return {2, 0, 0};
  return {0, a->differ.size(), static_cast<size_t>(-1) - a->agree.size()};
}

void list_findings(const FindingsDb& db, Output& out) {
  auto all = db.findings();
  if (all.empty()) {
    out.print("no findings in {}", db.path());
    return;
  }
  std::map<std::string, FindingReview> reviews = db.reviews();
  std::map<int64_t, std::vector<int64_t>> merged;  // root id -> findings merged into it
  std::map<int64_t, std::optional<Agreement>> agreements;
  size_t disputed = 0;
  int64_t total = 0;
  for (const auto& f : all) {
    total += f.count;
    auto r = reviews.find(f.signature.key());
    if (r == reviews.end()) continue;
    if (r->second.merged_into) merged[r->second.merged_into].push_back(f.id);
    agreements[f.id] = Agreement::from_json(r->second.agreement);
    disputed += r->second.disputed;
  }
  std::vector<const FindingRecord*> shown;
  size_t roots = 0;
  for (const auto& f : all) {
    shown.push_back(&f);
    auto r = reviews.find(f.signature.key());
    roots += r == reviews.end() || !r->second.merged_into;
  }
  std::stable_sort(shown.begin(), shown.end(), [&](const FindingRecord* a, const FindingRecord* b) {
    return accusation_rank(agreements[a->id]) < accusation_rank(agreements[b->id]);
  });
  if (reviews.empty()) {
    out.print("{} in {}, newest first (xN: seen N times):",
              findings_count_text(all.size(), static_cast<uint64_t>(total)),
              terminal_name(db.path()));
  } else {
    out.print(
        "{} in {}, {} after merging, {} reference disputed; those one backend alone gets wrong "
        "first (xN: seen N times):",
        findings_count_text(all.size(), static_cast<uint64_t>(total)), terminal_name(db.path()),
        roots, disputed);
  }
  // A database is a file someone may send: what it holds prints through terminal_name.
  for (const FindingRecord* f : shown) {
    out.print("  #{:<4} x{:<5} {}  ({} on {}, case {})", f->id, f->count,
              terminal_name(f->signature.str()), terminal_name(f->backend_a),
              terminal_name(f->graph_a), f->case_index);
    if (const auto& a = agreements[f->id]) out.print("        {}", a->str());
    const FindingReview& r = reviews[f->signature.key()];
    if (r.merged_into)
      out.print("        merged into #{} (one root: {})", r.merged_into, terminal_name(r.root));
    if (merged.count(f->id)) {
      std::vector<std::string> ids;
      for (int64_t id : merged[f->id]) ids.push_back(fmt::format("#{}", id));
      out.print("        merged: {} (one root: {})", fmt::join(ids, ", "),
                terminal_name(reviews[f->signature.key()].root));
    }
  }
}

// The environments of the user's that a finding's campaign ran its families in (`fuzz
// --python`), by family; empty when it ran in Retort's or its options cannot be read.
std::map<std::string, PythonEnvironment> campaign_python(const FindingsDb& db, int64_t campaign) {
  std::optional<CampaignRecord> c = db.campaign(campaign);
  if (!c) return {};
  try {
    return CampaignOptions::from_json(nlohmann::json::parse(c->options)).python;
  } catch (const nlohmann::json::exception&) {
  } catch (const Error&) {
  }
  return {};
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
  out.print("  backends    {}", safe(f.backends));
  for (const auto& [family, env] : python)
    out.print("  environment {} ran in {}", family, safe(env.str()));
  auto variants = nlohmann::json::parse(f.variants, nullptr, false);
  std::vector<std::string> names;
  if (variants.is_object())
    for (const auto& [name, text] : variants.items()) names.push_back(safe(name));
  out.print("  variants    {}", names.empty() ? "-" : fmt::format("{}", fmt::join(names, ", ")));
  auto cells = nlohmann::json::parse(f.verdicts, nullptr, false);
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
  out.write(terminal_safe(f.original, 4 * f.original.size() + 64));  // every byte may escape
  // The variants the failing check ran, which the compiler got wrong where the original passed.
  std::vector<std::string> failing{f.graph_a};
  if (f.graph_b != f.graph_a) failing.push_back(f.graph_b);
  for (const std::string& name : failing) {
    if (name == "original" || !variants.is_object()) continue;
    auto text = variants.find(name);
    if (text == variants.end() || !text->is_string()) continue;
    const std::string& rtg = text->get_ref<const std::string&>();
    out.print("failing variant {}:", safe(name));
    out.write(terminal_safe(rtg, 4 * rtg.size() + 64));
  }
}

// What the end of its campaign learnt (core/campaign/review.h), when it was reviewed.
void show_review(const FindingsDb& db, const FindingRecord& f, Output& out) {
  std::map<std::string, FindingReview> reviews = db.reviews();
  auto r = reviews.find(f.signature.key());
  if (r == reviews.end()) return;
  if (auto a = Agreement::from_json(r->second.agreement)) out.print("opinion: {}", a->str());
  if (r->second.merged_into)
    out.print("merged into #{} (one root: {})", r->second.merged_into, r->second.root);
  if (r->second.reduced.empty()) return;
  out.print("reduced ({}):", r->second.root);
  out.write(r->second.reduced);
  if (!r->second.reduced_b.empty()) {
    out.print("reduced, the graph it must agree with:");
    out.write(r->second.reduced_b);
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
  // A campaign may name a family ("inductor"): the session attaches its default mode.
  std::vector<Backend*> backends;
  for (const auto& name : resolve_backends(s, names, out))
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
            f.id, f.signature.str(), f.inputs_seed, replay.plan.str(), bugs,
            bugs ? "" : " (it does not reproduce here)");
}

// `findings report N [DIR]`: the finding re-run here, then its bundle with issue.md in DIR.
void report_finding(Session& s, const FindingsDb& db, const FindingRecord& f, const Args& args,
                    Output& out) {
  std::string dir = args.arg(2) ? *args.arg(2) : fmt::format("finding-{}", f.id);
  open_finding(s, db, f, out);
  if (s.compare_report()->bug_count() == 0)
    fail("finding #{} does not reproduce here, so there is nothing to report", f.id);
  ReproOptions options;
  options.force = args.has("--force");
  options.full = args.has("--full");
  options.retort_command = fmt::format("retort -c 'findings report {} --db {}'", f.id, db.path());
  write_repro_bundle(s, dir, matching_bug(*s.compare_report(), f), options, true, out);
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

void run_report(Session& s, const Args& args, Output& out) {
  FindingsDb db = existing_db(args);
  report_finding(s, db, named_finding(db, args), args, out);
}

}  // namespace

void register_findings_commands(CommandRegistry& r) {
  OptionSpec db = findings_db_option();
  ArgSpec n{"N"};
  r.add({.name = "findings",
         .options = {db,
                     {"--force", "", "export, report: write into a non-empty DIR"},
                     {"--full", "", "export, report: also Retort's replay through its workers"}},
         .summary = "List, show, open, export, report or merge the findings of campaigns.",
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
               "Writes that bundle (default DIR finding-N), a picture of the failing graph\n"
               "and issue.md, an issue ready to file upstream: title, compiler and release,\n"
               "the standalone script, expected against actual, the graph, and the Retort\n"
               "command; it prints the issue.",
               run_report},
              {"merge",
               {{"DB...", Completion::FilePath, false, true}},
               "Adds other databases (shards) to --db: findings with the same signature add\n"
               "their counts; a database is merged at most once.",
               merge_findings}},
         .default_action = "list",
         .restorable = false});
}

}  // namespace retort
