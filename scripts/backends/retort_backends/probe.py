"""TorchProbe's program mutations (seeds/002 section 3.3; docs/techniques.md) on the torch
program Builder writes: each keeps what the program computes, and each makes it more dynamic
for a compiler that reads Python (dynamo, TorchScript).

  resolve         an element-wise op unrolled into a loop over one axis
  mutate-recover  an entry of a tensor changed, and restored before the tensor's next use
  functionalize   a run of statements moved into a nested function (with parameters) or a
                  closure (reading its enclosing scope), returning what later code reads
  tcb             an always-true conditional block: statements wrapped in `if COND:`, COND
                  synthesized from the values the program has at that point for the run's
                  inputs (equivalence modulo inputs)

A mutation is {"kind": K, "seed": S}; S picks where and how, so a list of mutations replays
exactly. Mutations compose: each works on the program the previous ones left. Only generated
identifiers are ever written; nothing a model names reaches the source.
"""

import math
import random
import re

import numpy as np
import torch

from .errors import Unsupported

KINDS = ("resolve", "mutate-recover", "functionalize", "tcb")

# ONNX ops whose every output element depends only on the same element of each input.
ELEMENTWISE = {
    "Abs", "Acos", "Acosh", "Add", "And", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Cos",
    "Cosh", "Div", "Elu", "Equal", "Erf", "Exp", "Floor", "Greater", "GreaterOrEqual",
    "HardSigmoid", "Less", "LessOrEqual", "Log", "Max", "Min", "Mul", "Neg", "Not", "Or",
    "Reciprocal", "Relu", "Round", "Selu", "Sigmoid", "Sign", "Sin", "Sinh", "Softplus",
    "Softsign", "Sqrt", "Sub", "Tan", "Tanh", "Xor", "LeakyRelu", "Where", "Clip", "Mod", "Pow",
}
IDENT = re.compile(r"(?<![\w.])(?:self\.)?[xtcfgbr]\d+\b")
ASSIGN = re.compile(r"^(t\d+) = (.+)$")

class Stmt:
    """One statement of the forward body: its lines (a block keeps its indented lines), the
    node label errors blame, and for a plain `tN = expr` the ONNX node and value it computes."""

    def __init__(self, lines, label, node=None, value=None):
        self.lines = list(lines)
        self.label = label
        self.node = node
        self.value = value

    def text(self):
        return "\n".join(self.lines)

    def defines(self):
        """Names the statement binds in the scope it runs in: assignment and loop targets, and
        the functions it defines (not what those functions bind inside themselves)."""
        return self._scan()[0]

    def uses(self):
        """Names the statement reads from the scope it runs in."""
        inner = self._scan()[1]
        return {u for line in self.lines for u in IDENT.findall(line)} - inner

    def _scan(self):
        """(names bound at the statement's own scope, names bound inside functions it defines)."""
        own, inner = set(), set()
        def_depth = None  # indentation of the def whose body the scan is in
        for line in self.lines:
            depth = (len(line) - len(line.lstrip(" "))) // 4
            if def_depth is not None and depth <= def_depth:
                def_depth = None
            bound = set()
            m = re.match(r"^\s*def ([fg]\d+)\(", line)
            if m:
                bound.add(m.group(1))
            m = re.match(r"^\s*((?:[tbr]\d+)(?:, [tbr]\d+)*),? = ", line)
            if m:
                bound.update(m.group(1).split(", "))
            m = re.match(r"^\s*for (r\d+) in ", line)
            if m:
                bound.add(m.group(1))
            (inner if def_depth is not None else own).update(bound)
            if line.lstrip().startswith("def ") and def_depth is None:
                def_depth = depth
        return own, inner - own


def statements(builder):
    """The builder's lines as statements (a nested def with its body is one)."""
    out = []
    for line, label, info in zip(builder.lines, builder.line_nodes, builder.line_info):
        if line.startswith(" ") and out:
            out[-1].lines.append(line)
            continue
        node, value = info
        plain = ASSIGN.match(line) is not None and value is not None
        out.append(Stmt([line], label, node if plain else None, value if plain else None))
    return out


def flatten(stmts):
    lines, labels = [], []
    for s in stmts:
        for line in s.lines:
            lines.append(line)
            labels.append(s.label)
    return lines, labels


