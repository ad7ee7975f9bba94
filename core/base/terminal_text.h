// Text from outside Retort made safe to print on a terminal. A worker's error messages and
// stderr, and the names and tokens a user or a file gave that errors echo, may hold escape
// sequences (which set the terminal's title, move the cursor, redraw the screen) or be megabytes
// long. Every such text passes through terminal_safe where it enters the program: worker text in
// core/backend, error messages in Error.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace retort {

// Bounds for the texts that pass through terminal_safe.
inline constexpr size_t kErrorMessageBytes = 4096;      // an Error's message
inline constexpr size_t kWorkerMessageBytes = 2000;     // a message or name a worker sends
inline constexpr size_t kWorkerProgramBytes = 1 << 18;  // a generated program a worker sends

// `text` with every control character except newline and tab (C0, DEL, the C1 controls U+0080 to
// U+009F, the bidirectional overrides and marks, U+2028 and U+2029) and every byte that is not
// part of valid UTF-8 shown as a visible escape (\x1b, \u009b, \u202e), and, when the result is
// longer than `max_bytes`, its head and tail around a note saying how many bytes were left out.
std::string terminal_safe(std::string_view text, size_t max_bytes);

// The one printer for a name that comes from a file or a worker (a graph, node, input, output,
// op, variant or backend name, a path, a word of a command line): terminal_safe with newline and
// tab escaped too, so that a name stays on its line and cannot forge another.
std::string terminal_name(std::string_view name, size_t max_bytes = kWorkerMessageBytes);

}  // namespace retort
