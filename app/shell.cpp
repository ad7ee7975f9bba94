#include "app/shell.h"

#include <exception>

#include "app/words.h"
#include "core/base/error.h"

namespace retort {

LineStatus Shell::run(std::string_view line, std::string_view where) {
  std::string text = trim_blanks(line);
  if (text.empty() || text.front() == '#') return LineStatus::Ok;
  bool ends_session = false;
  bool restorable = true;
  try {
    HeadAndRest parts = split_head(text);
    const CommandSpec& command = commands_.get(parts.head);
    restorable = command.restorable;
    Args args = command.parse(parts.rest);
    command.run(session_, args, out_);
    ends_session = command.ends_session;
  } catch (const Error& e) {
    session_.record(text, false, restorable);
    report(where, e.what());
    return LineStatus::Failed;
  } catch (const std::exception& e) {
    // A bug in Retort, not in the user's input; the session goes on all the same.
    session_.record(text, false, restorable);
    report(where, fmt::format("internal error: {}", e.what()));
    return LineStatus::Failed;
  }
  session_.record(text, true, restorable);
  return ends_session ? LineStatus::Quit : LineStatus::Ok;
}

void Shell::report(std::string_view where, std::string_view message) {
  if (where.empty())
    err_.print("error: {}", message);
  else
    err_.print("{}: error: {}", where, message);
}

}  // namespace retort
