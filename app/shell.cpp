#include "app/shell.h"

#include <exception>

#include "app/command_line.h"
#include "core/base/error.h"
#include "core/base/terminal_text.h"

namespace retort {

namespace {

// The progress view begun for the command's run and ended after it, also when it throws.
class ShowingProgress {
 public:
  ShowingProgress(ProgressView* view, std::string_view command) : view_(view) {
    if (view_) view_->begin(command);
  }
  ~ShowingProgress() {
    if (view_) view_->end();
  }
  ShowingProgress(const ShowingProgress&) = delete;
  ShowingProgress& operator=(const ShowingProgress&) = delete;

 private:
  ProgressView* view_;
};

}  // namespace

LineStatus Shell::run(std::string_view line, std::string_view where) {
  std::string text = trim_blanks(line);
  if (text.empty() || text.front() == '#') return LineStatus::Ok;
  bool ends_session = false;
  bool restorable = true;
  std::string failure;
  // The command's output is its acknowledgement: it is shown only once the command is in the
  // journal, so a kill right after the output never loses the command.
  StringOutput held(out_.log());
  try {
    HeadAndRest parts = split_head(text);
    const CommandSpec& command = commands_.get(parts.head);
    restorable = command.restorable;
    if (command.asks_for_help(parts.rest)) {
      restorable = false;  // it only prints, as `help NAME` does
      held.write(command.help_for(parts.rest));
    } else {
      Args args = command.parse(parts.rest);
      ProgressView* shown = args.has("--quiet") ? nullptr : progress_;
      held.show_on(shown);
      ShowingProgress showing(shown, command.name);
      command.invoke(session_, args, held);
      ends_session = command.ends_session;
    }
  } catch (const Error& e) {
    failure = e.what();
  } catch (const std::exception& e) {
    // A bug in Retort, not in the user's input; the session goes on all the same.
    failure = fmt::format("internal error: {}", terminal_safe(e.what(), kErrorMessageBytes));
  }
  bool journaled = session_.record(text, failure.empty(), restorable);
  out_.write(held.text());
  if (!failure.empty()) report(where, failure);
  if (!journaled) warn_unjournaled();
  if (!failure.empty()) return LineStatus::Failed;
  return ends_session ? LineStatus::Quit : LineStatus::Ok;
}

// Said after every command while the journal cannot be written, not once: each such command
// is one a crash would lose.
void Shell::warn_unjournaled() {
  const JournalFile* journal = session_.journal_file();
  err_.print(
      "warning: not journaled: cannot write the journal {} ({}); a crash now loses this "
      "and every later command (`save` keeps them)",
      journal->path(), journal->error());
}

void Shell::report(std::string_view where, std::string_view message) {
  if (where.empty())
    err_.print("error: {}", message);
  else
    err_.print("{}: error: {}", where, message);
}

}  // namespace retort