class Context:
    """What a mutation may ask: value types, which identifiers the forward returns, the run's
    inputs for profiling, fresh names."""

    def __init__(self, builder, results, profile):
        self.model = builder.model
        self.results = set(results)
        self.profile = profile  # (stmts) -> {identifier: torch tensor} after them
        self.expr_of = {**builder.exprs, **builder.const_exprs}
        self._fresh = {}
        used = " ".join(builder.lines)
        self._taken = set(IDENT.findall(used))

    def fresh(self, stem):
        k = self._fresh.get(stem, 0)
        while f"{stem}{k}" in self._taken:
            k += 1
        self._fresh[stem] = k + 1
        self._taken.add(f"{stem}{k}")
        return f"{stem}{k}"

    def shape(self, onnx_name):
        return self.model.shape_of(onnx_name)

    def dtype(self, onnx_name):
        return self.model.dtype_of(onnx_name)


def index_text(axis, var):
    return ", ".join([":"] * axis + [var])


def resolve(stmts, rng, ctx):
    """b = op(a, ...) becomes b = torch.empty(...); for r in range(n): b[:, r] = op(a[:, r], ...)
    (TorchProbe's operator resolution), for an element-wise op whose tensor operands all have
    the result's shape."""
    candidates = []
    for k, s in enumerate(stmts):
        if s.node is None or s.node.op_type not in ELEMENTWISE:
            continue
        shape = ctx.shape(s.value)
        if not shape or 0 in shape:
            continue
        target, expr = ASSIGN.match(s.lines[0]).groups()
        operands = [i for i in IDENT.findall(expr)]
        by_expr = {v: n for n, v in ctx.expr_of.items()}
        if any(by_expr.get(o) is None or ctx.shape(by_expr[o]) != shape for o in operands):
            continue
        candidates.append((k, target, expr, operands, shape))
    if not candidates:
        raise Unsupported("resolve: no element-wise statement whose operands have its shape")
    k, target, expr, operands, shape = rng.choice(candidates)
    axis = rng.randrange(len(shape))
    var = ctx.fresh("r")
    sliced = expr
    for o in sorted(set(operands), key=len, reverse=True):
        sliced = re.sub(rf"(?<![\w.]){re.escape(o)}\b", f"{o}[{index_text(axis, var)}]", sliced)
    dtype = np.dtype(ctx.dtype(stmts[k].value)).name  # numpy and torch share these names
    stmts[k] = Stmt([f"{target} = torch.empty({list(shape)}, dtype=torch.{dtype})",
                     f"for {var} in range({shape[axis]}):",
                     f"    {target}[{index_text(axis, var)}] = {sliced}"], stmts[k].label)
    return f"resolve: {target} unrolled along axis {axis}"


def mutate_recover(stmts, rng, ctx):
    """After b = op(...): back up an entry of b, overwrite it, and restore it right before the
    next statement that reads b. Only results of element-wise ops, which are fresh tensors that
    nothing else aliases."""
    candidates = []
    for k, s in enumerate(stmts):
        if s.node is None or s.node.op_type not in ELEMENTWISE or not ctx.shape(s.value):
            continue
        if 0 in ctx.shape(s.value):
            continue
        target, expr = ASSIGN.match(s.lines[0]).groups()
        if not re.match(r"^torch\.\w+\(", expr):
            continue  # not a call that makes a new tensor (a converter may pass its input on)
        later = [j for j in range(k + 1, len(stmts)) if target in stmts[j].uses()]
        if later:
            candidates.append((k, target, later[0], ctx.shape(s.value), ctx.dtype(s.value)))
    if not candidates:
        raise Unsupported("mutate-recover: no tensor that a later statement reads")
    k, target, next_use, shape, dtype = rng.choice(candidates)
    index = ", ".join(str(rng.randrange(d)) for d in shape)
    backup = ctx.fresh("b")
    if np.dtype(dtype) == np.bool_:
        changed = f"torch.logical_not({backup})"
    else:
        changed = f"{backup} + {rng.randint(1, 9)}"
    stmts[next_use:next_use] = [Stmt([f"{target}[{index}] = {backup}"], None)]
    stmts[k + 1:k + 1] = [Stmt([f"{backup} = {target}[{index}].clone()"], None),
                          Stmt([f"{target}[{index}] = {changed}"], None)]
    return f"mutate-recover: {target}[{index}] changed, restored before its next use"


