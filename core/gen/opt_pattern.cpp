#include "core/gen/opt_pattern.h"

#include <map>

#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/base/suggest.h"
#include "core/base/words.h"
#include "core/io/rtg.h"
#include "core/ops/registry.h"

namespace retort {

const std::vector<std::pair<std::string_view, std::string_view>>& embedded_pattern_files();

namespace {

// The `# key: value` lines of the comment block that opens the file, with their line numbers.
std::map<std::string, std::pair<std::string, int>> front_matter(std::string_view text) {
  std::map<std::string, std::pair<std::string, int>> keys;
  int line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    std::string_view line = text.substr(pos, end == std::string_view::npos ? text.npos : end - pos);
    pos = end == std::string_view::npos ? text.size() : end + 1;
    ++line_no;
    if (line.empty() || line[0] != '#') break;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string key = trim_blanks(line.substr(1, colon - 1));
    if (key.find(' ') != std::string::npos) continue;  // prose, not a key
    keys[key] = {trim_blanks(line.substr(colon + 1)), line_no};
  }
  return keys;
}

}  // namespace

OptPattern parse_opt_pattern(std::string_view text, const std::string& file) {
  auto keys = front_matter(text);
  OptPattern p;
  p.graph = parse_rtg(text, file);
  p.name = p.graph.name;
  auto need = [&](const char* key) {
    auto it = keys.find(key);
    if (it == keys.end() || it->second.first.empty())
      throw Error(fmt::format("a pattern needs a '# {}: ...' line in its opening comment", key),
                  SourceLoc{file, 1, 1});
    return it->second;
  };
  p.pass = need("pass").first;
  p.test = need("test").first;
  p.source = need("source").first;
  auto [fires, fires_line] = need("fires");
  for (const std::string& item : split_list(fires)) {
    std::string op = trim_blanks(item);
    if (!OpRegistry::instance().find(op))
      throw Error(fmt::format("'fires' names '{}', which is no op", op),
                  SourceLoc{file, fires_line, 1});
    bool used = false;
    for (const Node& n : p.graph.nodes) used = used || n.op == op;
    if (!used)
      throw Error(fmt::format("'fires' names '{}', which the pattern does not use", op),
                  SourceLoc{file, fires_line, 1});
    p.fires.push_back(op);
  }
  if (p.fires.empty()) throw Error("'fires' names no op", SourceLoc{file, fires_line, 1});
  if (p.graph.inputs.empty())
    throw Error("a pattern needs at least one input (the edge it takes from its context)",
                SourceLoc{file, 1, 1});
  return p;
}

const std::vector<OptPattern>& builtin_opt_patterns() {
  static const std::vector<OptPattern> all = [] {
    std::vector<OptPattern> out;
    for (const auto& [name, text] : embedded_pattern_files())
      out.push_back(parse_opt_pattern(text, fmt::format("samples/patterns/{}.rtg", name)));
    return out;
  }();
  return all;
}

const OptPattern& get_opt_pattern(std::string_view name) {
  std::vector<std::string> names;
  for (const OptPattern& p : builtin_opt_patterns()) {
    if (p.name == name) return p;
    names.push_back(p.name);
  }
  fail_unknown("pattern", name, names);
}

}  // namespace retort
