// Writing a picture of DOT text to a file through Graphviz (libgvc): the DOT text is laid out
// with `dot` and rendered in the format the file's extension names.
#pragma once

#include <string>
#include <string_view>

namespace retort {

// The Graphviz output format for a file name: "svg", "png" or "dot" (the DOT text as written,
// without layout). Throws Error naming the supported extensions for any other.
std::string render_format(const std::string& path);

// Lays out and renders `dot` into `path`. Graphviz runs in a child process and renders into
// memory; the file is then written through write_file (core/io/file_io.h), so a full disk or a
// read-only folder is an Error and nothing is half-written. An existing file (or symbolic link)
// is an Error unless `force`. Errors Graphviz reports (a syntax error in the DOT text, a layout
// failure) become an Error with its message; a Graphviz crash is an Error too, and the session
// goes on. Returns what Graphviz warned about (terminal-safe and bounded; empty for none), which
// would otherwise go to the child's stderr, that is nowhere.
std::string render_dot_file(std::string_view dot, const std::string& path, bool force);

}  // namespace retort
