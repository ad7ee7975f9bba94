// Running a risky library call in a forked child process. Libraries Retort uses on untrusted
// input may crash, abort or call exit() (libonnx's shape inference reads out of bounds on some
// models; Graphviz's dot aborts on some large graphs and exits on write errors), and some leak.
// In a child, a crash ends only the child, leaked memory goes with it, and the workbench gets an
// Error instead of dying.
#pragma once

#include <functional>
#include <string>

namespace retort {

// Forks, runs `work` in the child and returns the bytes it returned. An exception `work` throws
// becomes an Error with the same message in the parent. A child that crashes or exits early is an
// Error "`what` crashed (Segmentation fault)". The child shares nothing with the parent after the
// fork, exits with _exit (no destructors or atexit handlers of the parent's state run twice) and
// writes nothing to the terminal (its stdout and stderr go to /dev/null).
std::string call_in_child(const std::string& what, const std::function<std::string()>& work);

}  // namespace retort
