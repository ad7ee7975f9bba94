"""TorchProbe's program mutations (seeds/002 section 3.3; docs/techniques.md) on the torch or
JAX program Builder writes: each keeps what the program computes, and each makes it more
dynamic for a compiler that reads Python (dynamo, TorchScript, jax.jit's tracing).

  resolve         an element-wise op unrolled into a loop over one axis
  mutate-recover  an entry of a tensor changed, and restored before the tensor's next use
  functionalize   a run of statements moved into a nested function (with parameters) or a
                  closure (reading its enclosing scope), returning what later code reads
  tcb             an always-true conditional block: statements wrapped in `if COND:`, COND
                  synthesized from the values the program has at that point for the run's
                  inputs (equivalence modulo inputs); in JAX a condition on values is
                  traced, so the block becomes lax.cond(COND, block, zeros of its results)
  sparse          TENSURE's storage formats (seeds/003): operands of an einsum or matmul
                  stored as JAX BCOO arrays (batch, sparse and dense dimensions drawn) and
                  the op run through jax.experimental.sparse.sparsify; JAX only (torch has no
                  einsum over its sparse layouts)

Each framework writes these in its own dialect (Torch, Jax below): torch tensors are updated in
place, JAX arrays with .at[].set(). A mutation is {"kind": K, "seed": S}; S picks where and how, so a list of mutations replays
exactly. Mutations compose: each works on the program the previous ones left. Only generated
identifiers are ever written; nothing a model names reaches the source.
"""

import math
import random
import re

import numpy as np

from .errors import Unsupported
from .program import indented
from .tensors import is_float

KINDS = ("resolve", "mutate-recover", "functionalize", "tcb")  # TorchProbe's
STORAGE_KINDS = ("sparse",)  # TENSURE's
SPARSE_DRAWS = 8  # storages `sparse` tries before it gives up

# ONNX ops whose every output element depends only on the same element of each input.
ELEMENTWISE = {
    "Abs", "Acos", "Acosh", "Add", "And", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Cos",
    "Cosh", "Div", "Elu", "Equal", "Erf", "Exp", "Floor", "Greater", "GreaterOrEqual",
    "HardSigmoid", "Less", "LessOrEqual", "Log", "Max", "Min", "Mul", "Neg", "Not", "Or",
    "Reciprocal", "Relu", "Round", "Selu", "Sigmoid", "Sign", "Sin", "Sinh", "Softplus",
    "Softsign", "Sqrt", "Sub", "Tan", "Tanh", "Xor", "LeakyRelu", "Where", "Clip", "Mod", "Pow",
}
IDENT = re.compile(r"(?<![\w.])(?:self\.)?[xtcfgbrs]\d+\b")
ASSIGN = re.compile(r"^(t\d+) = (.+)$")
TARGETS = re.compile(r"^\s*((?:[tbrs]\d+)(?:, [tbrs]\d+)*),? = (.*)$")

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

    def reads(self):
        """Names the statement reads before binding them: unlike uses(), not the target of
        `t = expr`, but the t of JAX's `t = t.at[i].set(v)`."""
        inner = self._scan()[1]
        bound, out = set(), set()
        for line in self.lines:
            m = re.match(r"^\s*def ([fg]\d+)\(", line)
            if m:
                bound.add(m.group(1))
            m = TARGETS.match(line) or re.match(r"^\s*for (r\d+) in (.*)$", line)
            targets, rest = (m.group(1).split(", "), m.group(2)) if m else ([], line)
            out |= set(IDENT.findall(rest)) - bound - inner
            bound.update(targets)
        return out

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
            m = TARGETS.match(line)
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


