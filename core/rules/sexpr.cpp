#include "core/rules/sexpr.h"

#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "core/base/string_escape.h"
#include "core/tensor/number_text.h"

namespace retort {

std::string_view sexpr_kind_name(SExpr::Kind k) {
  switch (k) {
    case SExpr::Kind::Symbol:
      return "symbol";
    case SExpr::Kind::Var:
      return "variable";
    case SExpr::Kind::Keyword:
      return "keyword";
    case SExpr::Kind::Int:
      return "integer";
    case SExpr::Kind::Float:
      return "number";
    case SExpr::Kind::String:
      return "string";
    case SExpr::Kind::List:
      return "list";
    case SExpr::Kind::Bracket:
      return "[list]";
  }
  return "?";
}

std::string SExpr::str() const {
  switch (kind) {
    case Kind::Symbol:
      return text;
    case Kind::Var:
      return "?" + text;
    case Kind::Keyword:
      return ":" + text;
    case Kind::Int:
      return fmt::format("{}", int_value);
    case Kind::Float:
      return float_literal(float_value);
    case Kind::String:
      return quote_string(text);
    case Kind::List:
    case Kind::Bracket: {
      std::string out = kind == Kind::List ? "(" : "[";
      for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ' ';
        out += items[i].str();
      }
      return out + (kind == Kind::List ? ")" : "]");
    }
  }
  return "?";
}

void fail_at(const SExpr& e, const std::string& message) {
  throw Error(message, e.loc);
}

namespace {

class Reader {
 public:
  Reader(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  std::vector<SExpr> read_all() {
    std::vector<SExpr> out;
    skip_space();
    while (pos_ < text_.size()) {
      out.push_back(read());
      skip_space();
    }
    return out;
  }

 private:
  SourceLoc here() const { return SourceLoc{file_, line_, col_}; }

  [[noreturn]] void error(const SourceLoc& loc, const std::string& message) const {
    throw Error(message, loc);
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  void skip_space() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ';' || c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') advance();
      } else if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
        advance();  // commas separate list items like spaces: [1, 2] reads as [1 2]
      } else {
        return;
      }
    }
  }

  static bool is_delimiter(char c) {
    return std::isspace(static_cast<unsigned char>(c)) || c == '(' || c == ')' || c == '[' ||
           c == ']' || c == ';' || c == '#' || c == ',' || c == '"' || c == '\0';
  }

  SExpr read() {
    SourceLoc loc = here();
    char c = peek();
    if (c == '(' || c == '[') return read_list(c == '(' ? ')' : ']');
    if (c == ')' || c == ']') error(loc, fmt::format("unexpected '{}'", c));
    if (c == '"') return read_string();
    return read_atom();
  }

  SExpr read_list(char close) {
    SExpr list;
    list.kind = close == ')' ? SExpr::Kind::List : SExpr::Kind::Bracket;
    list.loc = here();
    // Later stages recurse over the nesting: bound it rather than overflow the stack.
    if (++depth_ > kMaxDepth)
      error(list.loc, fmt::format("nested deeper than {} levels", kMaxDepth));
    advance();
    skip_space();
    while (peek() != close) {
      if (pos_ >= text_.size())
        error(list.loc, fmt::format("'{}' is never closed", close == ')' ? '(' : '['));
      if (peek() == ')' || peek() == ']')
        error(here(), fmt::format("expected '{}', found '{}'", close, peek()));
      list.items.push_back(read());
      skip_space();
    }
    advance();
    --depth_;
    return list;
  }

  SExpr read_string() {
    SExpr s;
    s.kind = SExpr::Kind::String;
    s.loc = here();
    advance();
    while (true) {
      if (pos_ >= text_.size() || peek() == '\n') error(s.loc, "string is never closed");
      char c = peek();
      SourceLoc eloc = here();
      advance();
      if (c == '"') break;
      if (c != '\\') {
        s.text += c;
        continue;
      }
      if (pos_ >= text_.size()) error(s.loc, "string is never closed");
      char e = peek();
      advance();
      auto unescaped = unescape_char(e);
      if (!unescaped) error(eloc, unknown_escape_message(e));
      s.text += *unescaped;
    }
    return s;
  }

  SExpr read_atom() {
    SExpr a;
    a.loc = here();
    size_t start = pos_;
    while (!is_delimiter(peek())) advance();
    std::string_view tok = text_.substr(start, pos_ - start);
    if (tok.empty()) error(a.loc, fmt::format("unexpected '{}'", peek()));
    if (tok[0] == '?' || tok[0] == ':') {
      if (tok.size() == 1 || !is_name(tok.substr(1)))
        error(a.loc, fmt::format("'{}' needs a name after '{}'", tok, tok[0]));
      a.kind = tok[0] == '?' ? SExpr::Kind::Var : SExpr::Kind::Keyword;
      a.text = std::string(tok.substr(1));
      return a;
    }
    if (looks_numeric(tok)) return read_number(tok, a.loc);
    a.kind = SExpr::Kind::Symbol;
    a.text = std::string(tok);
    return a;
  }

  static bool is_name(std::string_view s) {
    if (!(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'))
        return false;
    return true;
  }

  static bool looks_numeric(std::string_view tok) {
    size_t i = (tok[0] == '-' || tok[0] == '+') ? 1 : 0;
    return i < tok.size() && (std::isdigit(static_cast<unsigned char>(tok[i])) ||
                              (tok[i] == '.' && i + 1 < tok.size() &&
                               std::isdigit(static_cast<unsigned char>(tok[i + 1]))));
  }

  SExpr read_number(std::string_view tok, const SourceLoc& loc) const {
    SExpr n;
    n.loc = loc;
    std::string_view digits = tok[0] == '+' ? tok.substr(1) : tok;
    const char* end = digits.data() + digits.size();
    int64_t i = 0;
    auto ri = std::from_chars(digits.data(), end, i);
    if (ri.ec == std::errc() && ri.ptr == end) {
      n.kind = SExpr::Kind::Int;
      n.int_value = i;
      return n;
    }
    if (ri.ec == std::errc::result_out_of_range)
      error(loc, fmt::format("integer '{}' is out of range", tok));
    double d = 0;
    auto rd = std::from_chars(digits.data(), end, d);
    if (rd.ec != std::errc() || rd.ptr != end) error(loc, fmt::format("bad number '{}'", tok));
    n.kind = SExpr::Kind::Float;
    n.float_value = d;
    return n;
  }

  static constexpr int kMaxDepth = 200;
  std::string_view text_;
  std::string file_;
  int depth_ = 0;
  size_t pos_ = 0;
  int line_ = 1, col_ = 1;
};

}  // namespace

std::vector<SExpr> read_sexprs(std::string_view text, const std::string& file) {
  return Reader(text, file).read_all();
}

SExpr read_sexpr(std::string_view text, const std::string& file) {
  std::vector<SExpr> all = read_sexprs(text, file);
  if (all.empty()) throw Error("expected an s-expression, found nothing", SourceLoc{file, 1, 1});
  if (all.size() > 1) fail_at(all[1], "expected one s-expression, found more");
  return all[0];
}

}  // namespace retort
