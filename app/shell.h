// Runs command lines against a session: the one place where commands are looked up, their
// arguments parsed, and their errors caught. Every front end (console, REPL, -c, --script)
// feeds lines through a Shell, so a command behaves the same in all of them.
#pragma once

#include <string>
#include <string_view>

#include "app/command.h"
#include "app/output.h"
#include "app/progress_line.h"
#include "core/session/session.h"

namespace retort {

enum class LineStatus { Ok, Failed, Quit };

class Shell {
 public:
  // `progress` shows a running command's progress and live lines (null: nothing shows them and
  // live lines are part of the output).
  Shell(Session& session, const CommandRegistry& commands, Output& out, Output& err,
        ProgressView* progress = nullptr)
      : session_(session), commands_(commands), out_(out), err_(err), progress_(progress) {}

  // Runs one line. Blank lines and lines starting with '#' do nothing. The line is journaled
  // before its output is shown; when the journal cannot be written, err gets a warning after
  // every line. A failure is printed to err as "error: ..." (after "where: " when where is
  // given, e.g. "script.rts:3") and recorded in the journal; the session stays usable. The
  // progress view shows the command while it runs, unless the command was given --quiet.
  LineStatus run(std::string_view line, std::string_view where = {});

  Session& session() { return session_; }
  const CommandRegistry& commands() const { return commands_; }

 private:
  void report(std::string_view where, std::string_view message);
  void warn_unjournaled();

  Session& session_;
  const CommandRegistry& commands_;
  Output& out_;
  Output& err_;
  ProgressView* progress_;
};

}  // namespace retort