class Torch:
    """How a mutation is written in a torch program: tensors change in place."""

    traced_values = False  # a condition on values is a plain `if` (dynamo guards on it)
    sparse_layouts = False  # torch.einsum and matmul take strided tensors only

    @staticmethod
    def fresh(expr):
        # Only a torch.* call surely makes a new tensor: a converter may pass its input on, and
        # changing an entry of that would change the input too.
        return re.match(r"^torch\.\w+\(", expr) is not None

    @staticmethod
    def empty(shape, dtype):
        return f"torch.empty({list(shape)}, dtype=torch.{dtype})"

    @staticmethod
    def store(target, index, value):
        return f"{target}[{index}] = {value}"

    @staticmethod
    def load(backup, target, index):
        return f"{backup} = {target}[{index}].clone()"

    @staticmethod
    def logical_not(x):
        return f"torch.logical_not({x})"

    @staticmethod
    def scalar(at, kind):
        # As Python numbers: torch would compare a u8 tensor with -1 in u8 (255).
        return f"{kind}({at})"

    @staticmethod
    def slice(axis, var):
        return ", ".join([":"] * axis + [var])


class Jax:
    """How a mutation is written in a JAX program: arrays are immutable, an entry changes by
    rebinding the name to x.at[i].set(v); under jit, values are traced."""

    traced_values = True
    sparse_layouts = True

    @staticmethod
    def fresh(expr):
        return True  # rebinding a name changes no other name's array

    @staticmethod
    def empty(shape, dtype):
        return f"jnp.zeros({list(shape)}, dtype=jnp.{dtype})"

    @staticmethod
    def store(target, index, value):
        # jnp.asarray: run op by op (xla:nojit), a value may still be the numpy input it came
        # from (a one-input Max passes its operand on), which has no .at.
        return f"{target} = jnp.asarray({target}).at[{index}].set({value})"

    @staticmethod
    def load(backup, target, index):
        return f"{backup} = {target}[{index}]"

    @staticmethod
    def logical_not(x):
        return f"jnp.logical_not({x})"

    @staticmethod
    def slice(axis, var):
        # A slice one wide, not an index: jnp.power of a concrete 0-d integer exponent (an
        # index of a vector, run op by op) raises for a negative one, unlike that of an array.
        return ", ".join([":"] * axis + [f"{var}:{var} + 1"])

    @staticmethod
    def scalar(at, kind):
        # A 0-d array in a wide type: comparing a u8 array with -1 would convert -1 to u8.
        return f"{at}.astype(jnp.{ {'bool': 'bool_', 'int': 'int64', 'float': 'float64'}[kind]})"


class Context:
    """What a mutation may ask: the dialect, value types, which identifiers the forward
    returns, the run's inputs for profiling, fresh names."""

    def __init__(self, builder, results, profile, dialect, trace=None):
        self.model = builder.model
        self.results = set(results)
        # (stmts) -> {identifier: numpy array} after them, constants included
        self.profile = profile
        # (stmts) -> None, raising what the framework raises for them, without running them
        # (faster than profile where running compiles op by op)
        self.trace = trace or profile
        self.dialect = dialect
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


def substitute(expr, names):
    """expr with each identifier in `names` ({old: new}) replaced, longest first."""
    for old in sorted(names, key=len, reverse=True):
        expr = re.sub(rf"(?<![\w.]){re.escape(old)}\b", names[old], expr)
    return expr


