#include "core/rules/pattern.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "core/egraph/op_table.h"
#include "core/ops/registry.h"

namespace retort {

namespace {

class PatternParser {
 public:
  PatternParser(VarTable& vars, PatternSide side) : vars_(vars), side_(side) {}

  Pattern run(const SExpr& e) {
    node(e);
    return std::move(pattern_);
  }

 private:
  int push(PatternNode n) {
    pattern_.nodes.push_back(std::move(n));
    return static_cast<int>(pattern_.nodes.size()) - 1;
  }

  int node(const SExpr& e) {
    if (e.kind == SExpr::Kind::Var) return var_node(e);
    if (e.kind == SExpr::Kind::Symbol) return leaf_node(e);
    if (e.kind != SExpr::Kind::List)
      fail_at(e, fmt::format("expected ?var, an input or constant name, or (op ...) in a "
                             "pattern, got {} {}",
                             sexpr_kind_name(e.kind), e.str()));
    if (e.items.empty() || e.items[0].kind != SExpr::Kind::Symbol)
      fail_at(e, "expected (op operands... :attr value...)");
    PatternNode n;
    n.loc = e.loc;
    const OpDef& op = op_of(e.items[0], n);
    size_t i = 1;
    for (; i < e.items.size() && e.items[i].kind != SExpr::Kind::Keyword; ++i)
      n.children.push_back(node(e.items[i]));
    for (; i < e.items.size(); i += 2) {
      const SExpr& key = e.items[i];
      if (key.kind != SExpr::Kind::Keyword)
        fail_at(key,
                fmt::format("operands come before attributes; expected :attr, got {}", key.str()));
      if (i + 1 >= e.items.size()) fail_at(key, fmt::format(":{} needs a value", key.text));
      n.attrs.push_back(attr(op, key, e.items[i + 1], n));
    }
    std::sort(n.attrs.begin(), n.attrs.end(),
              [](const AttrPattern& a, const AttrPattern& b) { return a.name < b.name; });
    check_arity(op, e, n);
    if (side_ == PatternSide::Rhs) {
      check_required_attrs(op, e, n);
      n.fixed = fixed_enode(n);
    }
    return push(std::move(n));
  }

  // The e-node of a right-hand side node that needs nothing from a match, if it is valid (an
  // invalid one is rejected when applied, with the registry's reason).
  static std::optional<ENode> fixed_enode(const PatternNode& n) {
    if (n.out_expr) return std::nullopt;
    Attrs attrs;
    for (const AttrPattern& a : n.attrs) {
      if (a.kind != AttrPattern::Kind::Literal) return std::nullopt;
      attrs[a.name] = a.literal;
    }
    try {
      return make_enode(n.op_id, attrs, std::vector<EClassId>(n.children.size()),
                        static_cast<unsigned>(n.out), static_cast<unsigned>(n.n_out));
    } catch (const Error&) {
      return std::nullopt;
    }
  }

  int leaf_node(const SExpr& e) {
    if (vars_.find_param(e.text) >= 0)
      fail_at(e, fmt::format("'{}' is a parameter; an operand must be ?var, a name or (op ...)",
                             e.text));
    PatternNode n;
    n.kind = PatternNode::Kind::Leaf;
    n.op = e.text;
    n.loc = e.loc;
    return push(std::move(n));
  }

  int var_node(const SExpr& e) {
    if (vars_.find_attr(e.text) >= 0)
      fail_at(e, fmt::format("?{} is bound to an attribute, not an operand", e.text));
    PatternNode n;
    n.kind = PatternNode::Kind::Var;
    n.loc = e.loc;
    n.var = vars_.find_class(e.text);
    if (n.var < 0) {
      if (side_ == PatternSide::Rhs)
        fail_at(e, fmt::format("?{} is not bound by the left-hand side", e.text));
      n.var = static_cast<int>(vars_.classes.size());
      vars_.classes.push_back(e.text);
    }
    return push(std::move(n));
  }

  // "split@1/2" names output 1 of a split into 2; "split@r3/2" names it by a parameter.
  const OpDef& op_of(const SExpr& head, PatternNode& n) {
    std::string_view name = head.text;
    size_t at = name.find('@');
    if (at != std::string_view::npos) {
      output_of(head, name.substr(at + 1), n);
      name = name.substr(0, at);
    }
    n.op = std::string(name);
    const OpDef* op = OpRegistry::instance().find(name);
    if (!op) {
      if (find_op_id(name))
        fail_at(head, fmt::format("'{}' cannot appear in a pattern (write inputs and constants "
                                  "by name)",
                                  name));
      try {
        OpRegistry::instance().get(name);
      } catch (const Error& err) {
        fail_at(head, err.message());
      }
    }
    n.op_id = op_id(name);
    if (op->num_outputs >= 0) {
      if (n.n_out && n.n_out != op->num_outputs)
        fail_at(head, fmt::format("op '{}' has {} output(s), not {}", op->name, op->num_outputs,
                                  n.n_out));
      if (n.out >= op->num_outputs)
        fail_at(head, fmt::format("op '{}' has {} output(s); there is no output {}", op->name,
                                  op->num_outputs, n.out));
    } else if (side_ == PatternSide::Rhs && n.n_out == 0) {
      fail_at(head, fmt::format("op '{}' has a variable number of outputs: write {}@OUT/COUNT",
                                op->name, op->name));
    }
    if (n.n_out && n.out >= n.n_out && !n.out_expr)
      fail_at(head, fmt::format("output {} of {} does not exist", n.out, n.n_out));
    return *op;
  }

