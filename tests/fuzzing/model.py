"""The program model of the differential fuzzer: typed straight-line programs and their source.

A program is a Python function over symgrad tensors made of statements ``v<k> = <expression>``.
Each expression applies one public symgrad function (a function of ``sg``, a tensor method or
operator, an ``nn.functional`` loss) to earlier variables, inputs and constants; inputs are
``x<k>``. Every variable carries what the model *predicts* for it: its shape and dtype (NumPy
broadcasting and torch's promotion rules, written out here independently of symgrad) and an
interval bounding its values (so that the generator only applies an op where it is defined and
no value grows past ``generate.LIMIT``).

A statement also lists its *probes*: calls that measure, at run time, how close the inputs are
to a point where the statement's function is not smooth (abs/relu/sign at 0, maximum/where/clamp
where their operands tie, max reductions where the two largest values tie). ``policy.Probe``
implements them; the checker runs the probed source once in float64 (see policy.py).

``Program.source()`` is the Python text that is executed (not a description of it), and
``repr(program)`` is a complete script a human can paste: imports, the function, the inputs and
the calls that show the disagreement.
"""

from __future__ import annotations

import linecache
import math
from dataclasses import dataclass, field
from itertools import count

import numpy as np

F32, F64, I64 = "float32", "float64", "int64"

# Input value distributions: name -> (source of the values before the cast, interval).
INPUT_KINDS = {
    "uniform": ("rng.uniform(-2.0, 2.0, size={shape})", (-2.0, 2.0)),
    # quarters in [-1, 1]: exact ties and zeros (switch points shared by every implementation)
    "grid": ("rng.integers(-4, 5, size={shape}) / 4.0", (-1.0, 1.0)),
    "positive": ("rng.uniform(0.5, 2.0, size={shape})", (0.5, 2.0)),
    "integers": ("rng.integers(-3, 4, size={shape})", (-3.0, 3.0)),    # int64 inputs only
}


@dataclass(frozen=True)
class Var:
    """A program variable: name, predicted shape and dtype, and an interval of its values.

    ``special``: it may hold NaN or infinities (a mean or logsumexp over an empty axis); the
    interval then bounds its finite values only.
    """

    name: str
    shape: tuple
    dtype: str
    lo: float
    hi: float
    special: bool = False

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def bound(self) -> float:
        return max(abs(self.lo), abs(self.hi))


@dataclass(frozen=True)
class Stmt:
    """``out.name = expr``, then the lines ``after`` (in-place updates of ``out`` through a
    view); ``uses`` are the variables it reads, ``probes`` its switch points (``policy.Probe``
    method calls, e.g. ``zero(v1, 0.5)``)."""

    out: Var
    expr: str
    uses: tuple
    probes: tuple = ()
    after: tuple = ()


@dataclass(frozen=True)
class Input:
    var: Var
    kind: str          # a key of INPUT_KINDS


