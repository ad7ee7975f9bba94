// The .rtg parser: tokens -> statements (resolved against the op registry) -> a Graph.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <variant>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/graph/graph_dot.h"
#include "core/io/rtg.h"
#include "core/io/rtg_init.h"
#include "core/io/rtg_lexer.h"
#include "core/io/shape_limits.h"
#include "core/ops/registry.h"
#include "core/tensor/number_text.h"
#include "core/tensor/random_tensor.h"

namespace retort {

namespace {

// random(low=, high=) bounds stay where every dtype's arithmetic on them is exact and finite.
constexpr double kMaxRandomBound = 1e15;

struct Located {
  std::string name;
  SourceLoc loc;
};

// A value as written, before an attribute spec or a constant's dtype gives it a meaning.
struct Literal {
  enum class Kind { Int, Float, String, Word, List } kind = Kind::Int;
  int64_t int_value = 0;
  double float_value = 0;
  std::string text;  // string contents, or the word (nan, inf, true, f16, ...)
  std::vector<Literal> items;
  SourceLoc loc;

  bool is_number() const {
    return kind == Kind::Int || kind == Kind::Float ||
           (kind == Kind::Word && (text == "nan" || text == "inf"));
  }
  double number() const {
    if (kind == Kind::Int) return static_cast<double>(int_value);
    if (kind == Kind::Float) return float_value;
    return *parse_float_text(text);
  }
};

std::string describe_literal(const Literal& l) {
  switch (l.kind) {
    case Literal::Kind::Int:
      return fmt::format("{}", l.int_value);
    case Literal::Kind::Float:
      return float_literal(l.float_value);
    case Literal::Kind::String:
      return quote_string(l.text);
    case Literal::Kind::Word:
      return l.text;
    case Literal::Kind::List:
      return "a list";
  }
  return "?";
}

struct GraphStmt {
  Located name;
};
struct InputStmt {
  Located name;
  TensorType type;
};
struct ConstStmt {
  Located name;
  Constant constant;
};
struct NodeStmt {
  Node node;
  SourceLoc op_loc;
  std::vector<Located> outputs;
  std::vector<Located> args;  // named inputs only (placeholders are not values)
};
struct OutputStmt {
  std::vector<Located> names;
};
// `function NAME` (a body) or `function NAME FORM TARGET` (a wrapper; core/graph/functions.h).
struct FunctionStmt {
  Located name;
  Function function;
};
// `call FUNCTION : NODE, ...`: the nodes (named by their first output) a call covers.
struct CallStmt {
  Located function;
  std::vector<Located> nodes;
};
using Statement =
    std::variant<GraphStmt, InputStmt, ConstStmt, NodeStmt, OutputStmt, FunctionStmt, CallStmt>;

std::string known_dtypes() {
  std::vector<std::string_view> names;
  for (DType t : kAllDTypes) names.push_back(dtype_name(t));
  return fmt::format("{}", fmt::join(names, ", "));
}

// Turns tokens into statements. It knows the registry (op names, attribute kinds) but not the
// graph: whether names are defined is the builder's business.
class Parser {
 public:
  Parser(std::vector<Token> tokens, std::string file)
      : toks_(std::move(tokens)), file_(std::move(file)) {}

  bool at_end() {
    skip_newlines();
    return peek().kind == TokKind::End;
  }
  const Token& peek(size_t ahead = 0) const {
    size_t i = std::min(pos_ + ahead, toks_.size() - 1);
    return toks_[i];
  }
  SourceLoc loc(const Token& t) const { return {file_, t.line, t.col}; }

  Statement statement() {
    skip_newlines();
    Statement s = statement_body();
    const Token& t = peek();
    if (t.kind != TokKind::Newline && t.kind != TokKind::End)
      error_at(
          t, fmt::format("expected end of line after the statement, found {}", describe_token(t)));
    return s;
  }

  // The initialiser after `=` in a const statement, as canonical text plus the tensor.
  std::pair<Tensor, std::string> constant_init(const TensorType& type, const std::string& what);

 private:
  const Token& take() {
    const Token& t = toks_[pos_];
    if (pos_ + 1 < toks_.size()) ++pos_;
    return t;
  }
  void skip_newlines() {
    while (peek().kind == TokKind::Newline) take();
  }
  [[noreturn]] void error_at(const Token& t, const std::string& message) const {
    throw Error(message, loc(t));
  }
  [[noreturn]] void error_at(const SourceLoc& l, const std::string& message) const {
    throw Error(message, l);
  }
  const Token& expect(TokKind kind, std::string_view what, std::string_view context) {
    const Token& t = peek();
    if (t.kind != kind)
      error_at(t, fmt::format("expected {} {}, found {}", what, context, describe_token(t)));
    return take();
  }
  bool is_keyword_statement(std::string_view word) const {
    const Token& t = peek();
    if (t.kind != TokKind::Ident || t.text != word) return false;
    TokKind next = peek(1).kind;
    return next != TokKind::Equals && next != TokKind::Comma;
  }