  static bool parse_count(std::string_view digits, int& out) {
    auto r = std::from_chars(digits.data(), digits.data() + digits.size(), out);
    return !digits.empty() && r.ec == std::errc() && r.ptr == digits.data() + digits.size() &&
           out >= 0 && out <= UINT16_MAX;
  }

  void output_of(const SExpr& head, std::string_view spec, PatternNode& n) {
    size_t slash = spec.find('/');
    std::string_view which = spec.substr(0, slash);
    if (slash != std::string_view::npos &&
        (!parse_count(spec.substr(slash + 1), n.n_out) || n.n_out == 0))
      fail_at(head,
              fmt::format("bad output count in '{}' (write op@OUT/COUNT, COUNT >= 1)", head.text));
    if (side_ == PatternSide::Rhs && vars_.find_param(std::string(which)) >= 0) {
      SExpr ref = head;
      ref.text = std::string(which);
      n.out_expr = Expr::parse(ref, vars_);
      return;
    }
    if (!parse_count(which, n.out))
      fail_at(head, fmt::format("bad output index in '{}' (write op@OUT with OUT >= 0, or "
                                "op@PARAM on a right-hand side)",
                                head.text));
  }

  void check_arity(const OpDef& op, const SExpr& e, const PatternNode& n) {
    int k = static_cast<int>(n.children.size());
    if (k < op.min_inputs || (op.max_inputs >= 0 && k > op.max_inputs)) {
      std::string want = op.max_inputs < 0 ? fmt::format("at least {}", op.min_inputs)
                         : op.min_inputs == op.max_inputs
                             ? fmt::format("{}", op.min_inputs)
                             : fmt::format("{} to {}", op.min_inputs, op.max_inputs);
      fail_at(e, fmt::format("op '{}' takes {} operand(s), got {}", op.name, want, k));
    }
  }

  void check_required_attrs(const OpDef& op, const SExpr& e, const PatternNode& n) {
    for (const auto& spec : op.attrs) {
      if (!spec.required) continue;
      bool given = std::any_of(n.attrs.begin(), n.attrs.end(),
                               [&](const AttrPattern& a) { return a.name == spec.name; });
      if (!given)
        fail_at(
            e, fmt::format("op '{}' needs attribute :{} on a right-hand side", op.name, spec.name));
    }
  }

  AttrPattern attr(const OpDef& op, const SExpr& key, const SExpr& value, const PatternNode& n) {
    const AttrSpec* spec = op.find_attr(key.text);
    if (!spec) fail_at(key, fmt::format("op '{}' has no attribute '{}'", op.name, key.text));
    for (const auto& a : n.attrs)
      if (a.name == key.text) fail_at(key, fmt::format(":{} is given twice", key.text));
    AttrPattern a;
    a.name = key.text;
    switch (value.kind) {
      case SExpr::Kind::Var:
        if (vars_.find_class(value.text) >= 0)
          fail_at(value, fmt::format("?{} is bound to an operand, not an attribute", value.text));
        a.kind = AttrPattern::Kind::Var;
        a.var = vars_.find_attr(value.text);
        if (a.var < 0) {
          if (side_ == PatternSide::Rhs)
            fail_at(value, fmt::format("?{} is not bound by the left-hand side", value.text));
          a.var = static_cast<int>(vars_.attrs.size());
          vars_.attrs.push_back(value.text);
        }
        return a;
      case SExpr::Kind::Symbol:
        if (side_ == PatternSide::Rhs && vars_.find_param(value.text) >= 0) {
          a.kind = AttrPattern::Kind::Computed;  // a parameter of the rule: :axis r1
          a.expr = Expr::parse(value, vars_);
          return a;
        }
        a.literal = literal(*spec, value);
        return a;
      case SExpr::Kind::List:
        if (side_ == PatternSide::Lhs)
          fail_at(value, "a left-hand side matches attributes by literal or ?var, not by (expr)");
        a.kind = AttrPattern::Kind::Computed;
        a.expr = Expr::parse(value, vars_);
        return a;
      default:
        a.literal = literal(*spec, value);
        return a;
    }
  }

