// Tokens of the .rtg language (grammar in docs/formats.md). The lexer turns text into a token
// list with 1-based line:col positions; it never throws on its own for reading past the end, and
// reports malformed numbers, strings and stray characters as located Errors.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"

namespace retort {

enum class TokKind {
  Ident,   // bare name or keyword: [A-Za-z_][A-Za-z0-9_.]*
  Name,    // back-quoted name: `onnx::Add_3` (any characters but ` and newline)
  Int,     // 42, -1
  Float,   // 2.5, -1e-3, 1.0 (nan and inf are Idents, -inf is a Float)
  String,  // "text" with \" \\ \n \t escapes (text holds the unescaped value)
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
  Equals,
  Colon,
  Newline,  // end of a statement (not emitted inside ( ) or [ ])
  End,
};

struct Token {
  TokKind kind = TokKind::End;
  std::string text;  // identifier, unescaped string, or the number as written
  int line = 1;
  int col = 1;
  int64_t int_value = 0;
  double float_value = 0;
};

// Splits text into tokens ending with an End token. Throws Error at the bad character.
std::vector<Token> lex_rtg(std::string_view text, const std::string& file);

// How a token reads in an error message: 'add', '(', "end of line", "end of file".
std::string describe_token(const Token& t);

// True when name can be written bare (an identifier that is not the `_` placeholder).
bool rtg_plain_name(std::string_view name);
// Whether .rtg can write the name at all (bare or back-quoted): not empty, no ` or line break.
bool rtg_writable_name(std::string_view name);
// The name as .rtg source: bare when plain, else back-quoted.
std::string rtg_name(std::string_view name);

}  // namespace retort