  Statement statement_body() {
    if (is_keyword_statement("graph")) {
      take();
      return GraphStmt{name("after 'graph'")};
    }
    if (is_keyword_statement("input")) {
      take();
      InputStmt s{name("after 'input'"), {}};
      expect(TokKind::Colon, "':'", fmt::format("after input name '{}'", s.name.name));
      s.type = tensor_type(kMaxFileTensorElements);
      return s;
    }
    if (is_keyword_statement("const")) return const_statement();
    if (is_keyword_statement("function")) return function_statement();
    if (is_keyword_statement("call")) return call_statement();
    if (is_keyword_statement("output")) {
      take();
      OutputStmt s;
      s.names.push_back(name("after 'output'"));
      while (peek().kind == TokKind::Comma) {
        take();
        s.names.push_back(name("after ','"));
      }
      return s;
    }
    return node_statement();
  }

  Located name(std::string_view context) {
    const Token& t = peek();
    if ((t.kind == TokKind::Ident && t.text != "_") || t.kind == TokKind::Name) {
      take();
      return {t.text, loc(t)};
    }
    error_at(t, fmt::format("expected a value name {}, found {}", context, describe_token(t)));
  }

  TensorType tensor_type(int64_t max_elements) {
    const Token& d = peek();
    if (d.kind != TokKind::Ident)
      error_at(d,
               fmt::format("expected a tensor type such as f32[2,3], found {}", describe_token(d)));
    auto dtype = parse_dtype(d.text);
    if (!dtype) error_at(d, fmt::format("unknown dtype '{}' (known: {})", d.text, known_dtypes()));
    take();
    expect(TokKind::LBracket, "'['",
           fmt::format("after dtype '{}' (a scalar is {}[])", d.text, d.text));
    TensorType type{*dtype, {}};
    if (peek().kind != TokKind::RBracket) {
      while (true) {
        const Token& dim = peek();
        if (dim.kind != TokKind::Int)
          error_at(dim, fmt::format("expected a dimension (an integer >= 0) in the shape, found {}",
                                    describe_token(dim)));
        if (dim.int_value < 0)
          error_at(dim, fmt::format("dimension {} is negative", dim.int_value));
        type.shape.push_back(dim.int_value);
        take();
        if (peek().kind != TokKind::Comma) break;
        take();
      }
    }
    expect(TokKind::RBracket, "']' or ','", "in the shape");
    try {
      check_declared_shape(type.shape, max_elements);
    } catch (const Error& e) {
      error_at(d, fmt::format("{}: {}", type.str(), e.message()));
    }
    return type;
  }

  Statement const_statement() {
    take();
    ConstStmt s{name("after 'const'"), {}};
    expect(TokKind::Colon, "':'", fmt::format("after constant name '{}'", s.name.name));
    TensorType type = tensor_type(kMaxConstantElements);
    expect(TokKind::Equals, "'='", fmt::format("after the type of constant '{}'", s.name.name));
    auto [value, init] = constant_init(type, fmt::format("constant '{}'", s.name.name));
    s.constant = Constant{s.name.name, std::move(value), std::move(init)};
    return s;
  }

  // A literal: number, nan/inf/true/false or other word, string, or [list] nested up to depth.
  Literal literal(int max_depth, std::string_view context) {
    const Token& t = peek();
    Literal l;
    l.loc = loc(t);
    switch (t.kind) {
      case TokKind::Int:
        l.kind = Literal::Kind::Int;
        l.int_value = t.int_value;
        break;
      case TokKind::Float:
        l.kind = Literal::Kind::Float;
        l.float_value = t.float_value;
        break;
      case TokKind::String:
        l.kind = Literal::Kind::String;
        l.text = t.text;
        break;
      case TokKind::Ident:
        l.kind = Literal::Kind::Word;
        l.text = t.text;
        break;
      case TokKind::LBracket: {
        if (max_depth <= 0) error_at(t, fmt::format("lists are not nested this deep {}", context));
        take();
        l.kind = Literal::Kind::List;
        if (peek().kind != TokKind::RBracket) {
          while (true) {
            l.items.push_back(literal(max_depth - 1, context));
            if (peek().kind != TokKind::Comma) break;
            take();
          }
        }
        expect(TokKind::RBracket, "']' or ','", context);
        return l;
      }
      default:
        error_at(t, fmt::format("expected a value {}, found {}", context, describe_token(t)));
    }
    take();
    return l;
  }

