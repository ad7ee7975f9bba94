#include "core/base/error.h"

#include "core/base/terminal_text.h"

namespace retort {

std::string SourceLoc::str() const {
  std::string where = file.empty() ? "<input>" : file;
  if (line > 0) where += fmt::format(":{}", line);
  if (col > 0) where += fmt::format(":{}", col);
  return where;
}

// Messages echo names and tokens from files and the prompt, so they are made safe to print here,
// where every one passes.
Error::Error(std::string message, SourceLoc loc, std::string node)
    : Error(Safe{}, terminal_safe(message, kErrorMessageBytes), std::move(loc),
            terminal_safe(node, kWorkerMessageBytes)) {}

Error::Error(Safe, std::string message, SourceLoc loc, std::string node)
    : std::runtime_error(render(message, loc, node)),
      message_(std::move(message)),
      loc_(std::move(loc)),
      node_(std::move(node)) {}

std::string Error::render(const std::string& message, const SourceLoc& loc,
                          const std::string& node) {
  std::string out;
  if (loc.known() || !loc.file.empty()) out += loc.str() + ": ";
  if (!node.empty()) out += fmt::format("node '{}': ", node);
  return out + message;
}

Error Error::at_node(const std::string& node) const {
  return node_.empty() ? Error(message_, loc_, node) : *this;
}

Error Error::at(SourceLoc loc) const {
  return loc_.known() ? *this : Error(message_, std::move(loc), node_);
}

}  // namespace retort
