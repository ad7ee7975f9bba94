// Patterns: terms with variables, the two sides of a rewrite rule.
//
//   (add ?x ?y)                       ?x ?y match any e-class
//   (transpose ?x :perm ?p)           ?p binds the attribute value
//   (concat ?x ?y :axis 0)            a literal attribute must be equal
//   (split@1/2 ?x :axis 0)            output 1 of a split into 2 (the /2 may be left out on a LHS)
//   (split@r3/2 ?x :axis 0)           the output a rule parameter names (right-hand sides only)
//   (add I1 ?y)                       I1: the graph input or constant named I1
//   (transpose ?x :perm (swap 3 0 1)) a computed attribute (right-hand sides only)
//
// Attributes a left-hand side leaves out match any value; a right-hand side gets the op's
// defaults for them. docs/rules.md has the full syntax.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/egraph/enode.h"
#include "core/egraph/ids.h"
#include "core/rules/expr.h"
#include "core/rules/sexpr.h"

namespace retort {

struct AttrPattern {
  enum class Kind { Literal, Var, Computed };
  std::string name;
  Kind kind = Kind::Literal;
  AttrValue literal;         // Literal
  int var = -1;              // Var: index into VarTable::attrs
  std::optional<Expr> expr;  // Computed
};

struct PatternNode {
  enum class Kind {
    Var,   // ?x
    Op,    // (op ...)
    Leaf,  // a bare name in an operand position: the graph input or constant of that name
  };
  Kind kind = Kind::Op;
  int var = -1;                    // Var: index into VarTable::classes
  std::string op;                  // Op: registry name; Leaf: the input or constant name
  OpId op_id;                      // Op
  int out = 0;                     // Op: which output
  std::optional<Expr> out_expr;    // Op, right-hand sides: (split@r3/2 ...) names it by parameter
  int n_out = 0;                   // Op: how many outputs (0: the op's own count, or any on a LHS)
  std::vector<int> children;       // indices of earlier nodes in Pattern::nodes
  std::vector<AttrPattern> attrs;  // sorted by name
  // Op, right-hand sides whose attributes and output are all literal: the e-node (children
  // unset), normalised against the registry once when the rule is read instead of per
  // application.
  std::optional<ENode> fixed;
  SourceLoc loc;
};

// A left-hand side compiled once, when its rule is read, into a flat program that the matcher
// (ematch.cpp) runs without recursion. Registers hold e-classes (register 0 the root class), and
// the instructions, in the order the pattern is read (a node, its attributes, then its children
// left to right), either bind an e-node of a class (its children into fresh registers: the one
// point of choice, where the matcher backtracks) or check a repeated variable or a leaf. The
// first occurrence of a variable only names its register.
struct MatchProgram {
  struct Instr {
    enum class Kind : uint8_t { Bind, SameClass, Leaf };
    Kind kind;
    int node;      // Bind, Leaf: the pattern node
    uint32_t reg;  // the register of the class looked at
    uint32_t arg;  // Bind: the first register of the children; SameClass: the other register
  };
  std::vector<Instr> instrs;
  std::vector<uint32_t> class_reg;  // by class variable: the register of its first occurrence
  // By pattern node, by attribute: 1 where an attribute variable occurs first (and binds).
  std::vector<std::vector<uint8_t>> attr_binds;
  uint32_t n_regs = 1;
};

// A term in post order: children come before their parent, the root is last.
struct Pattern {
  std::vector<PatternNode> nodes;
  MatchProgram program;  // left-hand sides only

  const PatternNode& root() const { return nodes.back(); }
  int root_index() const { return static_cast<int>(nodes.size()) - 1; }
  bool is_var() const { return root().kind == PatternNode::Kind::Var; }
  std::string str(const VarTable& vars) const;
};

enum class PatternSide { Lhs, Rhs };

// Parses a pattern, adding its new variables to `vars` (a left-hand side binds; a right-hand
// side may only use what is bound). Ops, arities and attribute names are checked against the
// registry; errors are located at the offending sub-expression.
Pattern parse_pattern(const SExpr& e, VarTable& vars, PatternSide side);

}  // namespace retort