  Statement function_statement() {
    take();
    FunctionStmt s{name("after 'function'"), {}};
    s.function.name = s.name.name;
    const Token& form = peek();
    if (form.kind == TokKind::Newline || form.kind == TokKind::End) return s;
    auto parsed = form.kind == TokKind::Ident ? parse_function_form(form.text) : std::nullopt;
    if (!parsed || *parsed == FunctionForm::Body)
      error_at(form, fmt::format("expected how '{}' wraps another function (forward, returns or "
                                 "closure) or the end of the line, found {}",
                                 s.name.name, describe_token(form)));
    take();
    s.function.form = *parsed;
    s.function.target = name(fmt::format("after '{}'", form.text)).name;
    return s;
  }

  Statement call_statement() {
    take();
    CallStmt s{name("after 'call'"), {}};
    expect(TokKind::Colon, "':'", fmt::format("after the function name '{}'", s.function.name));
    s.nodes.push_back(name("after ':' (a node, by its first output)"));
    while (peek().kind == TokKind::Comma) {
      take();
      s.nodes.push_back(name("after ','"));
    }
    return s;
  }

  Statement node_statement() {
    NodeStmt s;
    s.outputs.push_back(
        name("at the start of a statement (input, const, output or "
             "NAME = op(...))"));
    while (peek().kind == TokKind::Comma) {
      take();
      s.outputs.push_back(name("after ','"));
    }
    expect(TokKind::Equals, "'='", "after the output names");
    for (const auto& o : s.outputs) s.node.outputs.push_back(o.name);
    s.node.name = s.outputs[0].name;

    const Token& op_tok = peek();
    s.op_loc = loc(op_tok);
    if (op_tok.kind == TokKind::Ident && op_tok.text == "opaque" &&
        peek(1).kind == TokKind::String) {
      opaque_node(s);
      return s;
    }
    if (op_tok.kind != TokKind::Ident)
      error_at(op_tok,
               fmt::format("expected an op name after '=', found {}", describe_token(op_tok)));
    const OpDef* op = nullptr;
    try {
      op = &OpRegistry::instance().get(op_tok.text);
    } catch (const Error& e) {
      error_at(op_tok, e.message());
    }
    take();
    s.node.op = op->name;
    arguments(s, op);
    return s;
  }

