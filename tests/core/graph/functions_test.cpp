// HirFuzz's functions and calls on a flat graph: what a call passes and returns, the checks that
// keep every call callable (convex, one body per function, no cycle between calls, wrappers that
// end in a body), the .rtg form, and dropping calls an edit broke.
#include "core/graph/functions.h"

#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/graph/graph.h"
#include "core/io/rtg.h"

namespace retort {
namespace {

constexpr const char* kTwoCalls = R"(input x : f32[2,3]
input y : f32[2,3]
a = add(x, y)
b = relu(a)
c = add(y, x)
d = relu(c)
e = mul(b, d)
function f0
function g forward f0
call g : a, b
call g : c, d
output e
)";

std::string error_of(const std::string& text) {
  try {
    parse_rtg(text);
  } catch (const Error& e) {
    return e.message();
  }
  return "";
}

TEST(Functions, CallsPassWhatTheyReadAndReturnWhatOthersRead) {
  Graph g = parse_rtg(kTwoCalls);
  ASSERT_EQ(g.calls.size(), 2u);
  CallInterface first = call_interface(g, g.calls[0]);
  EXPECT_EQ(first.args, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(first.results, (std::vector<std::string>{"b"}));
  // The second call passes the same two values the other way round.
  EXPECT_EQ(call_interface(g, g.calls[1]).args, (std::vector<std::string>{"y", "x"}));
  EXPECT_EQ(body_function(g, "g").name, "f0");
}

TEST(Functions, RtgRoundTrip) {
  Graph g = parse_rtg(kTwoCalls);
  Graph again = parse_rtg(print_rtg(g));
  EXPECT_EQ(again.functions, g.functions);
  EXPECT_EQ(again.calls, g.calls);
  EXPECT_NE(print_rtg(g).find("function g forward f0\ncall g : a, b\n"), std::string::npos);
}

TEST(Functions, ACallThatLeavesAndComesBackIsRejected) {
  EXPECT_NE(error_of("input x : f32[2]\na = neg(x)\nb = relu(a)\nc = mul(a, b)\n"
                     "function f\ncall f : a, c\noutput c\n")
                .find("not convex"),
            std::string::npos);
}

TEST(Functions, CallsOfOneBodyMustComputeTheSame) {
  EXPECT_NE(error_of("input x : f32[2]\na = neg(x)\nb = relu(x)\nc = add(a, b)\n"
                     "function f\ncall f : a\ncall f : b\noutput c\n")
                .find("compute different things"),
            std::string::npos);
  // The same op on arguments of another type is another body too (its code is typed).
  EXPECT_NE(error_of("input x : f32[2]\ninput y : f32[3]\na = neg(x)\nb = neg(y)\n"
                     "function f\ncall f : a\ncall f : b\noutput a, b\n")
                .find("compute different things"),
            std::string::npos);
}

TEST(Functions, TableErrorsNameTheFunction) {
  const char* body = "input x : f32[2]\na = neg(x)\nb = relu(a)\n";
  EXPECT_NE(error_of(std::string(body) + "function f\ncall h : a\noutput b\n")
                .find("unknown function 'h'"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(body) + "function f\nfunction w forward f\ncall f : a\n"
                                         "output b\n")
                .find("called directly"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(body) + "function v forward w\nfunction w closure v\n"
                                         "call v : a\noutput b\n")
                .find("wraps itself"),
            std::string::npos);
  EXPECT_NE(
      error_of(std::string(body) + "function f\nfunction f\noutput b\n").find("already defined"),
      std::string::npos);
  EXPECT_NE(error_of(std::string(body) + "function f\ncall f : a, a\noutput b\n").find("twice"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(body) + "function f\ncall f : zz\noutput b\n").find("'zz'"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(body) + "function f sideways g\noutput b\n")
                .find("forward, returns or closure"),
            std::string::npos);
}

TEST(Functions, TwoCallsThatReadEachOtherCannotBeOrdered) {
  // Each call is convex on its own, but f's call feeds g's and g's call feeds f's.
  EXPECT_NE(error_of("input x : f32[2]\na1 = neg(x)\nb1 = relu(a1)\nb2 = relu(x)\n"
                     "a2 = add(a1, b2)\nfunction f\nfunction g\ncall f : a1, a2\n"
                     "call g : b1, b2\noutput a2, b1\n")
                .find("cycle"),
            std::string::npos);
}

TEST(Functions, DroppingBrokenCallsKeepsTheRest) {
  Graph g = parse_rtg(kTwoCalls);
  // Replace the second call's relu: its body differs from the first call's now.
  for (Node& n : g.nodes)
    if (n.name == "d") n.op = "sigmoid";
  EXPECT_EQ(drop_broken_calls(g), 1u);
  infer_graph(g);
  ASSERT_EQ(g.calls.size(), 1u);
  EXPECT_EQ(g.calls[0].nodes, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(g.functions.size(), 2u);  // g still reaches f0
  // A call whose node is gone goes, and with it the functions nothing calls.
  g.calls[0].nodes.push_back("gone");
  EXPECT_EQ(drop_broken_calls(g), 1u);
  EXPECT_TRUE(g.functions.empty());
  inline_functions(g);
  infer_graph(g);
}

}  // namespace
}  // namespace retort
