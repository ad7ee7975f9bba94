#include "app/console.h"

#include <cstdio>
#include <cstdlib>

#include <readline/readline.h>

#include "app/consent.h"
#include "app/line_editor.h"

namespace retort {

int run_console(Shell& shell) {
  LineEditor editor(shell);
  // The person at the console answers what a command asks (app/consent.h).
  set_asker([](const std::string& question) {
    char* raw = readline(question.c_str());
    std::string answer = raw ? raw : "";
    std::free(raw);
    return answer == "y" || answer == "Y" || answer == "yes";
  });
  while (true) {
    char* raw = readline("retort> ");
    if (!raw) {
      std::fputc('\n', stdout);  // end of input: leave the terminal on a fresh line
      break;
    }
    std::string line(raw);
    std::free(raw);
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    editor.remember(line);
    if (shell.run(line) == LineStatus::Quit) break;
  }
  return 0;
}

}  // namespace retort