  // `opaque "domain::OpType@version"(args) : type, type...` (domain and version optional)
  void opaque_node(NodeStmt& s) {
    take();
    const Token& id = take();
    std::string text = id.text;
    OpaqueInfo info;
    size_t at = text.rfind('@');
    if (at != std::string::npos) {
      std::string_view digits = std::string_view(text).substr(at + 1);
      int version = 0;
      auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), version);
      if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() ||
          version <= 0)
        error_at(id, fmt::format("opaque op version '@{}' must be a positive integer", digits));
      info.version = version;
      text.resize(at);
    }
    size_t sep = text.rfind("::");
    if (sep == std::string::npos) {
      s.node.op = text;
    } else {
      info.domain = text.substr(0, sep);
      s.node.op = text.substr(sep + 2);
    }
    if (s.node.op.empty())
      error_at(id, "an opaque op needs a name: \"domain::OpType@version\" or \"OpType\"");
    arguments(s, nullptr);
    const Token& colon = expect(TokKind::Colon, "':' and the output types",
                                fmt::format("after the arguments of opaque op '{}'", s.node.op));
    info.output_types.push_back(tensor_type(kMaxFileTensorElements));
    while (peek().kind == TokKind::Comma) {
      take();
      info.output_types.push_back(tensor_type(kMaxFileTensorElements));
    }
    if (info.output_types.size() != s.node.outputs.size())
      error_at(colon, fmt::format("opaque op '{}' declares {} output type(s) for {} output name(s)",
                                  s.node.op, info.output_types.size(), s.node.outputs.size()));
    s.node.opaque = std::move(info);
  }

  void arguments(NodeStmt& s, const OpDef* op) {
    const std::string& op_name = s.node.op;
    expect(TokKind::LParen, "'('", fmt::format("after op name '{}'", op_name));
    bool seen_attr = false;
    if (peek().kind != TokKind::RParen) {
      while (true) {
        const Token& t = peek();
        bool is_attr = t.kind == TokKind::Ident && peek(1).kind == TokKind::Equals;
        if (is_attr) {
          seen_attr = true;
          attribute(s.node, op);
        } else {
          if (seen_attr)
            error_at(t, fmt::format("inputs come before attributes in the arguments of '{}', "
                                    "found {} after an attribute",
                                    op_name, describe_token(t)));
          if (t.kind == TokKind::Ident && t.text == "_") {
            take();
            s.node.inputs.push_back("");
          } else {
            Located in =
                name(fmt::format("(or `_` or name=value) in the arguments of '{}'", op_name));
            s.node.inputs.push_back(in.name);
            s.args.push_back(std::move(in));
          }
        }
        if (peek().kind != TokKind::Comma) break;
        take();
      }
    }
    expect(TokKind::RParen, "')'", fmt::format("after the arguments of '{}'", op_name));
  }

  void attribute(Node& node, const OpDef* op) {
    const Token& key = take();
    take();  // '='
    if (node.attrs.count(key.text))
      error_at(key, fmt::format("attribute '{}' is given twice", key.text));
    if (!op) {
      Literal v = literal(1, fmt::format("for attribute '{}'", key.text));
      node.attrs[key.text] = untyped_attr(v, key.text);
      return;
    }
    const AttrSpec* spec = op->find_attr(key.text);
    if (!spec) {
      std::vector<std::string> known;
      for (const auto& a : op->attrs) known.push_back(a.name);
      if (known.empty())
        error_at(key, fmt::format("op '{}' takes no attribute, got '{}'", op->name, key.text));
      error_at(key, fmt::format("op '{}' has no attribute '{}' (it has: {})", op->name, key.text,
                                fmt::join(known, ", ")));
    }
    Literal v = literal(1, fmt::format("for attribute '{}'", key.text));
    node.attrs[key.text] = typed_attr(v, *spec, op->name);
  }

  AttrValue typed_attr(const Literal& v, const AttrSpec& spec, const std::string& op_name) {
    auto wrong = [&](std::string_view expected) -> AttrValue {
      error_at(v.loc, fmt::format("attribute '{}' of op '{}' expects {}, found {}", spec.name,
                                  op_name, expected, describe_literal(v)));
    };
    using K = Literal::Kind;
    switch (spec.kind) {
      case AttrKind::Int:
        if (v.kind != K::Int) return wrong("an int");
        return v.int_value;
      case AttrKind::Float:
        if (!v.is_number()) return wrong("a float");
        return v.number();
      case AttrKind::String:
        if (v.kind != K::String) return wrong("a string");
        return v.text;
      case AttrKind::DType:
        if ((v.kind != K::Word && v.kind != K::String) || !parse_dtype(v.text))
          return wrong(fmt::format("a dtype ({})", known_dtypes()));
        return v.text;
      case AttrKind::Ints: {
        if (v.kind != K::List) return wrong("a list of ints such as [0,2,1]");
        std::vector<int64_t> out;
        for (const auto& item : v.items) {
          if (item.kind != K::Int) return wrong("a list of ints");
          out.push_back(item.int_value);
        }
        return out;
      }
      case AttrKind::Floats: {
        if (v.kind != K::List) return wrong("a list of floats such as [0.5,1.0]");
        std::vector<double> out;
        for (const auto& item : v.items) {
          if (!item.is_number()) return wrong("a list of floats");
          out.push_back(item.number());
        }
        return out;
      }
      case AttrKind::Strings: {
        if (v.kind != K::List) return wrong("a list of strings such as [\"a\",\"b\"]");
        std::vector<std::string> out;
        for (const auto& item : v.items) {
          if (item.kind != K::String) return wrong("a list of strings");
          out.push_back(item.text);
        }
        return out;
      }
    }
    return wrong("a value");
  }

  // Opaque ops have no spec: the literal's own form decides the kind (an int list holding one
  // float is a float list; an empty list is an int list).
  AttrValue untyped_attr(const Literal& v, const std::string& attr) {
    using K = Literal::Kind;
    auto wrong = [&]() -> AttrValue {
      error_at(v.loc, fmt::format("attribute '{}' of an opaque op must be a number, a string or "
                                  "a list of one of them, found {}",
                                  attr, describe_literal(v)));
    };
    if (v.kind == K::Int) return v.int_value;
    if (v.is_number()) return v.number();
    if (v.kind == K::String) return v.text;
    if (v.kind != K::List) return wrong();
    bool all_int = true, all_number = true, all_string = true;
    for (const auto& item : v.items) {
      all_int = all_int && item.kind == K::Int;
      all_number = all_number && item.is_number();
      all_string = all_string && item.kind == K::String;
    }
    if (all_int) {
      std::vector<int64_t> out;
      for (const auto& item : v.items) out.push_back(item.int_value);
      return out;
    }
    if (all_number) {
      std::vector<double> out;
      for (const auto& item : v.items) out.push_back(item.number());
      return out;
    }
    if (all_string) {
      std::vector<std::string> out;
      for (const auto& item : v.items) out.push_back(item.text);
      return out;
    }
    return wrong();
  }

  // Stores one element literal into t[i], checking that it is a value of t's dtype.
  void set_element(Tensor& t, int64_t i, const Literal& v, const std::string& what) {
    DType dt = t.dtype();
    auto wrong = [&](std::string_view expected) {
      error_at(v.loc, fmt::format("{} is {}: expected {}, found {}", what, dtype_name(dt), expected,
                                  describe_literal(v)));
    };
    if (is_float(dt)) {
      if (!v.is_number()) wrong("a number");
      t.set(i, v.number());
    } else if (dt == DType::boolean) {
      if (v.kind == Literal::Kind::Word && (v.text == "true" || v.text == "false"))
        t.set_int(i, v.text == "true");
      else if (v.kind == Literal::Kind::Int && (v.int_value == 0 || v.int_value == 1))
        t.set_int(i, v.int_value);
      else
        wrong("true, false, 0 or 1");
    } else {
      if (v.kind != Literal::Kind::Int) wrong("an integer");
      if (wrap_int(v.int_value, dt) != v.int_value)
        error_at(v.loc, fmt::format("{} is {}: {} is out of its range", what, dtype_name(dt),
                                    v.int_value));
      t.set_int(i, v.int_value);
    }
  }

  // Flattens a (possibly nested) list literal of a constant into t, row-major.
  void fill_from_list(Tensor& t, const Literal& list, const std::string& what) {
    bool nested = false;
    for (const auto& item : list.items) nested = nested || item.kind == Literal::Kind::List;
    if (!nested) {
      if (static_cast<int64_t>(list.items.size()) != t.numel())
        error_at(list.loc, fmt::format("{} has type {}: expected {} value(s), found {}", what,
                                       t.type().str(), t.numel(), list.items.size()));
      for (size_t i = 0; i < list.items.size(); ++i)
        set_element(t, static_cast<int64_t>(i), list.items[i], what);
      return;
    }
    int64_t next = 0;
    fill_nested(t, list, 0, next, what);
  }

  void fill_nested(Tensor& t, const Literal& l, size_t level, int64_t& next,
                   const std::string& what) {
    const Shape& shape = t.shape();
    if (level == shape.size()) {
      if (l.kind == Literal::Kind::List)
        error_at(l.loc, fmt::format("{} has type {}: lists are nested deeper than its rank {}",
                                    what, t.type().str(), shape.size()));
      set_element(t, next++, l, what);
      return;
    }
    if (l.kind != Literal::Kind::List || static_cast<int64_t>(l.items.size()) != shape[level])
      error_at(l.loc,
               fmt::format("{} has type {}: expected a list of {} at depth {}, found {}", what,
                           t.type().str(), shape[level], level + 1,
                           l.kind == Literal::Kind::List ? fmt::format("{} item(s)", l.items.size())
                                                         : describe_literal(l)));
    for (const auto& item : l.items) fill_nested(t, item, level + 1, next, what);
  }

  std::pair<Tensor, std::string> random_init(const TensorType& type, const Token& head) {
    take();
    expect(TokKind::LParen, "'('", "after 'random'");
    std::map<std::string, Literal> args;
    if (peek().kind != TokKind::RParen) {
      while (true) {
        const Token& key = expect(TokKind::Ident, "seed=, low= or high=", "in random(...)");
        if (key.text != "seed" && key.text != "low" && key.text != "high")
          error_at(key, fmt::format("random() takes seed=, low= and high=, not '{}'", key.text));
        if (args.count(key.text))
          error_at(key, fmt::format("'{}' is given twice in random()", key.text));
        expect(TokKind::Equals, "'='", fmt::format("after '{}'", key.text));
        args[key.text] = literal(0, fmt::format("for '{}' in random()", key.text));
        if (peek().kind != TokKind::Comma) break;
        take();
      }
    }
    expect(TokKind::RParen, "')'", "after the arguments of random()");
    auto seed = args.find("seed");
    if (seed == args.end()) error_at(head, "random() needs seed=N (an integer >= 0)");
    if (seed->second.kind != Literal::Kind::Int || seed->second.int_value < 0)
      error_at(seed->second.loc, fmt::format("seed must be an integer >= 0, found {}",
                                             describe_literal(seed->second)));
    Rng rng(static_cast<uint64_t>(seed->second.int_value));
    std::string text = fmt::format("random(seed={}", seed->second.int_value);
    bool has_low = args.count("low"), has_high = args.count("high");
    if (has_low != has_high) error_at(head, "random() takes low= and high= together");
    if (!has_low) return {random_tensor(type, rng), text + ")"};

    const Literal& low = args["low"];
    const Literal& high = args["high"];
    for (const Literal* b : {&low, &high})
      if (!b->is_number() || !std::isfinite(b->number()) ||
          std::fabs(b->number()) > kMaxRandomBound)
        error_at(b->loc, fmt::format("random() bounds must be numbers within +-{:g}, found {}",
                                     kMaxRandomBound, describe_literal(*b)));
    double lo = low.number(), hi = high.number();
    bool empty = is_float(type.dtype) ? !(lo < hi) : std::ceil(lo) > std::floor(hi);
    if (empty)
      error_at(low.loc,
               fmt::format("random() range [{}, {}] holds no {} value", describe_literal(low),
                           describe_literal(high), dtype_name(type.dtype)));
    text += fmt::format(", low={}, high={})", describe_literal(low), describe_literal(high));
    return {random_tensor_in(type, rng, lo, hi), text};
  }

  std::vector<Token> toks_;  // never empty: ends with End
  std::string file_;
  size_t pos_ = 0;
};

