"""Program forms of the generated torch program (issue 40): the same values computed by a program
that is no longer pure dataflow over contiguous tensors, where torch.compile's wrong results of
2024-2026 live (../shared/BUG-CLASSES.md). Each form is one row of FORMS; a run asks for forms
as program mutations ({"kind": FORM, "seed": S}, core/backend/backend.h kProgramForms), and
the seed chooses where a form applies. A form with nothing to apply to changes nothing.

Three stages, all written into the program's source so that the standalone reproducer
(model_a.py) replays exactly what the worker ran:
  input    arguments(x0, ...) turns the run's contiguous inputs into views of other layouts
           before the compiled module is called (the values stay the same);
  program  forward()'s lines are rewritten: in place on a fresh buffer, slice assignment,
           index_put_, a view read after a mutation, a constant as a Python scalar;
  compile  DYNAMIC: torch.compile(dynamic=True).
"""

import random
import re

import numpy as np

from .program import lit

# Helpers the input forms call, part of the generated source. A strided view reads from a
# buffer whose gaps hold NaN (0 for integers), so a kernel that reads past the view shows it.
INPUT_HELPERS = '''
def retort_transposed(x):
    return x.transpose(-1, -2).contiguous().transpose(-1, -2)


def retort_strided(x):
    shape = list(x.shape)
    shape[-1] = 2 * shape[-1] + 1
    gap = float("nan") if x.is_floating_point() else 0
    view = torch.full(shape, gap, dtype=x.dtype)[..., 1::2]
    view.copy_(x)
    return view


def retort_same(a, b):
    """Whether a and b (broadcast) hold the same bits: -0.0 is not 0.0 here."""
    if a.dtype == torch.bool:
        return bool(torch.eq(a, b).all())
    return bool((torch.eq(a, b) & torch.eq(torch.signbit(a), torch.signbit(b))).all())


def retort_expanded(x):
    """x as a stride-0 expansion along the first dim its values do not change along; else with
    stride 0 on a size-1 dim; else x itself."""
    for d in range(x.dim()):
        first = x.narrow(d, 0, 1)
        if x.shape[d] > 1 and retort_same(x, first):
            return first.expand(x.shape)
    strides = [0 if n == 1 else s for n, s in zip(x.shape, x.stride())]
    return x.as_strided(x.shape, strides) if strides != list(x.stride()) else x


def retort_channels_last(x):
    fmt = torch.channels_last if x.dim() == 4 else torch.channels_last_3d
    return x.contiguous(memory_format=fmt)
'''


class Form:
    """One program form: its kind (the name runs ask for), its stage, what it does (for docs and
    the program's comment) and, for input forms, the helper that makes an input's view and the
    ranks it applies to."""

    def __init__(self, kind, stage, what, helper=None, ranks=range(0, 99)):
        self.kind = kind
        self.stage = stage
        self.what = what
        self.helper = helper
        self.ranks = ranks


FORMS = {f.kind: f for f in (
    Form("transposed-input", "input", "an input of rank >= 2 with its last two dims column-major",
         "retort_transposed", range(2, 99)),
    Form("strided-input", "input", "an input as a stride-2 slice of a larger buffer",
         "retort_strided", range(1, 99)),
    Form("expanded-input", "input",
         "an input expanded with stride 0 along a dim its values do not change along",
         "retort_expanded"),
    Form("channels-last-input", "input", "a 4-d or 5-d input in channels_last memory format",
         "retort_channels_last", range(4, 6)),
    Form("in-place", "program", "an elementwise op in place on a fresh buffer: a.clone().add_(b)"),
    Form("slice-assign", "program",
         "a result written into a fresh buffer by two slice assignments"),
    Form("index-put", "program", "a result written into a fresh buffer by index_put_ of its rows"),
    Form("view-after-mutation", "program",
         "an elementwise op in place, its result read through a view taken before"),
    Form("python-scalar", "program",
         "a one-element constant beside a tensor of its float dtype written as a Python number"),
    Form("dynamic", "compile", "torch.compile(dynamic=True)"),
)}

# What a program form rewrites: `tN = torch.OP(A, B)` or `tN = torch.OP(A)` as the converters
# write them (torch_ops.py), with the ops whose in-place method computes the same values.
BINARY = re.compile(r"^(t\d+) = torch\.(add|sub|mul|div)\(([\w.]+), ([\w.]+)\)$")
UNARY = re.compile(
    r"^(t\d+) = torch\.(abs|neg|relu|sigmoid|exp|tanh|sin|cos|sqrt|floor|ceil)\(([\w.]+)\)$")
FLOATS = ("float16", "bfloat16", "float32", "float64")


def split(mutations):
    """(the forms among a run's mutations, the other mutations), each in order."""
    forms = [m for m in mutations if str(m.get("kind", "")) in FORMS]
    return forms, [m for m in mutations if str(m.get("kind", "")) not in FORMS]


def staged(forms, stage):
    return [(FORMS[m["kind"]], random.Random(int(m.get("seed", 0)))) for m in forms
            if FORMS[m["kind"]].stage == stage]