@dataclass(frozen=True)
class Program:
    """A generated program: its inputs (with how their values are drawn), statements,
    outputs and the seed of its input values; it renders and executes its own source."""

    inputs: tuple      # Input
    stmts: tuple       # Stmt
    outputs: tuple     # Var (one, or two returned as a tuple)
    seed: int          # the input values' random seed
    _fns: dict = field(default_factory=dict, compare=False, repr=False)

    # ------------------------------------------------------------ types
    @property
    def vars(self) -> list:
        return [i.var for i in self.inputs] + [s.out for s in self.stmts]

    @property
    def precision(self) -> str:
        """float32 if any value of the program is float32 (its results are then compared with
        float32 tolerances), else float64."""
        return F32 if any(v.dtype == F32 for v in self.vars) else F64

    @property
    def special(self) -> bool:
        return any(v.special for v in self.vars)

    # ------------------------------------------------------------ source
    def source(self, probes: bool = False, float64: bool = False) -> str:
        """The function ``program`` (``probes``: with a ``_probe`` call after each statement;
        ``float64``: every float32 spelled float64, the same function in double precision)."""
        names = [i.var.name for i in self.inputs]
        lines = [f"def program({', '.join(names)}):"]
        if probes:
            lines += [f"    _probe.value({n})" for n in names]
        for s in self.stmts:
            lines.append(f"    {s.out.name} = {s.expr}")
            lines += [f"    {line}" for line in s.after]
            if probes:
                lines += [f"    _probe.{p}" for p in s.probes]
                lines.append(f"    _probe.value({s.out.name})")
        outs = [v.name for v in self.outputs]
        lines.append(f"    return {outs[0]}" if len(outs) == 1 else
                     f"    return {', '.join(outs)}")
        text = "\n".join(lines) + "\n"
        return text.replace(F32, F64) if float64 else text

    def loss_source(self, float64: bool = False, order: int = 1) -> str:
        """``loss(inputs..., weights...)``: the sum of each output times its weights; with
        ``order=2`` also ``loss2(inputs..., weights..., directions...)``: the sum of each
        input's gradient of ``loss`` times its direction (its gradient is a Hessian-vector
        product)."""
        inputs = [i.var.name for i in self.inputs]
        outs = [f"o{k}" for k in range(len(self.outputs))]
        terms = " + ".join(f"({o} * {w}).sum()" for o, w in zip(outs, self.weight_names))
        text = (self.source(float64=float64) + "\n\n" +
                f"def loss({', '.join(inputs + self.weight_names)}):\n"
                f"    {', '.join(outs)} = program({', '.join(inputs)})\n"
                f"    return {terms}\n")
        if order == 2:
            grads = [f"g{k}" for k in range(len(inputs))]
            terms = " + ".join(f"({g} * {u}).sum()" for g, u in zip(grads, self.direction_names))
            params = ", ".join(inputs + self.weight_names + self.direction_names)
            text += (f"\n\ndef loss2({params}):\n"
                     f"    {', '.join(grads)}, = sg.grad(loss, argnums={self.argnums})"
                     f"({', '.join(inputs + self.weight_names)})\n"
                     f"    return {terms}\n")
        return text

    @property
    def argnums(self) -> tuple:
        return tuple(range(len(self.inputs)))

    @property
    def weight_names(self) -> list:
        return [f"w{k}" for k in range(len(self.outputs))]

    @property
    def direction_names(self) -> list:
        return [f"u{k}" for k in range(len(self.inputs))]

    def argument_names(self, order: int = 0) -> list:
        """The inputs, then (order >= 1) the weights, then (order 2) the directions."""
        return [i.var.name for i in self.inputs] + (self.weight_names if order else []) + \
            (self.direction_names if order == 2 else [])

    def inputs_source(self, order: int = 0) -> str:
        lines = [f"rng = np.random.default_rng({self.seed})"]
        for i in self.inputs:
            values = INPUT_KINDS[i.kind][0].format(shape=i.var.shape)
            lines.append(f"{i.var.name} = np.asarray({values}, np.{i.var.dtype})")
        weighted = list(zip(self.weight_names, self.outputs)) if order else []
        weighted += list(zip(self.direction_names, [i.var for i in self.inputs])) \
            if order == 2 else []
        for w, v in weighted:
            lines.append(f"{w} = np.asarray(rng.uniform(-1.0, 1.0, size={v.shape}), "
                         f"np.{v.dtype})")
        return "\n".join(lines) + "\n"

    def script(self, order: int = 0) -> str:
        """A complete script that runs the program (order 0: compiled and eagerly; 1: the
        gradient of ``loss``; 2: the gradient of ``loss2``)."""
        names = ", ".join(self.argument_names(order))
        head = ("import numpy as np\nimport symgrad as sg\nimport symgrad.nn.functional as F"
                "\n\n\n")
        if not order:
            return (head + self.source() + "\n\n" + self.inputs_source() +
                    f"print(sg.compile(program)({names}))\n"
                    f"print(program(*[sg.tensor(a) for a in ({names},)]))\n")
        fn = "loss" if order == 1 else "loss2"
        return (head + self.loss_source(order=order) + "\n\n" + self.inputs_source(order) +
                f"print(sg.value_and_grad({fn}, argnums={self.argnums})({names}))\n")

    def __repr__(self) -> str:
        return "\n" + self.script()

    def _repr_pretty_(self, printer, cycle) -> None:
        """How hypothesis shows a falsifying example: the script, not the dataclass."""
        printer.text(repr(self))

    # ------------------------------------------------------------ executing
    def function(self, name: str = "program", probes: bool = False, float64: bool = False,
                 probe=None):
        """Exec the source and return the function ``name``: program, loss or loss2."""
        key = (name, probes, float64, id(probe))
        fn = self._fns.get(key) if probe is None else None
        if fn is None:
            text = self.source(probes, float64) if name == "program" else \
                self.loss_source(float64, order=2 if name == "loss2" else 1)
            fn = exec_source(text, name, {"_probe": probe})
            if probe is None:
                self._fns[key] = fn
        return fn

    def input_arrays(self, order: int = 0) -> list:
        """The arrays of ``argument_names(order)``, made by executing ``inputs_source``."""
        env = {"np": np}
        exec(self.inputs_source(order), env)   # noqa: S102  (our own generated text)
        return [env[n] for n in self.argument_names(order)]


