// Files are data, never commands (docs/architecture.md, "Text from outside"): a worker command
// that a session file or a findings database names runs only once the person has seen it and
// said yes at the console's prompt, or has given --trust in the command that names that file.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/output.h"
#include "core/backend/backend_set.h"
#include "core/backend/worker_backend.h"

namespace retort {

// Asks the person a yes/no question. The console sets one; elsewhere (-c, --script, a one-shot
// command, piped input, the workbench) nobody is asked and the answer is no.
using Asker = std::function<bool(const std::string& question)>;
void set_asker(Asker ask);

// A file's backends against those attached in the session: one of the same name that runs
// something else (another argv or other hello options) is a conflict, never an approval. Throws
// Error showing both commands; returns the file's backends the session lacks.
std::vector<BackendSpec> backends_to_attach(const BackendSet& session,
                                            const std::vector<BackendSpec>& from_file,
                                            const std::string& source);

// Shows the commands `specs` would run, from `source` ("session file s.json"), and returns
// whether they may run: `trust` (--trust was given), else the person's answer.
bool consent_to_commands(const std::vector<BackendSpec>& specs, const std::string& source,
                         bool trust, Output& out);

}  // namespace retort
