// The non-interactive front ends: the plain REPL on standard input, `-c "cmd; cmd"` and
// `--script FILE`. Each returns the process exit status.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "app/shell.h"

namespace retort {

inline constexpr int kExitOk = 0;
inline constexpr int kExitCommandFailed = 1;
inline constexpr int kExitUsage = 2;

// Reads one command per line from `in` until `quit` or end of input. With `batch` set (input is
// not a terminal) errors name their line ("<stdin>:3: error: ...") and the status is non-zero
// if any command failed; otherwise a plain "> " prompt is shown and the status is 0.
int run_plain(Shell& shell, std::FILE* in, Output& prompt_out, bool batch);

// Runs `text` split at ';'; stops at the first failure ("-c:2: error: ...").
int run_command_string(Shell& shell, std::string_view text);

// Runs a script, one command per line ('#' starts a comment line); stops at the first failure
// ("script.rts:3: error: ...").
int run_script(Shell& shell, const std::string& path, Output& err);

}  // namespace retort
