// Text from outside Retort made safe to print: the one home of every printer's escaping. A
// worker's error messages and stderr, the names and strings a file holds (a session, a findings
// database, a cache) and the tokens a user gave that errors echo may hold escape sequences (which
// set the terminal's title, move the cursor, redraw the screen), newlines that forge a line, or
// be megabytes long. Every such text passes through one function of this header on its way out,
// one per target:
//   - a terminal: terminal_safe (a block of lines) and terminal_name (one line);
//   - a line a person pastes into a shell: shell_word and command_text;
//   - Markdown (issue.md, README.md): markdown_code and markdown_cell.
// Worker text is made safe where it enters the program too (core/backend), error messages in
// Error.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

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

// One word of a shell line printed for a person to paste (POSIX sh, bash, and Retort's own
// command line, core/base/words.h, read it alike): terminal_name of it, bare when it holds only
// letters, digits and _@+:,./- , else in single quotes, inside which no shell expands anything
// (a ' inside is written '\''; an = is quoted too, lest a first word be an assignment). Pasted, it
// is one word and never runs anything; an escaped control stays the visible \xNN text, so such a
// word names another file than the one meant.
std::string shell_word(std::string_view word);

// A command line of shell_words, as a person reads it before trusting it or pastes it.
std::string command_text(const std::vector<std::string>& argv);

// Text from outside as Markdown that never becomes markup (no link, image, HTML, @mention,
// emphasis, heading or new line): a code span of terminal_name of it, fenced by a run of backticks
// longer than any inside (CommonMark reads no backslash escape inside a code span, so escaping a
// backtick there does not work), with a space inside the fence where the text starts or ends with
// a backtick or a space (a fence would join it; the two spaces are stripped again).
std::string markdown_code(std::string_view text);

// markdown_code for a cell of a table: GitHub's tables split a row at every | not written \|,
// even inside a code span, so its pipes are written \| (the table reads them back as |).
std::string markdown_cell(std::string_view text);

}  // namespace retort