  static AttrValue literal(const AttrSpec& spec, const SExpr& v) {
    AttrValue out;
    switch (v.kind) {
      case SExpr::Kind::Int:
        out = v.int_value;
        break;
      case SExpr::Kind::Float:
        out = v.float_value;
        break;
      case SExpr::Kind::String:
      case SExpr::Kind::Symbol:
        out = v.text;
        break;  // a symbol names a dtype: f16
      case SExpr::Kind::Bracket:
        out = list_literal(v);
        break;
      default:
        fail_at(v, fmt::format("expected an attribute value, got {}", v.str()));
    }
    if (!attr_fits(out, spec.kind))
      fail_at(v, fmt::format("attribute '{}' must be {}, got {}", spec.name,
                             attr_kind_name(spec.kind), v.str()));
    return attr_coerce(out, spec.kind);
  }

  static AttrValue list_literal(const SExpr& v) {
    bool all_int = true, all_str = true;
    for (const auto& item : v.items) {
      all_int = all_int && item.kind == SExpr::Kind::Int;
      all_str = all_str && (item.kind == SExpr::Kind::String || item.kind == SExpr::Kind::Symbol);
    }
    if (all_int) {
      std::vector<int64_t> ints;
      for (const auto& item : v.items) ints.push_back(item.int_value);
      return ints;
    }
    if (all_str) {
      std::vector<std::string> strs;
      for (const auto& item : v.items) strs.push_back(item.text);
      return strs;
    }
    std::vector<double> floats;
    for (const auto& item : v.items) {
      if (item.kind == SExpr::Kind::Int)
        floats.push_back(static_cast<double>(item.int_value));
      else if (item.kind == SExpr::Kind::Float)
        floats.push_back(item.float_value);
      else
        fail_at(item, "a [list] mixes numbers and names");
    }
    return floats;
  }

  VarTable& vars_;
  PatternSide side_;
  Pattern pattern_;
};

// Compiles a left-hand side into the flat program the matcher runs (MatchProgram).
class ProgramCompiler {
 public:
  ProgramCompiler(const Pattern& p, const VarTable& vars) : p_(p) {
    prog_.class_reg.assign(vars.classes.size(), kUnbound);
    prog_.attr_binds.resize(p.nodes.size());
    attr_seen_.assign(vars.attrs.size(), 0);
  }

  MatchProgram run() {
    node(p_.root_index(), 0);
    return std::move(prog_);
  }

 private:
  static constexpr uint32_t kUnbound = UINT32_MAX;

  void node(int pi, uint32_t reg) {
    using Instr = MatchProgram::Instr;
    const PatternNode& n = p_.nodes[pi];
    switch (n.kind) {
      case PatternNode::Kind::Var:
        if (prog_.class_reg[n.var] == kUnbound)
          prog_.class_reg[n.var] = reg;
        else
          prog_.instrs.push_back({Instr::Kind::SameClass, pi, prog_.class_reg[n.var], reg});
        return;
      case PatternNode::Kind::Leaf:
        prog_.instrs.push_back({Instr::Kind::Leaf, pi, reg, 0});
        return;
      case PatternNode::Kind::Op:
        break;
    }
    uint32_t first = prog_.n_regs;
    prog_.n_regs += static_cast<uint32_t>(n.children.size());
    prog_.instrs.push_back({Instr::Kind::Bind, pi, reg, first});
    for (const AttrPattern& a : n.attrs) {
      bool binds = a.kind == AttrPattern::Kind::Var && !attr_seen_[a.var];
      if (binds) attr_seen_[a.var] = 1;
      prog_.attr_binds[pi].push_back(binds);
    }
    for (size_t i = 0; i < n.children.size(); ++i)
      node(n.children[i], first + static_cast<uint32_t>(i));
  }

  const Pattern& p_;
  MatchProgram prog_;
  std::vector<uint8_t> attr_seen_;
};

}  // namespace

Pattern parse_pattern(const SExpr& e, VarTable& vars, PatternSide side) {
  Pattern p = PatternParser(vars, side).run(e);
  if (side == PatternSide::Lhs) p.program = ProgramCompiler(p, vars).run();
  return p;
}

std::string Pattern::str(const VarTable& vars) const {
  std::vector<std::string> text(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const PatternNode& n = nodes[i];
    if (n.kind == PatternNode::Kind::Var) {
      text[i] = "?" + vars.classes[n.var];
      continue;
    }
    if (n.kind == PatternNode::Kind::Leaf) {
      text[i] = n.op;
      continue;
    }
    std::string s = "(" + n.op;
    if (n.out_expr || n.out || n.n_out) {
      s += "@" + (n.out_expr ? n.out_expr->str() : fmt::format("{}", n.out));
      if (n.n_out) s += fmt::format("/{}", n.n_out);
    }
    for (int c : n.children) s += " " + text[c];
    for (const auto& a : n.attrs) {
      s += " :" + a.name + " ";
      switch (a.kind) {
        case AttrPattern::Kind::Literal:
          s += attr_value_str(a.literal);
          break;
        case AttrPattern::Kind::Var:
          s += "?" + vars.attrs[a.var];
          break;
        case AttrPattern::Kind::Computed:
          s += a.expr->str();
          break;
      }
    }
    text[i] = s + ")";
  }
  return text.back();
}

}  // namespace retort
