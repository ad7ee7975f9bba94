// S-expressions: the surface syntax of patterns, rule conditions and rule files. The reader keeps
// the position of every atom and list so that later stages report errors at file:line:col.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"

namespace retort {

struct SExpr {
  enum class Kind {
    Symbol,   // add, r5, =>, ..
    Var,      // ?x (text holds "x")
    Keyword,  // :perm (text holds "perm")
    Int,
    Float,
    String,   // "text" (text holds the unescaped contents)
    List,     // ( ... )
    Bracket,  // [ ... ], a literal list
  };
  Kind kind = Kind::Symbol;
  std::string text;
  int64_t int_value = 0;
  double float_value = 0;
  std::vector<SExpr> items;  // List and Bracket
  SourceLoc loc;

  bool is_symbol(std::string_view s) const { return kind == Kind::Symbol && text == s; }
  // The source form back, on one line.
  std::string str() const;
};

std::string_view sexpr_kind_name(SExpr::Kind k);

// Reads every top-level s-expression of `text`. Comments run from ';' or '#' to the end of the
// line. Throws Error at file:line:col on an unbalanced bracket, a bad number or string.
std::vector<SExpr> read_sexprs(std::string_view text, const std::string& file = "");
// Reads exactly one s-expression.
SExpr read_sexpr(std::string_view text, const std::string& file = "");

// An Error located at the expression.
[[noreturn]] void fail_at(const SExpr& e, const std::string& message);

}  // namespace retort