std::pair<Tensor, std::string> Parser::constant_init(const TensorType& type,
                                                     const std::string& what) {
  const Token& head = peek();
  Tensor t(type);
  if (head.kind == TokKind::Ident && head.text == "random" && peek(1).kind == TokKind::LParen)
    return random_init(type, head);
  if (head.kind == TokKind::Ident && head.text == "fill" && peek(1).kind == TokKind::LParen) {
    take();
    take();
    Literal v = literal(0, "in fill()");
    expect(TokKind::RParen, "')'", "after the value of fill()");
    Tensor element(type.dtype, {});
    set_element(element, 0, v, what);
    size_t width = dtype_size(type.dtype);
    for (int64_t i = 0; i < t.numel(); ++i)
      std::memcpy(t.bytes() + static_cast<size_t>(i) * width, element.bytes(), width);
    return {std::move(t), fmt::format("fill({})", describe_literal(v))};
  }
  if (head.kind == TokKind::LBracket) {
    Literal list = literal(std::max<int>(1, static_cast<int>(type.shape.size())),
                           fmt::format("in the values of {}", what));
    fill_from_list(t, list, what);
    return {std::move(t), ""};
  }
  if (head.kind == TokKind::Int || head.kind == TokKind::Float || head.kind == TokKind::Ident) {
    bool value_word = head.kind != TokKind::Ident || head.text == "nan" || head.text == "inf" ||
                      head.text == "true" || head.text == "false";
    if (value_word) {
      Literal v = literal(0, "");
      if (t.numel() != 1)
        error_at(v.loc, fmt::format("{} has type {}: a single value fills one element; write "
                                    "fill({}) to fill all {}",
                                    what, type.str(), describe_literal(v), t.numel()));
      set_element(t, 0, v, what);
      return {std::move(t), ""};
    }
  }
  error_at(head, fmt::format("expected random(seed=N), fill(V), a [list] or a number for {}, "
                             "found {}",
                             what, describe_token(head)));
}

