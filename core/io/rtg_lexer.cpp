#include "core/io/rtg_lexer.h"

#include <charconv>

#include "core/base/string_escape.h"
#include "core/tensor/number_text.h"

namespace retort {

namespace {

bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool digit(char c) {
  return c >= '0' && c <= '9';
}
bool ident_char(char c) {
  return ident_start(c) || digit(c) || c == '.';
}

class Lexer {
 public:
  Lexer(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (true) {
      skip_blanks_and_comments();
      if (pos_ >= text_.size()) break;
      char c = text_[pos_];
      if (c == '\n' || c == '\r') {
        Token t = start(TokKind::Newline);
        advance_newline();
        if (depth_ == 0 && (out.empty() || out.back().kind != TokKind::Newline)) out.push_back(t);
        continue;
      }
      out.push_back(next_token());
    }
    out.push_back(start(TokKind::End));
    return out;
  }

 private:
  SourceLoc here() const { return {file_, line_, col_}; }
  Token start(TokKind kind) const {
    Token t;
    t.kind = kind;
    t.line = line_;
    t.col = col_;
    return t;
  }
  [[noreturn]] void fail_at(const Token& t, const std::string& message) const {
    throw Error(message, SourceLoc{file_, t.line, t.col});
  }

  char peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  void bump() {
    ++pos_;
    ++col_;
  }
  void advance_newline() {
    if (text_[pos_] == '\r' && peek(1) == '\n') ++pos_;
    ++pos_;
    ++line_;
    col_ = 1;
  }

  void skip_blanks_and_comments() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t') {
        bump();
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n' && text_[pos_] != '\r') bump();
      } else {
        return;
      }
    }
  }

  Token next_token() {
    char c = peek();
    Token t = start(TokKind::End);
    auto single = [&](TokKind kind) {
      t.kind = kind;
      t.text = std::string(1, c);
      bump();
      return t;
    };
    switch (c) {
      case '(':
        ++depth_;
        return single(TokKind::LParen);
      case '[':
        ++depth_;
        return single(TokKind::LBracket);
      case ')':
        if (depth_ > 0) --depth_;
        return single(TokKind::RParen);
      case ']':
        if (depth_ > 0) --depth_;
        return single(TokKind::RBracket);
      case ',':
        return single(TokKind::Comma);
      case '=':
        return single(TokKind::Equals);
      case ':':
        return single(TokKind::Colon);
      case '"':
        return string_token();
      case '`':
        return quoted_name();
      default:
        break;
    }
    if (ident_start(c)) {
      t.kind = TokKind::Ident;
      while (pos_ < text_.size() && ident_char(text_[pos_])) {
        t.text += text_[pos_];
        bump();
      }
      return t;
    }
    if (digit(c) || (c == '-' && (digit(peek(1)) || peek(1) == 'i'))) return number();
    fail_at(t, fmt::format("unexpected character '{}'", printable_char(c)));
  }

  Token number() {
    Token t = start(TokKind::Int);
    size_t begin = pos_;
    if (peek() == '-') bump();
    if (peek() == 'i') {
      while (pos_ < text_.size() && ident_char(text_[pos_])) bump();
      t.text = std::string(text_.substr(begin, pos_ - begin));
      if (t.text != "-inf") fail_at(t, fmt::format("malformed number '{}'", t.text));
      t.kind = TokKind::Float;
      t.float_value = *parse_float_text(t.text);
      return t;
    }
    while (digit(peek())) bump();
    if (peek() == '.' && digit(peek(1))) {
      t.kind = TokKind::Float;
      bump();
      while (digit(peek())) bump();
    }
    if (peek() == 'e' || peek() == 'E') {
      size_t sign = (peek(1) == '+' || peek(1) == '-') ? 1 : 0;
      if (digit(peek(1 + sign))) {
        t.kind = TokKind::Float;
        bump();
        if (sign) bump();
        while (digit(peek())) bump();
      }
    }
    // A number runs into a name ("2x", "1.5.2"): say so instead of lexing two tokens.
    while (pos_ < text_.size() && ident_char(text_[pos_])) bump();
    t.text = std::string(text_.substr(begin, pos_ - begin));
    if (t.kind == TokKind::Int) {
      const char* last = t.text.data() + t.text.size();
      auto [end, ec] = std::from_chars(t.text.data(), last, t.int_value);
      if (ec == std::errc::result_out_of_range)
        fail_at(t, fmt::format("integer '{}' is out of range for 64 bits", t.text));
      if (ec != std::errc() || end != last)
        fail_at(t, fmt::format("malformed number '{}'", t.text));
      return t;
    }
    auto v = parse_float_text(t.text);
    if (!v) {
      bool well_formed = true;
      for (char ch : t.text)
        if (!(digit(ch) || ch == '.' || ch == 'e' || ch == 'E' || ch == '-' || ch == '+'))
          well_formed = false;
      fail_at(t, well_formed ? fmt::format("number '{}' is out of range for f64", t.text)
                             : fmt::format("malformed number '{}'", t.text));
    }
    t.float_value = *v;
    return t;
  }

  Token string_token() {
    Token t = start(TokKind::String);
    bump();  // opening quote
    while (true) {
      if (pos_ >= text_.size() || peek() == '\n' || peek() == '\r')
        fail_at(t, "unterminated string (a string must end with \" on the same line)");
      char c = peek();
      if (c == '"') {
        bump();
        return t;
      }
      if (c == '\\') {
        Token esc = start(TokKind::String);
        bump();
        char e = peek();
        if (pos_ >= text_.size() || e == '\n' || e == '\r')
          fail_at(t, "unterminated string (a string must end with \" on the same line)");
        auto c = unescape_char(e);
        if (!c) fail_at(esc, unknown_escape_message(e));
        t.text += *c;
        bump();
        continue;
      }
      t.text += c;
      bump();
    }
  }

  Token quoted_name() {
    Token t = start(TokKind::Name);
    bump();
    while (true) {
      if (pos_ >= text_.size() || peek() == '\n' || peek() == '\r')
        fail_at(t, "unterminated `name` (it must end with ` on the same line)");
      if (peek() == '`') {
        bump();
        if (t.text.empty()) fail_at(t, "empty `` name");
        return t;
      }
      t.text += peek();
      bump();
    }
  }

  std::string_view text_;
  const std::string& file_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
  int depth_ = 0;
};

}  // namespace

std::vector<Token> lex_rtg(std::string_view text, const std::string& file) {
  return Lexer(text, file).run();
}

std::string describe_token(const Token& t) {
  switch (t.kind) {
    case TokKind::Newline:
      return "end of line";
    case TokKind::End:
      return "end of file";
    case TokKind::String:
      return quote_string(t.text);
    case TokKind::Name:
      return fmt::format("`{}`", t.text);
    default:
      return fmt::format("'{}'", t.text);
  }
}

bool rtg_plain_name(std::string_view name) {
  if (name.empty() || name == "_" || !ident_start(name[0])) return false;
  for (char c : name)
    if (!ident_char(c)) return false;
  return true;
}

bool rtg_writable_name(std::string_view name) {
  return !name.empty() && name.find_first_of("`\n\r") == std::string_view::npos;
}

std::string rtg_name(std::string_view name) {
  if (rtg_plain_name(name)) return std::string(name);
  if (name.empty()) fail("an empty value name cannot be written in .rtg");
  if (!rtg_writable_name(name))
    fail("value name '{}' cannot be written in .rtg (it holds a ` or a line break)", name);
  return fmt::format("`{}`", name);
}

}  // namespace retort