def resolve(stmts, rng, ctx):
    """b = op(a, ...) becomes b = empty(...); for r in range(n): b[:, r] = op(a[:, r], ...)
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
    at = ctx.dialect.slice(axis, var)
    sliced = substitute(expr, {o: f"{o}[{at}]" for o in operands})
    dtype = np.dtype(ctx.dtype(stmts[k].value)).name  # numpy, torch and JAX share these names
    d = ctx.dialect
    stmts[k] = Stmt([f"{target} = {d.empty(shape, dtype)}",
                     f"for {var} in range({shape[axis]}):",
                     f"    {d.store(target, at, sliced)}"], stmts[k].label)
    return f"resolve: {target} unrolled along axis {axis}"


def mutate_recover(stmts, rng, ctx):
    """After b = op(...): back up an entry of b, overwrite it, and restore it right before the
    next statement that reads b. Only results of element-wise ops, and in torch only fresh
    tensors that nothing else aliases."""
    d = ctx.dialect
    candidates = []
    for k, s in enumerate(stmts):
        if s.node is None or s.node.op_type not in ELEMENTWISE or not ctx.shape(s.value):
            continue
        if 0 in ctx.shape(s.value):
            continue
        target, expr = ASSIGN.match(s.lines[0]).groups()
        if not d.fresh(expr):
            continue
        later = [j for j in range(k + 1, len(stmts)) if target in stmts[j].uses()]
        if later:
            candidates.append((k, target, later[0], ctx.shape(s.value), ctx.dtype(s.value)))
    if not candidates:
        raise Unsupported("mutate-recover: no tensor that a later statement reads")
    k, target, next_use, shape, dtype = rng.choice(candidates)
    index = ", ".join(str(rng.randrange(n)) for n in shape)
    backup = ctx.fresh("b")
    if np.dtype(dtype) == np.bool_:
        changed = d.logical_not(backup)
    else:
        changed = f"{backup} + {rng.randint(1, 9)}"
    stmts[next_use:next_use] = [Stmt([d.store(target, index, backup)], None)]
    stmts[k + 1:k + 1] = [Stmt([d.load(backup, target, index)], None),
                          Stmt([d.store(target, index, changed)], None)]
    return f"mutate-recover: {target}[{index}] changed, restored before its next use"


def reads_of(run):
    """Names a run of statements reads from the scope before it (also a name it rebinds after
    reading it: JAX's x = x.at[i].set(v))."""
    bound, reads = set(), set()
    for s in run:
        reads |= s.reads() - bound
        bound |= s.defines()
    return reads


def live_after(stmts, end, run, ctx):
    """What the run binds that later statements or the results read, sorted."""
    defined = set().union(*(s.defines() for s in run))
    return sorted(d for d in defined if any(d in s.uses() for s in stmts[end:])
                  or d in ctx.results)


def parameters(reads):
    """The reads a nested function takes as parameters: not the module's buffers (self.c0)
    nor functions, which it reads from the enclosing scope."""
    return sorted(r for r in reads if not r.startswith("self.") and not re.match(r"^[fg]\d+$", r))


def nested(name, params, run, live):
    """(def block, the tuple of its results as an assignment target) for a run of statements."""
    body = [("    " + line) for s in run for line in s.lines]
    ret = ", ".join(live) + ("," if len(live) == 1 else "")
    return [f"def {name}({', '.join(params)}):", *body, f"    return ({ret})"], ret


def functionalize(stmts, rng, ctx):
    """A run of 1-4 statements becomes a nested function called once: with parameters for what
    it reads (a nested function) or none (a closure over the enclosing scope); it returns what
    later code reads."""
    if not stmts:
        raise Unsupported("functionalize: the program has no statement")
    start = rng.randrange(len(stmts))
    end = min(len(stmts), start + rng.randint(1, 4))
    run = stmts[start:end]
    live = live_after(stmts, end, run, ctx)
    if not live:
        raise Unsupported("functionalize: the statements drawn compute nothing later code reads")
    reads = reads_of(run)
    name = ctx.fresh("g")
    # A closure cannot rebind a name it also reads from outside (Python makes it local).
    rebinds = reads & set().union(*(s.defines() for s in run))
    closure = rng.random() < 0.5 and not rebinds
    params = [] if closure else parameters(reads)
    block, ret = nested(name, params, run, live)
    call = f"{ret} = {name}({', '.join(params)})"
    stmts[start:end] = [Stmt(block, run[0].label), Stmt([call], run[0].label)]
    kind = "closure" if closure else "nested function"
    return f"functionalize: {end - start} statement(s) into {kind} {name}"


def scalars(name, value, rng, dialect):
    """(expression, exact value, exact?, static?) of scalars TorchProbe's condition grammar
    reads from a profiled tensor (a numpy array): its rank and a dimension (static: known
    while tracing), an element, its max or min."""
    out = [(f"len({name}.shape)", value.ndim, True, True)]
    if value.ndim > 0:
        d = rng.randrange(value.ndim)
        out.append((f"{name}.shape[{d}]", int(value.shape[d]), True, True))
    if value.size > 0:
        kind = "float" if is_float(value.dtype) else {"b": "bool"}.get(value.dtype.kind, "int")
        pos = tuple(rng.randrange(n) for n in value.shape)
        element = value[pos].item()
        exact = kind != "float"
        at = f"{name}[{', '.join(map(str, pos))}]" if pos else name
        out.append((dialect.scalar(at, kind), element, exact, False))
        if kind != "bool":
            out.append((dialect.scalar(f"{name}.max()", kind), value.max().item(), exact, False))
            out.append((dialect.scalar(f"{name}.min()", kind), value.min().item(), exact, False))
    return [(e, v, x, s) for e, v, x, s in out
            if isinstance(v, bool) or (x and -2**63 <= v < 2**63)
            or (not x and math.isfinite(v) and abs(v) < 1e6)]


def condition(lhs, rng):
    """A comparison that holds: the order of two exact scalars, or a float scalar against an
    integer at least 1 away (compiled code may round the float differently)."""
    (ea, va, xa, _), rhs = lhs
    if rhs is not None:
        eb, vb = rhs[:2]
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
    program as it is up to that point (Equivalence Modulo Inputs). Where values are traced
    (JAX) and COND reads one, the block is a function under lax.cond whose other branch gives
    zeros: taking the wrong branch changes the results."""
    if not stmts:
        raise Unsupported("tcb: the program has no statement")
    start = rng.randrange(len(stmts))
    end = min(len(stmts), start + rng.randint(1, 3))
    values = ctx.profile(stmts[:start])
    names = sorted(n for n in values if re.match(r"^[xtb]\d+$", n))
    if not names:
        raise Unsupported("tcb: no tensor is defined before the statements drawn")
    picks = []
    for name in rng.sample(names, min(2, len(names))):
        picks.extend(scalars(name, values[name], rng, ctx.dialect))
    exact = [p for p in picks if p[2]]
    a = rng.choice(picks)
    b = rng.choice(exact) if a[2] and len(exact) > 1 and rng.random() < 0.5 else None
    if b is not None and b[0] == a[0]:
        b = None
    cond = condition((a, b), rng)
    run = stmts[start:end]
    if ctx.dialect.traced_values and not (a[3] and (b is None or b[3])):
        live = live_after(stmts, end, run, ctx)
        if not live or any(re.match(r"^[fg]\d+$", n) for n in live):
            raise Unsupported("tcb: lax.cond's branches must give arrays later code reads")
        name = ctx.fresh("g")
        params = parameters(reads_of(run))
        block, ret = nested(name, params, run, live)
        other = f"lambda *a: jax.tree_util.tree_map(jnp.zeros_like, {name}(*a))"
        call = f"{ret} = lax.cond({cond}, {name}, {other}{''.join(', ' + p for p in params)})"
        stmts[start:end] = [Stmt(block, run[0].label), Stmt([call], run[0].label)]
        return f"tcb: {end - start} statement(s) under lax.cond({cond}, ...)"
    body = [("    " + line) for s in run for line in s.lines]
    stmts[start:end] = [Stmt([f"if {cond}:", *body], stmts[start].label)]
    return f"tcb: {end - start} statement(s) under `if {cond}:`"


def nonzeros(value, n_batch, n_dense):
    """The most stored entries any batch of a BCOO of `value` needs: sparse positions whose
    dense block is not all zero."""
    shape = value.shape
    batch = int(np.prod(shape[:n_batch], dtype=np.int64))
    dense = int(np.prod(shape[value.ndim - n_dense:], dtype=np.int64))
    blocks = value.reshape(batch, -1, dense) != 0
    return max(1, int(blocks.any(axis=2).sum(axis=1).max()))


def sparse(stmts, rng, ctx):
    """TENSURE's storage formats: some operands of an einsum or matmul become BCOO arrays, each
    with its batch and dense dimensions drawn (the rest sparse, at least one), holding exactly
    its nonzeros for the run's inputs; the op runs through sparsify on them."""
    if not ctx.dialect.sparse_layouts:
        raise Unsupported("sparse: torch has no einsum or matmul over its sparse layouts "
                          "(COO, CSR, CSC); JAX's BCOO has (the xla backends)")
    candidates = []
    for k, s in enumerate(stmts):
        if s.node is None or s.node.op_type not in ("Einsum", "MatMul"):
            continue
        target, expr = ASSIGN.match(s.lines[0]).groups()
        used = set(IDENT.findall(expr))
        operands = sorted({ctx.expr_of[n] for n in s.node.input
                           if n and ctx.shape(n) and 0 not in ctx.shape(n)
                           and ctx.expr_of.get(n) in used})
        if operands:
            candidates.append((k, target, expr, operands))
    if not candidates:
        raise Unsupported("sparse: no einsum or matmul with an operand of rank 1 or more")
    k, target, expr, operands = rng.choice(candidates)
    values = ctx.profile(stmts[:k])
    label = stmts[k].label
    names, why = {}, ""
    # JAX's sparse rules take some storages of an operand only (a contraction's batch
    # dimensions must be the BCOO's): draws that it refuses on these values are redrawn.
    for _ in range(SPARSE_DRAWS):
        chosen = [o for o in operands if rng.random() < 0.5] or [rng.choice(operands)]
        lines, formats = [], []
        for o in chosen:
            value = values[o]
            n_batch = rng.randint(0, value.ndim - 1)
            # A product of two sparse operands takes no dense dimensions (bcoo_spdot_general).
            n_dense = rng.randint(0, value.ndim - 1 - n_batch) if len(chosen) == 1 else 0
            nse = nonzeros(value, n_batch, n_dense)
            if o not in names:
                names[o] = ctx.fresh("s")
            lines.append(f"{names[o]} = jsparse.BCOO.fromdense({o}, nse={nse}, "
                         f"n_batch={n_batch}, n_dense={n_dense})")
            formats.append(f"{o} as BCOO(n_batch={n_batch}, n_dense={n_dense}, nse={nse})")
        params = ", ".join(names[o] for o in chosen)
        sparse_expr = substitute(expr, {o: names[o] for o in chosen})
        lines += [f"{target} = jsparse.sparsify(lambda {params}: {sparse_expr})({params})",
                  f"{target} = {target}.todense() if isinstance({target}, jsparse.BCOO) "
                  f"else {target}"]
        mutated = [Stmt([line], label) for line in lines]
        try:
            ctx.trace(stmts[:k] + mutated)
        except NotImplementedError as e:
            why = str(e).splitlines()[0] if str(e) else type(e).__name__
            continue
        stmts[k:k + 1] = mutated
        return f"sparse: {', '.join(formats)} in {target}"
    raise Unsupported(f"sparse: JAX's sparse rules took none of {SPARSE_DRAWS} storages drawn "
                      f"for {target} (the last: {why})")


def prefix_function(stmts, params, scope):
    """The statements as `retort_probe(params)`, which runs them and returns its locals,
    defined in `scope` (what the program reads: modules, constants)."""
    lines, _ = flatten(stmts)
    source = "\n".join([f"def retort_probe({', '.join(params)}):",
                        *indented(lines, depth=1), "    return dict(locals())", ""])
    exec(compile(source, "<retort_probe>", "exec"), scope)
    return scope["retort_probe"]


def rewrite(builder, results, mutations, dialect, profile, trace=None):
    """Applies the mutations to the builder's lines (see Context for profile and trace)."""
    stmts = statements(builder)
    apply_mutations(stmts, mutations, Context(builder, results, profile, dialect, trace))
    builder.lines, builder.line_nodes = flatten(stmts)


MUTATORS = {"resolve": resolve, "mutate-recover": mutate_recover,
            "functionalize": functionalize, "tcb": tcb, "sparse": sparse}


def apply_mutations(stmts, mutations, ctx):
    """Applies the mutations in order; returns one note per mutation. Raises Unsupported when
    one has nothing to apply to, or is unknown."""
    notes = []
    for m in mutations:
        kind = str(m.get("kind", ""))
        if kind not in MUTATORS:
            raise Unsupported(f"unknown program mutation {kind!r} "
                              f"(known: {', '.join(KINDS + STORAGE_KINDS)})")
        rng = random.Random(int(m.get("seed", 0)))
        notes.append(MUTATORS[kind](stmts, rng, ctx))
    return notes
