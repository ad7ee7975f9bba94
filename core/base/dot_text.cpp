#include "core/base/dot_text.h"

namespace retort {

std::string dot_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string dot_column(const std::vector<std::string>& ids) {
  std::string out;
  for (size_t i = 1; i < ids.size(); ++i)
    out +=
        "    \"" + dot_escape(ids[i - 1]) + "\" -> \"" + dot_escape(ids[i]) + "\" [style=invis];\n";
  return out;
}

}  // namespace retort
