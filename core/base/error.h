// User-facing failures. An Error is a value: a message plus where it happened (a file position,
// a node name, or both). Code deep inside the engine throws it; the command boundary catches it,
// prints it and keeps the session alive. The message and node name are made safe to print
// (control characters escaped, length bounded: core/base/terminal_text.h).
#pragma once

#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace retort {

struct SourceLoc {
  std::string file;  // empty when the text came from the prompt
  int line = 0;      // 1-based; 0 means unknown
  int col = 0;       // 1-based; 0 means unknown

  bool known() const { return line > 0; }
  std::string str() const;
};

class Error : public std::runtime_error {
 public:
  explicit Error(std::string message, SourceLoc loc = {}, std::string node = {});

  const std::string& message() const { return message_; }
  const SourceLoc& loc() const { return loc_; }
  const std::string& node() const { return node_; }

  // A copy of this error that also names a node (used when inference fails inside an op).
  Error at_node(const std::string& node) const;
  Error at(SourceLoc loc) const;

 private:
  struct Safe {};
  Error(Safe, std::string message, SourceLoc loc, std::string node);
  static std::string render(const std::string& message, const SourceLoc& loc,
                            const std::string& node);
  std::string message_;
  SourceLoc loc_;
  std::string node_;
};

// Shorthand for throwing a formatted Error.
template <typename... Args>
[[noreturn]] void fail(fmt::format_string<Args...> format, Args&&... args) {
  throw Error(fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace retort
