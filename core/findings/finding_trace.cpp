#include "core/findings/finding_trace.h"

#include <nlohmann/json.hpp>

#include "core/base/error.h"
#include "core/io/json_reader.h"

namespace retort {

std::string FindingTrace::to_json() const {
  if (mutations.empty()) return rewrites.empty() ? "[]" : rewrites;
  nlohmann::json list = nlohmann::json::array();
  for (const ProgramMutation& m : mutations) list.push_back({{"kind", m.kind}, {"seed", m.seed}});
  nlohmann::json out =
      rewrites.empty() ? nlohmann::json::object() : nlohmann::json::parse(rewrites);
  out["program_mutations"] = list;
  return out.dump();
}

FindingTrace FindingTrace::from_json(const std::string& text, const std::string& where) {
  nlohmann::json j = parse_json_or_discarded(text);
  if (j.is_array() && j.empty()) return {};
  if (!j.is_object())
    fail("{}: its trace is not JSON of a rewrite trace or program mutations", where);
  FindingTrace out;
  if (j.contains("steps") || !j.contains("program_mutations")) {
    if (!j.contains("steps") || !j.at("steps").is_array())
      fail("{}: its rewrite trace has no list of steps", where);
    nlohmann::json trace = j;
    trace.erase("program_mutations");
    out.rewrites = j.contains("program_mutations") ? trace.dump() : text;
  }
  if (!j.contains("program_mutations")) return out;
  const nlohmann::json& list = j.at("program_mutations");
  if (!list.is_array()) fail("{}: its program mutations are not a list", where);
  for (const auto& m : list) {
    if (!m.is_object() || !m.contains("kind") || !m.at("kind").is_string() || !m.contains("seed") ||
        !m.at("seed").is_number_unsigned())
      fail("{}: its program mutations are not readable", where);
    out.mutations.push_back({m.at("kind").get<std::string>(), m.at("seed").get<uint64_t>()});
  }
  return out;
}

}  // namespace retort
