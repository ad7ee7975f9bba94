#include "core/session/session_file.h"

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/base/terminal_text.h"
#include "core/io/base64.h"
#include "core/io/graph_files.h"
#include "core/io/json_graph.h"
#include "core/io/json_reader.h"
#include "core/io/npy.h"
#include "core/rules/trace_json.h"

namespace retort {

using nlohmann::json;

namespace {

constexpr const char* kFormatName = "retort-session";

json extraction_to_json(const Variant& v) {
  const ExtractOptions& o = *v.extraction;
  json costs = json::object();
  for (const auto& [op, cost] : o.op_costs) costs[op] = cost;
  return {{"mode", std::string(extract_mode_name(o.mode))},
          {"seed", o.seed},
          {"op_costs", costs},
          {"trace_length", v.trace_length}};
}

// Fixed inputs travel as base64 .npy bytes, the same encoding graph constants use.
json input_plan_to_json(const InputPlan& plan) {
  json fixed = json::object();
  for (const auto& [name, t] : plan.fixed) {
    std::string npy = write_npy(t);
    fixed[name] = base64_encode(reinterpret_cast<const uint8_t*>(npy.data()), npy.size());
  }
  return {{"range", plan.range_str()}, {"fixed", fixed}};
}

class SessionReader : public JsonReader {
 public:
  using JsonReader::JsonReader;

  std::vector<std::string> read(Session& s, const json& j) {
    check_fields(j, "(top)",
                 {"format", "version", "seed", "graph", "rule_sets", "disabled_rules", "egraph",
                  "variants", "backends", "inputs"});
    std::string format = string(field(j, "format", "(top)"), "format");
    if (format != kFormatName)
      bad("format", fmt::format("expected \"{}\", found \"{}\"", kFormatName, format));
    const json& version = field(j, "version", "(top)");
    if (!version.is_number_integer() || version.get<int64_t>() != kSessionFileVersion)
      bad("version", fmt::format("this Retort reads retort-session version {} only, found {}",
                                 kSessionFileVersion, json_brief(version)));
    s.set_seed(unsigned_integer(field(j, "seed", "(top)"), "seed"));
    if (j.contains("graph")) s.set_graph(graph_from_json(j["graph"], file(), "graph."));
    rule_sets(s, field(j, "rule_sets", "(top)"));
    if (j.contains("disabled_rules")) {
      size_t i = 0;
      for (const auto& name : strings(j["disabled_rules"], "disabled_rules")) {
        try {
          s.rules().set_enabled(name, false);
        } catch (const Error& e) {
          bad(fmt::format("disabled_rules[{}]", i), e.message());
        }
        ++i;
      }
    }
    if (j.contains("backends")) backends(s, j["backends"]);
    if (j.contains("inputs")) s.input_plan() = input_plan(j["inputs"]);
    std::vector<Session::Extracted> extracted;
    std::map<std::string, json> saved_graphs;
    if (j.contains("variants")) {
      size_t i = 0;
      for (const auto& v : array(j["variants"], "variants"))
        variant(s, v, fmt::format("variants[{}]", i++), extracted, saved_graphs);
    }
    if (j.contains("egraph")) {
      const json& e = j["egraph"];
      check_fields(e, "egraph", {"start", "trace"});
      Graph start =
          graph_from_json(field(e, "start", "egraph"), file(), prefix() + "egraph.start.");
      RewriteTrace trace =
          trace_from_json(field(e, "trace", "egraph"), file(), prefix() + "egraph.trace.");
      try {
        s.replay_egraph(start, trace, extracted);
      } catch (const Error& err) {
        bad("egraph.trace", err.message());
      }
    } else if (!extracted.empty()) {
      bad("variants", fmt::format("variant '{}' has an extraction but the file has no egraph",
                                  extracted.front().name));
    }
    for (const auto& x : extracted) {
      if (graph_to_json(s.variant(x.name)) != saved_graphs.at(x.name))
        warnings_.push_back(fmt::format(
            "variant '{}' extracted again differs from the saved graph; keeping the new one",
            x.name));
    }
    return warnings_;
  }

 private:
  InputPlan input_plan(const json& in) {
    check_fields(in, "inputs", {"range", "fixed"});
    std::string range = string(field(in, "range", "inputs"), "inputs.range");
    auto plan = parse_input_range(range);
    if (!plan) bad("inputs.range", fmt::format("unknown input range '{}'", range));
    const json& fixed = field(in, "fixed", "inputs");
    if (!fixed.is_object()) bad("inputs.fixed", "expected an object");
    for (const auto& [name, value] : fixed.items()) {
      std::string path = "inputs.fixed." + name;
      try {
        std::vector<uint8_t> bytes = base64_decode(string(value, path));
        plan->fixed[name] = read_npy(std::string(bytes.begin(), bytes.end()));
      } catch (const Error& e) {
        bad(path, e.message());
      }
    }
    return *plan;
  }