def functionalize(stmts, rng, ctx):
    """A run of 1-4 statements becomes a nested function called once: with parameters for what
    it reads (a nested function) or none (a closure over the enclosing scope); it returns what
    later code reads."""
    if not stmts:
        raise Unsupported("functionalize: the program has no statement")
    start = rng.randrange(len(stmts))
    end = min(len(stmts), start + rng.randint(1, 4))
    run = stmts[start:end]
    defined = set().union(*(s.defines() for s in run))
    reads = sorted({u for s in run for u in s.uses()} - defined,
                   key=lambda n: (n.startswith("self."), n))
    live = sorted(d for d in defined if any(d in s.uses() for s in stmts[end:])
                  or d in ctx.results)
    if not live:
        raise Unsupported("functionalize: the statements drawn compute nothing later code reads")
    name = ctx.fresh("g")
    closure = rng.random() < 0.5
    params = [] if closure else [r for r in reads if not r.startswith("self.")
                                 and not re.match(r"^[fg]\d+$", r)]
    body = [("    " + line) for s in run for line in s.lines]
    ret = ", ".join(live) + ("," if len(live) == 1 else "")
    block = [f"def {name}({', '.join(params)}):", *body, f"    return ({ret})"]
    call = f"{ret} = {name}({', '.join(params)})"
    stmts[start:end] = [Stmt(block, run[0].label), Stmt([call], run[0].label)]
    kind = "closure" if closure else "nested function"
    return f"functionalize: {end - start} statement(s) into {kind} {name}"


def scalars(name, value, rng):
    """(expression, exact value, exact?) of scalars TorchProbe's condition grammar reads from a
    profiled tensor: its rank, a dimension, an element, its max or min."""
    out = [(f"len({name}.shape)", value.dim(), True)]
    if value.dim() > 0:
        d = rng.randrange(value.dim())
        out.append((f"{name}.shape[{d}]", int(value.shape[d]), True))
    if value.numel() > 0:
        # As Python numbers: torch would compare a u8 tensor with -1 as u8 (255).
        kind = "bool" if value.dtype == torch.bool else (
            "float" if value.is_floating_point() else "int")
        pos = tuple(rng.randrange(n) for n in value.shape)
        element = value[pos].item() if value.dim() else value.item()
        exact = kind != "float"
        at = f"{name}[{', '.join(map(str, pos))}]" if pos else name
        out.append((f"{kind}({at})", element, exact))
        if kind != "bool":
            out.append((f"{kind}({name}.max())", value.max().item(), exact))
            out.append((f"{kind}({name}.min())", value.min().item(), exact))
    return [(e, v, x) for e, v, x in out
            if isinstance(v, bool) or x or (math.isfinite(v) and abs(v) < 1e6)]


def condition(lhs, rng):
    """A comparison that holds: the order of two exact scalars, or a float scalar against an
    integer at least 1 away (compiled code may round the float differently)."""
    (ea, va, xa), rhs = lhs
    if rhs is not None:
        eb, vb, xb = rhs
        if va > vb:
            return f"{ea} > {eb}"
        if va < vb:
            return f"{ea} < {eb}"
        return f"{ea} {rng.choice(['>=', '<='])} {eb}"
    if isinstance(va, bool):
        return f"{ea} == {va}"
    if rng.random() < 0.5:
        return f"{ea} > {math.floor(va) - 1}"
    return f"{ea} < {math.ceil(va) + 1}"


def tcb(stmts, rng, ctx):
    """1-3 statements wrapped in `if COND:`, COND true for the run's inputs: profiled from the
    program as it is up to that point (Equivalence Modulo Inputs)."""
    if not stmts:
        raise Unsupported("tcb: the program has no statement")
    start = rng.randrange(len(stmts))
    end = min(len(stmts), start + rng.randint(1, 3))
    values = ctx.profile(stmts[:start])
    names = sorted(n for n, v in values.items() if hasattr(v, "dim") and re.match(r"^[xtb]\d+$", n))
    if not names:
        raise Unsupported("tcb: no tensor is defined before the statements drawn")
    picks = []
    for name in rng.sample(names, min(2, len(names))):
        picks.extend(scalars(name, values[name], rng))
    exact = [p for p in picks if p[2]]
    a = rng.choice(picks)
    b = rng.choice(exact) if a[2] and len(exact) > 1 and rng.random() < 0.5 else None
    if b is not None and b[0] == a[0]:
        b = None
    cond = condition((a, b), rng)
    body = [("    " + line) for s in stmts[start:end] for line in s.lines]
    stmts[start:end] = [Stmt([f"if {cond}:", *body], stmts[start].label)]
    return f"tcb: {end - start} statement(s) under `if {cond}:`"


MUTATORS = {"resolve": resolve, "mutate-recover": mutate_recover,
            "functionalize": functionalize, "tcb": tcb}


def apply_mutations(stmts, mutations, ctx):
    """Applies the mutations in order; returns one note per mutation. Raises Unsupported when
    one has nothing to apply to, or is unknown."""
    notes = []
    for m in mutations:
        kind = str(m.get("kind", ""))
        if kind not in MUTATORS:
            raise Unsupported(f"unknown program mutation {kind!r} (known: {', '.join(KINDS)})")
        rng = random.Random(int(m.get("seed", 0)))
        notes.append(MUTATORS[kind](stmts, rng, ctx))
    return notes