// Where each definition came from, for "already defined" messages.
std::string where(const SourceLoc& l) {
  return l.known() ? fmt::format(" (at line {})", l.line) : "";
}

// Turns infer_graph's node-named errors (by node_title) into errors at the statement that wrote
// the node.
[[noreturn]] void rethrow_located(const Error& e, const Graph& g,
                                  const std::map<std::string, SourceLoc>& node_locs,
                                  const SourceLoc& fallback) {
  const Node* n = node_titled(g, e.node());
  auto it = n ? node_locs.find(n->name) : node_locs.end();
  if (it != node_locs.end()) throw Error(e.message(), it->second, e.node());
  throw Error(e.message(), fallback, e.node());
}

class FileBuilder {
 public:
  explicit FileBuilder(std::string file) : file_(std::move(file)) {}

  void add(Statement&& s, bool first) {
    std::visit([&](auto&& st) { apply(std::move(st), first); }, std::move(s));
  }

  Graph finish(const SourceLoc& end) {
    if (g_.outputs.empty())
      throw Error("the graph has no `output` statement (write e.g. `output y`)", end);
    try {
      infer_graph(g_);
    } catch (const Error& e) {
      rethrow_located(e, g_, node_locs_, SourceLoc{file_});
    }
    return std::move(g_);
  }

