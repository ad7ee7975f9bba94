#include "core/base/child_call.h"

#include <signal.h>

#include <gtest/gtest.h>

#include "core/base/error.h"

namespace retort {
namespace {

TEST(ChildCall, ReturnsTheBytesTheChildMade) {
  EXPECT_EQ(call_in_child("test", [] { return std::string("hello"); }), "hello");
  std::string big(10 << 20, 'x');
  big[12345] = '\0';
  EXPECT_EQ(call_in_child("test", [&] { return big; }), big);
}

TEST(ChildCall, AnErrorInTheChildIsAnErrorInTheParent) {
  try {
    call_in_child("test", []() -> std::string { fail("no layout for {}", "g"); });
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "no layout for g");
  }
}

TEST(ChildCall, ACrashOrExitOfTheChildIsAnError) {
  try {
    call_in_child("the library", []() -> std::string {
      // The default action, as in a library without a handler: a sanitized build's own SEGV
      // handler would turn the crash into an abort.
      ::signal(SIGSEGV, SIG_DFL);
      ::raise(SIGSEGV);
      return "unreachable";
    });
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "the library was killed by signal 11 (Segmentation fault)");
  }
  try {
    call_in_child("the library", []() -> std::string { std::exit(1); });
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), "the library exited with status 1");
  }
}

}  // namespace
}  // namespace retort
