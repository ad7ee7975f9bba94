// Where a command's program is, decided once: a worker attached as "./my_worker" must still be
// found when it is started later from another folder (a reproducer bundle runs it from its own).
#pragma once

#include <string>

namespace retort {

// The absolute path of `program`: a name with a '/' is made absolute against the current
// folder; a bare name is looked up in $PATH as execvp would. Throws Error when there is no such
// executable file.
std::string resolve_program(const std::string& program);

}  // namespace retort
