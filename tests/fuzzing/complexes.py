"""Complex programs for the differential fuzzer: complex leaves, complex ops, a real loss.

``complex_programs(precision)`` draws a straight-line program over complex128 (or complex64)
leaves, and sometimes a real one, from a table of complex ops: holomorphic math (exp, sin,
cos, tanh, sigmoid, sqrt and log of shifted values, powers), the non-analytic ones (conj,
real/imag and ``complex``, abs, angle, sgn, polar, view_as_real/view_as_complex), products
(mul, div, matmul, dot, vdot, outer), reductions and scans (sum, mean, prod, cumsum,
cumprod), movement and indexing (transpose, mH, flip, cat, stack, index lists, slices, where
on a constant mask) and torch.fft (fft, ifft, fftn, rfft, irfft). Each variable carries a bound
on its moduli; an op applies only where the bound keeps it smooth and finite: exp/sin/cos
where |z| <= 3, tanh/sigmoid where |z| <= 1.2 (poles at i pi / 2), and the functions with a
branch cut or a kink at 0 (sqrt, log, angle, abs, sgn, division, non-integer powers) only of
``z + c`` with c > bound + 0.5, whose real part is >= 0.5: never near the negative real axis.
So central differences are valid everywhere.

``check_complex(prog)`` runs the program compiled (``sg.compile``) and eagerly, then the
gradient of a real loss (the outputs' real and imaginary parts times fixed random weights,
summed) three ways: ``sg.compile(sg.grad(loss))``, eager ``backward()``, and central finite
differences of the complex128 program in each input element's real and imaginary parts
(torch's convention: ``z.grad = dL/dx + i dL/dy``). Any difference raises ``Disagreement``
with a script of the program.
"""

from __future__ import annotations

import itertools
import linecache
import math
from dataclasses import dataclass, field

import numpy as np
from hypothesis import strategies as st

import symgrad as sg

from .check import Disagreement

LIMIT = 1e3
SHAPES = ((3,), (2, 3), (3, 3), (4,))
_names = itertools.count()


@dataclass(frozen=True)
class CVar:
    name: str
    shape: tuple
    bound: float           # every modulus is at most this
    real: bool = False


@dataclass
class ComplexProgram:
    precision: str                       # complex128 | complex64
    inputs: list                         # CVars
    lines: list = field(default_factory=list)
    outputs: list = field(default_factory=list)
    seed: int = 0

    def source(self) -> str:
        body = [f"def program({', '.join(v.name for v in self.inputs)}):"]
        body += [f"    {line}" for line in self.lines]
        body.append(f"    return ({', '.join(v.name for v in self.outputs)},)")
        return "\n".join(body) + "\n"

    def arrays(self, precision: str | None = None) -> list:
        precision = precision or self.precision
        rng = np.random.default_rng(self.seed)
        out = []
        for v in self.inputs:
            re = rng.uniform(-v.bound, v.bound, v.shape) / math.sqrt(2)
            im = rng.uniform(-v.bound, v.bound, v.shape) / math.sqrt(2)
            real = np.float64 if precision == "complex128" else np.float32
            out.append(re.astype(real) if v.real else (re + 1j * im).astype(precision))
        return out

    def script(self) -> str:
        return (f"import numpy as np\nimport symgrad as sg\n\n{self.source()}\n"
                f"arrays = ComplexProgram(...).arrays()  # seed {self.seed}, "
                f"{self.precision}, inputs {[(v.name, v.shape, v.bound) for v in self.inputs]}"
                f"\nprint(sg.compile(program)(*arrays))\n")


def _shift(v: CVar) -> str:
    """``v`` moved right of the imaginary axis by more than its bound: real part >= 0.5."""
    return f"({v.name} + {round(v.bound + 0.5 + 0.25, 2)})"


def _shifted_bound(v: CVar) -> float:
    return 2 * v.bound + 0.75