_counter = count()


def exec_source(text: str, name: str, extra: dict | None = None):
    """Exec generated Python (registered with linecache so tracebacks show its lines)."""
    import symgrad as sg
    import symgrad.nn.functional as F
    filename = f"<fuzz program {next(_counter)}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    env = {"sg": sg, "F": F, "np": np, **(extra or {})}
    exec(compile(text, filename, "exec"), env)   # noqa: S102  (our own generated text)
    return env[name]


# ---------------------------------------------------------------- torch's typing rules

CATEGORY = {"bool": 0, "int64": 1, F32: 2, F64: 2}
WIDTH = {"bool": 1, "int64": 8, F32: 4, F64: 8}
# operand ranks: a Python number < a 0-d tensor < a tensor with dimensions
RANK_NUMBER, RANK_ZERO_DIM, RANK_TENSOR = 0, 1, 2


def rank(v) -> int:
    """The promotion rank of an operand: a Var or a Python float."""
    if isinstance(v, Var):
        return RANK_TENSOR if v.ndim else RANK_ZERO_DIM
    if isinstance(v, Const):
        return v.rank
    return RANK_NUMBER


@dataclass(frozen=True)
class Const:
    """A constant operand: a Python number (float or int), or a 0-d tensor
    ``sg.tensor(value, dtype=...)``."""

    value: float
    dtype: str | None = None      # None: a Python number

    @property
    def text(self) -> str:
        if self.dtype is None:
            return repr(self.value)
        return f"sg.tensor({self.value!r}, dtype=sg.{self.dtype})"

    @property
    def rank(self) -> int:
        return RANK_NUMBER if self.dtype is None else RANK_ZERO_DIM

    @property
    def shape(self) -> tuple:
        return ()

    lo = hi = property(lambda self: self.value)
    special = False


def operand_dtype(o) -> str:
    """The dtype of a Var or a Const (a Python int counts as int64, a Python float as
    float32: their kinds)."""
    if o.dtype is not None:
        return o.dtype
    return I64 if isinstance(o.value, int) else F32


def promote(*operands) -> str:
    """torch's result dtype for Vars and Consts: the highest category (integer < floating)
    wins; within it the highest-ranked operands (a tensor with dims > a 0-d tensor > a Python
    number) decide, the widest of them; Python numbers of a higher category than every tensor
    give that category's default dtype (float32, int64)."""
    kinds = [(CATEGORY[operand_dtype(o)], rank(o), operand_dtype(o)) for o in operands]
    top_category = max(c for c, _, _ in kinds)
    ranked = [(r, d) for c, r, d in kinds if c == top_category]
    top_rank = max(r for r, _ in ranked)
    if top_rank == RANK_NUMBER:
        return F32 if top_category == CATEGORY[F32] else I64
    return max((d for r, d in ranked if r == top_rank), key=lambda d: WIDTH[d])


def float_of(dtype: str) -> str:
    """The dtype of a floating op (exp, div, ...) of ``dtype``: integers give float32."""
    return dtype if CATEGORY[dtype] == CATEGORY[F32] else F32


def broadcast(*shapes) -> tuple | None:
    """NumPy broadcasting of the shapes, or None if they do not broadcast."""
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        return None


def reduced_shape(shape: tuple, dims, keepdim: bool) -> tuple:
    """The shape after reducing ``dims`` (None: all; ints may be negative)."""
    axes = normalize(dims, len(shape))
    return tuple(1 if i in axes else s for i, s in enumerate(shape) if keepdim or i not in axes)


def normalize(dims, ndim: int) -> set:
    if dims is None:
        return set(range(ndim))
    if isinstance(dims, int):
        dims = (dims,)
    return {d % ndim for d in dims} if ndim else set()