 private:
  void claim(const Located& n) {
    auto [it, fresh] = defined_.emplace(n.name, n.loc);
    if (!fresh)
      throw Error(fmt::format("'{}' is already defined{}", n.name, where(it->second)), n.loc);
  }
  void require_defined(const Located& n) {
    if (!defined_.count(n.name))
      throw Error(fmt::format("undefined value '{}' (define it with input, const or an earlier "
                              "statement)",
                              n.name),
                  n.loc);
  }

  void apply(GraphStmt&& s, bool first) {
    if (!first) throw Error("`graph NAME` must be the first statement", s.name.loc);
    g_.name = s.name.name;
  }
  void apply(InputStmt&& s, bool) {
    claim(s.name);
    g_.inputs.push_back({s.name.name, s.type});
  }
  void apply(ConstStmt&& s, bool) {
    claim(s.name);
    g_.constants.push_back(std::move(s.constant));
  }
  void apply(NodeStmt&& s, bool) {
    for (const auto& a : s.args) require_defined(a);
    for (const auto& o : s.outputs) claim(o);
    node_locs_[s.node.name] = s.op_loc;
    g_.nodes.push_back(std::move(s.node));
  }
  void apply(OutputStmt&& s, bool) {
    for (const auto& n : s.names) {
      require_defined(n);
      if (!listed_.insert(n.name).second)
        throw Error(fmt::format("'{}' is already an output", n.name), n.loc);
      g_.outputs.push_back(n.name);
    }
  }

  void apply(FunctionStmt&& s, bool) {
    if (find_function(g_, s.name.name))
      throw Error(fmt::format("function '{}' is already defined", s.name.name), s.name.loc);
    g_.functions.push_back(std::move(s.function));
  }
  void apply(CallStmt&& s, bool) {
    Call call{s.function.name, {}};
    for (const auto& n : s.nodes) {
      if (!node_locs_.count(n.name))
        throw Error(fmt::format("'{}' names no node written before this call (a node is named by "
                                "its first output)",
                                n.name),
                    n.loc);
      call.nodes.push_back(n.name);
    }
    g_.calls.push_back(std::move(call));
  }

  std::string file_;
  Graph g_;
  std::map<std::string, SourceLoc> defined_;
  std::map<std::string, SourceLoc> node_locs_;
  std::set<std::string> listed_;
};

// A graph being built at the prompt may have no outputs yet; type it all the same by naming
// one defined value as a stand-in output while inference runs.
void infer_without_requiring_outputs(Graph& g) {
  if (!g.outputs.empty()) return infer_graph(g);
  std::string stand_in;
  if (!g.inputs.empty())
    stand_in = g.inputs[0].name;
  else if (!g.constants.empty())
    stand_in = g.constants[0].name;
  else if (!g.nodes.empty() && !g.nodes[0].outputs.empty())
    stand_in = g.nodes[0].outputs[0];
  if (stand_in.empty()) {
    g.types.clear();
    return;
  }
  g.outputs = {stand_in};
  try {
    infer_graph(g);
  } catch (...) {
    g.outputs.clear();
    throw;
  }
  g.outputs.clear();
}

std::string kind_of_value(const Graph& g, const std::string& name) {
  if (g.find_input(name)) return "an input";
  if (g.find_constant(name)) return "a constant";
  return "a node output";
}

// Applies one statement to a copy of the graph (see apply_rtg_statement).
class StatementApplier {
 public:
  explicit StatementApplier(Graph& g) : g_(g) {}

  void operator()(GraphStmt&& s) { g_.name = s.name.name; }

  void operator()(InputStmt&& s) {
    for (auto& in : g_.inputs)
      if (in.name == s.name.name) {
        in.type = s.type;
        return;
      }
    require_fresh(s.name, "an input");
    g_.inputs.push_back({s.name.name, s.type});
  }

  void operator()(ConstStmt&& s) {
    for (auto& c : g_.constants)
      if (c.name == s.name.name) {
        c = std::move(s.constant);
        return;
      }
    require_fresh(s.name, "a constant");
    g_.constants.push_back(std::move(s.constant));
  }