# op -> (applies to one operand, expression, bound of the result, shape of the result)
def _unary(v: CVar):
    n, b, s = v.name, v.bound, v.shape
    ops = [
        (b <= 3, f"{n}.exp()", math.exp(b), s),
        (b <= 3, f"{n}.sin()", math.cosh(b), s),
        (b <= 3, f"sg.cos({n})", math.cosh(b), s),
        (b <= 1.2, f"{n}.tanh()", math.tan(min(b, 1.2)) + 1, s),
        (b <= 1.2, f"sg.sigmoid({n})", 1.0, s),
        (True, f"{_shift(v)}.sqrt()", math.sqrt(_shifted_bound(v)), s),
        (True, f"sg.log({_shift(v)})", math.log(_shifted_bound(v)) + 2, s),
        (True, f"{_shift(v)}.reciprocal()", 2.0, s),
        (True, f"{_shift(v)} ** 1.5", _shifted_bound(v) ** 1.5, s),
        (True, f"{n} ** 2", b * b, s),
        (True, f"{n}.conj()", b, s),
        (True, f"{n} * (0.5 - 1.5j)", b * 1.6, s),
        (True, f"sg.complex({n}.real, {n}.imag * 2)", 2 * b, s),
        (True, f"{_shift(v)}.abs() + 0j", _shifted_bound(v), s),
        (True, f"sg.polar({_shift(v)}.abs(), {_shift(v)}.angle())", _shifted_bound(v), s),
        (True, f"{_shift(v)}.sgn() * {n}", b, s),
        (True, f"sg.view_as_complex(sg.view_as_real({n}) * 2)", 2 * b, s),
        (True, f"{n}.cumsum(-1)", b * s[-1], s),
        (b <= 2, f"{n}.cumprod(0)", max(b, 1) ** s[0], s),
        (True, f"{n}.sum(-1, keepdim=True)", b * s[-1], s[:-1] + (1,)),
        (True, f"{n}.mean(0)", b, s[1:]),
        (b <= 2 and len(s) == 2, f"{n}.prod(1)", max(b, 1) ** s[-1], s[:1]),
        (True, f"{n}.flip(-1)", b, s),
        (s[-1] >= 3, f"{n}[..., [2, 0, 0]]", b, s[:-1] + (3,)),   # (a stack's last dim: 2)
        (s[-1] >= 1, f"{n}[..., 1:]", b, s[:-1] + (s[-1] - 1,)),
        (len(s) == 2, f"{n}.mT", b, s[::-1]),
        (len(s) == 2, f"{n}.mH", b, s[::-1]),
        (True, f"sg.where(sg.tensor({_mask(s)}), {n}, {n} * 1j)", b, s),
        (True, f"sg.fft.fft({n})", b * s[-1], s),
        (True, f"sg.fft.ifft({n}, norm='ortho')", b * math.sqrt(s[-1]), s),
        (len(s) == 2, f"sg.fft.fftn({n})", b * math.prod(s), s),
        (True, f"sg.fft.rfft({n}.real) + 0j", b * s[-1], s[:-1] + (s[-1] // 2 + 1,)),
        (s[-1] >= 2, f"sg.fft.irfft({n}) + 0j", 2 * b, s[:-1] + (2 * (s[-1] - 1),)),
    ]
    return [(e, bd, sh) for ok, e, bd, sh in ops if ok]


def _mask(shape: tuple) -> str:
    flat = [(i * 7 + 3) % 5 < 3 for i in range(math.prod(shape))]
    return repr(np.array(flat).reshape(shape).tolist())


def _binary(a: CVar, b: CVar):
    x, y, p, q = a.name, b.name, a.bound, b.bound
    ops = []
    if a.shape == b.shape or b.shape == a.shape[-1:]:
        ops += [(f"{x} + {y}", p + q, a.shape), (f"{x} - {y}", p + q, a.shape),
                (f"{x} * {y}", p * q, a.shape),
                (f"{x} / {_shift(b)}", 2 * p, a.shape)]
        if not b.real:
            ops.append((f"sg.cat([{x}, {y}.expand({a.shape})])", max(p, q),
                        (2 * a.shape[0],) + a.shape[1:]))
    if a.shape == b.shape and not b.real:
        ops.append((f"sg.stack([{x}, {y}], -1)", max(p, q), a.shape + (2,)))
        if p <= 2 and q <= 2:
            ops.append((f"{_shift(a)} ** {y}", _shifted_bound(a) ** 2 * math.exp(2 * math.pi),
                        a.shape))
    # (b a matrix or a vector: a 3-D b is a batch of matrices, (2, 3) @ (3, 3, 2) is (3, 2, 2))
    if len(a.shape) == 2 and len(b.shape) <= 2 and b.shape[:1] == a.shape[1:] and not b.real:
        ops.append((f"{x} @ {y}", p * q * a.shape[1], a.shape[:1] + b.shape[1:]))
    if len(a.shape) == 1 and a.shape == b.shape and not b.real:
        ops += [(f"sg.dot({x}, {y}).reshape(1)", p * q * a.shape[0], (1,)),
                (f"sg.vdot({x}, {y}).reshape(1)", p * q * a.shape[0], (1,)),
                (f"sg.outer({x}, {y})", p * q, a.shape + b.shape)]
    return ops


@st.composite
def complex_programs(draw, precision: str = "complex128", max_stmts: int = 5):
    n_inputs = draw(st.integers(1, 3))
    inputs = [CVar(f"z{i}", draw(st.sampled_from(SHAPES)), 1.5) for i in range(n_inputs)]
    if draw(st.booleans()):
        inputs.append(CVar("x", draw(st.sampled_from(SHAPES)), 1.5, real=True))
    prog = ComplexProgram(precision, inputs, seed=draw(st.integers(0, 2 ** 16)))
    pool = [v for v in inputs if not v.real]
    for k in range(draw(st.integers(1, max_stmts))):
        a = draw(st.sampled_from(pool[::-1]))
        partners = [v for v in inputs + pool if _binary(a, v)]
        if partners and draw(st.booleans()):
            b = draw(st.sampled_from(partners))
            expr, bound, shape = draw(st.sampled_from(_binary(a, b)))
        else:
            expr, bound, shape = draw(st.sampled_from(_unary(a)))
        if bound > LIMIT or math.prod(shape) > 48 or not shape:
            continue
        v = CVar(f"v{k}", tuple(shape), bound)
        prog.lines.append(f"{v.name} = {expr}")
        pool.append(v)
    prog.outputs = [pool[-1]] + ([pool[-2]] if len(pool) > n_inputs + 1 and
                                  draw(st.booleans()) else [])
    return prog


def _function(prog: ComplexProgram):
    source = prog.source()
    filename = f"<complex fuzz program {next(_names)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"sg": sg}
    exec(compile(source, filename, "exec"), namespace)     # noqa: S102  (the drawn program)
    return namespace["program"]


def _weights(prog: ComplexProgram) -> list:
    rng = np.random.default_rng(prog.seed + 1)
    return [(rng.uniform(-1, 1, v.shape), rng.uniform(-1, 1, v.shape)) for v in prog.outputs]


def _loss(program, weights):
    def loss(*xs):
        total = 0.0
        for out, (wr, wi) in zip(program(*xs), weights):
            total = total + (out.real * sg.tensor(wr).to(out.real.dtype) +
                             out.imag * sg.tensor(wi).to(out.real.dtype)).sum()
        return total
    return loss


def _close(got, want, rtol: float, scale: float) -> bool:
    got, want = np.asarray(got), np.asarray(want)
    return got.shape == want.shape and bool(np.all(np.abs(got - want) <= rtol * (
        np.abs(want) + scale)))


def _fd_gradient(loss, arrays: list, h: float = 1e-6) -> list:
    """Central differences of ``loss`` (complex128 program) in each element's real and
    imaginary parts: dL/dx + i dL/dy."""
    grads = []
    for i, a in enumerate(arrays):
        g = np.zeros(a.shape, np.complex128 if np.iscomplexobj(a) else np.float64)
        for idx in np.ndindex(a.shape):
            for step, part in ((h, 1.0), (1j * h, 1j)):
                if part == 1j and not np.iscomplexobj(a):
                    continue
                plus, minus = [x.copy() for x in arrays], [x.copy() for x in arrays]
                plus[i][idx] += step
                minus[i][idx] -= step
                d = (float(loss(*map(sg.tensor, plus))) -
                     float(loss(*map(sg.tensor, minus)))) / (2 * h)
                g[idx] += part * d
        grads.append(g)
    return grads


def check_complex(prog: ComplexProgram) -> None:
    """Compiled against eager values and gradients, and both against finite differences."""
    program = _function(prog)
    arrays = prog.arrays()
    single = prog.precision == "complex64"
    rtol, fd_rtol = (2e-4, 1e-3) if single else (1e-9, 1e-5)
    eager = [o.numpy() for o in program(*map(sg.tensor, arrays))]
    compiled = [np.asarray(o) for o in sg.compile(program)(*map(sg.tensor, arrays))]
    for k, (c, e) in enumerate(zip(compiled, eager)):
        if c.dtype != e.dtype or not _close(c, e, rtol, np.abs(e).max(initial=1.0)):
            raise Disagreement(f"output {k}: compiled {c} ({c.dtype}) != eager {e} "
                               f"({e.dtype})\n\n{prog.script()}")
    loss = _loss(program, _weights(prog))
    argnums = tuple(range(len(arrays)))
    compiled_grads = sg.compile(sg.grad(loss, argnums=argnums))(*map(sg.tensor, arrays))
    leaves = [sg.tensor(a, requires_grad=True) for a in arrays]
    loss(*leaves).backward()
    wide = [a.astype(np.complex128 if np.iscomplexobj(a) else np.float64) for a in arrays]
    fd = _fd_gradient(loss, wide)
    for k, (c, leaf, f) in enumerate(zip(compiled_grads, leaves, fd)):
        e = leaf.grad.numpy() if leaf.grad is not None else np.zeros(f.shape, arrays[k].dtype)
        scale = max(1.0, float(np.abs(f).max(initial=1.0)))
        if not _close(np.asarray(c), e, rtol, scale):
            raise Disagreement(f"gradient {k}: compiled {np.asarray(c)} != eager {e}\n\n"
                               f"{prog.script()}")
        if not _close(e, f.astype(e.dtype), fd_rtol, scale):
            raise Disagreement(f"gradient {k}: eager {e} != finite differences {f}\n\n"
                               f"{prog.script()}")