def rewrite(builder, forms):
    """Applies the program forms to the builder's lines, before any other mutation (which reads
    line_info, kept in step here)."""
    for form, rng in staged(forms, "program"):
        Rewriter(builder, form.kind, rng).run()


class Rewriter:
    def __init__(self, builder, kind, rng):
        self.b = builder
        self.kind = kind
        self.rng = rng

    def run(self):
        b = self.b
        chosen = [k for k, line in enumerate(b.lines) if self.rewritten(k, line) is not None]
        if not chosen:
            return
        # Each candidate line with probability 1/2, at least one.
        keep = {k for k in chosen if self.rng.random() < 0.5} or {self.rng.choice(chosen)}
        lines, labels, info = [], [], []
        for k, line in enumerate(b.lines):
            new = self.rewritten(k, line) if k in keep else None
            new = new or [line]
            node, value = b.line_info[k]
            lines += new
            labels += [b.line_nodes[k]] * len(new)
            info += [(node, None)] * (len(new) - 1) + [(node, value)]
        b.lines, b.line_nodes, b.line_info = lines, labels, info

    def rewritten(self, k, line):
        """The lines that replace line k in this form, or None where it does not apply."""
        node, value = self.b.line_info[k]
        if node is None or value is None:
            return None
        m = BINARY.match(line) or UNARY.match(line)
        model = self.b.model
        out_shape = list(model.shape_of(value))
        out_dtype = model.dtype_of(value)
        if self.kind in ("slice-assign", "index-put"):
            m = re.match(r"^(t\d+) = (.+)$", line)
            n = out_shape[0] if out_shape else 0
            if m is None or n < (2 if self.kind == "slice-assign" else 1) or 0 in out_shape:
                return None
            return self.into_fresh(m.group(1), m.group(2), n)
        if m is None:
            return None
        out, op, args = m.group(1), m.group(2), m.groups()[2:]
        args = [a for a in args if a is not None]
        names = [i for i in node.input if i]
        if len(names) != len(args):
            return None
        if (list(model.shape_of(names[0])) != out_shape
                or any(model.dtype_of(i) != out_dtype for i in names)):
            return None
        if self.kind == "python-scalar":
            return self.scalar(out, op, args, names, out_dtype)
        call = f"{op}_({', '.join(args[1:])})"
        if self.kind == "in-place":
            return [f"{out} = {args[0]}.clone().{call}"]
        if self.kind == "view-after-mutation":
            buf, view = self.fresh(), self.fresh()
            return [f"{buf} = {args[0]}.clone(memory_format=torch.contiguous_format)",
                    f"{view} = {buf}.view(-1)",
                    f"{buf}.{call}",
                    f"{out} = {view}.view({lit(out_shape)})"]
        return None

    def scalar(self, out, op, args, names, dtype):
        if len(args) != 2 or str(dtype) not in FLOATS:
            return None
        value = self.b.model.consts.get(names[1])
        if value is None or np.asarray(value).size != 1 or not args[1].startswith("self.c"):
            return None
        return [f"{out} = torch.{op}({args[0]}, {lit(float(np.asarray(value).reshape(-1)[0]))})"]

    def into_fresh(self, out, expr, n):
        whole = self.fresh()
        head = [f"{whole} = {expr}", f"{out} = torch.empty_like({whole})"]
        if self.kind == "slice-assign":
            k = self.rng.randrange(1, n)
            return head + [f"{out}[{k}:] = {whole}[{k}:]", f"{out}[:{k}] = {whole}[:{k}]"]
        rows = self.fresh()
        shift = self.rng.randrange(n)
        return head + [f"{rows} = torch.remainder(torch.arange({whole}.shape[0]) + {shift}, "
                       f"{whole}.shape[0])",
                       f"{out}.index_put_(({rows},), {whole}.index_select(0, {rows}))"]

    def fresh(self):
        return f"t{next(self.b._fresh)}"


def arguments_source(n_inputs, ranks, forms):
    """The source of arguments(x0, ...): each input whose rank an input form of the run takes
    gets one of them (the inputs take the forms in turn), the others are passed as they are."""
    chosen = [form for form, _ in staged(forms, "input")]
    params = [f"x{k}" for k in range(n_inputs)]
    views = []
    for k, (param, rank) in enumerate(zip(params, ranks)):
        fits = [f for f in chosen[k % len(chosen):] + chosen[:k % len(chosen)]
                if rank in f.ranks] if chosen else []
        views.append(f"{fits[0].helper}({param})" if fits else param)
    body = f"    return [{', '.join(views)}]"
    return "\n".join([INPUT_HELPERS if chosen else "", "",
                      f"def arguments({', '.join(params)}):", body, ""])


def module_tail(n_inputs, ranks, forms):
    """What the program's source says after the module class: the forms it was written with
    (a comment), arguments() and DYNAMIC."""
    kinds = ", ".join(m["kind"] for m in forms) or "none"
    dynamic = any(form.kind == "dynamic" for form, _ in staged(forms, "compile"))
    return "\n".join([f"# program forms: {kinds}",
                      arguments_source(n_inputs, ranks, forms),
                      f"DYNAMIC = {dynamic}", ""])