  // Attached worker backends, not trusted: their commands run only once the person has seen and
  // trusted them (`open FILE --trust`, app/commands_session.cpp).
  void backends(Session& s, const json& list) {
    size_t i = 0;
    for (const auto& b : array(list, "backends")) {
      std::string path = fmt::format("backends[{}]", i++);
      check_fields(b, path, {"name", "argv", "timeout_s", "options"});
      std::map<std::string, std::string> options;
      const json& o = field(b, "options", path);
      if (!o.is_object()) bad(path + ".options", "expected an object");
      for (const auto& [key, value] : o.items())
        options[key] = string(value, fmt::format("{}.options.{}", path, key));
      try {
        s.backends().attach(string(field(b, "name", path), path + ".name"),
                            strings(field(b, "argv", path), path + ".argv"),
                            number(field(b, "timeout_s", path), path + ".timeout_s"), options,
                            "session file " + terminal_name(file()),
                            fmt::format("`open {} --trust`", shell_word(file())));
      } catch (const Error& e) {
        bad(path, e.message());
      }
    }
  }

  void rule_sets(Session& s, const json& sets) {
    size_t i = 0;
    for (const auto& set : array(sets, "rule_sets")) {
      std::string path = fmt::format("rule_sets[{}]", i++);
      check_fields(set, path, {"name", "origin", "text"});
      std::string name = string(field(set, "name", path), path + ".name");
      std::string origin = string(field(set, "origin", path), path + ".origin");
      std::string text = string(field(set, "text", path), path + ".text");
      const LoadedRuleSet* loaded = nullptr;
      for (const auto& l : s.rules().sets())
        if (l.name == name) loaded = &l;
      if (loaded && loaded->origin == origin) {
        if (loaded->text != text)
          warnings_.push_back(
              fmt::format("rule set '{}' ({}) differs from the saved one; using this build's rules",
                          name, origin));
        continue;
      }
      try {
        s.rules().add_text(name, origin, text);
      } catch (const Error& e) {
        bad(path, e.what());
      }
    }
  }

  void variant(Session& s, const json& v, const std::string& path,
               std::vector<Session::Extracted>& extracted, std::map<std::string, json>& saved) {
    check_fields(v, path, {"name", "graph", "extraction"});
    std::string name = string(field(v, "name", path), path + ".name");
    if (saved.count(name)) bad(path + ".name", fmt::format("variant '{}' appears twice", name));
    Graph g = graph_from_json(field(v, "graph", path), file(), prefix() + path + ".graph.");
    saved[name] = graph_to_json(g);
    if (!v.contains("extraction")) {
      s.set_variant(name, std::move(g));
      return;
    }
    std::string xpath = path + ".extraction";
    const json& x = v["extraction"];
    check_fields(x, xpath, {"mode", "seed", "op_costs", "trace_length"});
    Session::Extracted e;
    e.name = name;
    std::string mode = string(field(x, "mode", xpath), xpath + ".mode");
    auto parsed = parse_extract_mode(mode);
    if (!parsed) bad(xpath + ".mode", fmt::format("unknown extraction mode '{}'", mode));
    e.options.mode = *parsed;
    e.options.seed = unsigned_integer(field(x, "seed", xpath), xpath + ".seed");
    const json& costs = field(x, "op_costs", xpath);
    if (!costs.is_object()) bad(xpath + ".op_costs", "expected an object");
    for (const auto& [op, cost] : costs.items())
      e.options.op_costs[op] = number(cost, fmt::format("{}.op_costs.{}", xpath, op));
    e.trace_length = unsigned_integer(field(x, "trace_length", xpath), xpath + ".trace_length");
    extracted.push_back(std::move(e));
  }

  std::vector<std::string> warnings_;
};

}  // namespace

json session_to_json(const Session& s) {
  json j = {{"format", kFormatName}, {"version", kSessionFileVersion}, {"seed", s.seed()}};
  if (s.has_graph()) j["graph"] = graph_to_json(s.graph());
  json sets = json::array();
  for (const auto& set : s.rules().sets())
    sets.push_back({{"name", set.name}, {"origin", set.origin}, {"text", set.text}});
  j["rule_sets"] = sets;
  json disabled = json::array();
  const RuleBook& book = s.rules();
  for (size_t i = 0; i < book.all().rules.size(); ++i)
    if (!book.enabled(i)) disabled.push_back(book.all().rules[i].name);
  j["disabled_rules"] = disabled;
  if (s.has_egraph())
    j["egraph"] = {{"start", graph_to_json(s.egraph().start)},
                   {"trace", trace_to_json(s.egraph().trace)}};
  json variants = json::array();
  for (const auto& [name, v] : s.variants()) {
    json item = {{"name", name}, {"graph", graph_to_json(v.graph)}};
    if (v.extraction) item["extraction"] = extraction_to_json(v);
    variants.push_back(item);
  }
  j["variants"] = variants;
  json backends = json::array();
  for (const BackendSpec& b : s.backends().attached())
    backends.push_back(
        {{"name", b.name}, {"argv", b.argv}, {"timeout_s", b.timeout_s}, {"options", b.options}});
  j["backends"] = backends;
  const InputPlan& plan = s.input_plan();
  if (plan.range != InputRange::Standard || !plan.fixed.empty())
    j["inputs"] = input_plan_to_json(plan);
  return j;
}

void save_session_file(const Session& s, const std::string& path, bool force) {
  write_file(path, session_to_json(s).dump(1) + "\n", force);
}

std::vector<std::string> session_from_json(Session& fresh, const json& j, const std::string& file) {
  return SessionReader(file).read(fresh, j);
}

std::vector<std::string> load_session_file(Session& fresh, const std::string& path) {
  return session_from_json(fresh, parse_json_text(read_file(path), path), path);
}

}  // namespace retort