  void operator()(NodeStmt&& s) {
    for (const auto& a : s.args)
      if (!g_.defines(a.name)) throw Error(fmt::format("undefined value '{}'", a.name), a.loc);
    std::set<std::string> seen;
    for (const auto& o : s.outputs)
      if (!seen.insert(o.name).second)
        throw Error(fmt::format("'{}' is named twice", o.name), o.loc);
    Node* old = nullptr;
    for (auto& n : g_.nodes)
      if (n.name == s.node.name) old = &n;
    for (const auto& o : s.outputs) {
      bool was_old_output =
          old && std::find(old->outputs.begin(), old->outputs.end(), o.name) != old->outputs.end();
      if (!was_old_output && g_.defines(o.name))
        throw Error(fmt::format("'{}' is already defined as {}", o.name, kind_of_value(g_, o.name)),
                    o.loc);
    }
    if (old)
      *old = std::move(s.node);
    else
      g_.nodes.push_back(std::move(s.node));
  }

  void operator()(FunctionStmt&& s) {
    for (auto& f : g_.functions)
      if (f.name == s.name.name) {
        f = std::move(s.function);
        return;
      }
    g_.functions.push_back(std::move(s.function));
  }

  void operator()(CallStmt&& s) {
    Call call{s.function.name, {}};
    for (const auto& n : s.nodes) {
      auto it = std::find_if(g_.nodes.begin(), g_.nodes.end(), [&](const Node& node) {
        return !node.outputs.empty() && node.outputs[0] == n.name;
      });
      if (it == g_.nodes.end())
        throw Error(fmt::format("'{}' names no node (a node is named by its first output)", n.name),
                    n.loc);
      call.nodes.push_back(it->name);
    }
    g_.calls.push_back(std::move(call));
  }

  void operator()(OutputStmt&& s) {
    for (const auto& n : s.names) {
      if (!g_.defines(n.name)) throw Error(fmt::format("undefined value '{}'", n.name), n.loc);
      if (std::find(g_.outputs.begin(), g_.outputs.end(), n.name) != g_.outputs.end())
        throw Error(fmt::format("'{}' is already an output", n.name), n.loc);
      g_.outputs.push_back(n.name);
    }
  }

 private:
  void require_fresh(const Located& n, std::string_view as) {
    if (g_.defines(n.name))
      throw Error(fmt::format("'{}' is already defined as {}; it cannot become {}", n.name,
                              kind_of_value(g_, n.name), as),
                  n.loc);
  }
  Graph& g_;
};

}  // namespace

Graph parse_rtg(std::string_view text, const std::string& file) {
  Parser parser(lex_rtg(text, file), file);
  FileBuilder builder(file);
  bool first = true;
  while (!parser.at_end()) {
    builder.add(parser.statement(), first);
    first = false;
  }
  return builder.finish(parser.loc(parser.peek()));
}

void apply_rtg_statement(Graph& g, std::string_view statement) {
  Parser parser(lex_rtg(statement, ""), "");
  if (parser.at_end())
    throw Error("expected a statement, found nothing", parser.loc(parser.peek()));
  SourceLoc start = parser.loc(parser.peek());
  Statement s = parser.statement();
  if (!parser.at_end())
    throw Error("expected one statement, found a second one", parser.loc(parser.peek()));

  std::map<std::string, SourceLoc> node_locs;
  if (auto* node = std::get_if<NodeStmt>(&s)) node_locs[node->node.name] = node->op_loc;
  // An input or constant given again is redefined; when that breaks a node reading it, the error
  // says so (`def input x` on a loaded sample used to blame a node the user never wrote).
  std::string redefined;
  if (auto* in = std::get_if<InputStmt>(&s); in && g.find_input(in->name.name))
    redefined = fmt::format("input '{}'", in->name.name);
  if (auto* c = std::get_if<ConstStmt>(&s); c && g.find_constant(c->name.name))
    redefined = fmt::format("constant '{}'", c->name.name);
  Graph edited = g;
  std::visit(StatementApplier(edited), std::move(s));
  try {
    infer_without_requiring_outputs(edited);
  } catch (const Error& e) {
    if (!redefined.empty())
      throw Error(
          fmt::format("this redefines {} of the current graph, and then {}{} (`new` "
                      "starts an empty graph)",
                      redefined, e.node().empty() ? "" : "node '" + e.node() + "': ", e.message()),
          start);
    rethrow_located(e, edited, node_locs, start);
  }
  g = std::move(edited);
}

std::optional<Tensor> tensor_from_init_text(std::string_view init_text, const TensorType& type) {
  try {
    Parser parser(lex_rtg(init_text, ""), "");
    auto [value, canonical] = parser.constant_init(type, "the constant");
    if (!parser.at_end()) return std::nullopt;
    return value;
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace retort
