"""Numerics: float sums as accurate as NumPy's, NaN/Inf/-0.0 through values and gradients as in
torch, and IEEE arithmetic with no fast-math.

1. Sums. Oracle: ``math.fsum`` (the exact sum, rounded once). The error of a sum is measured
   as |result - exact| / sum(|x|) (the largest over the outputs; for positive data the
   relative error) and must be at most ``max(2 * NumPy's error, 4u)``, u the unit roundoff of
   the output type (2**-53, 2**-24). Why 4u: the sums are pairwise over blocks (see
   symgrad/sumloop.py); the rounding errors inside the blocks average out, the top levels of
   the pairwise tree add errors that shrink geometrically as the partial sums halve (about
   (1 + 1/sqrt(2) + 1/2 + ...) u in all, rms), and the result is rounded once more (u). Worst
   cases need adversarial data; NumPy's own error is 0 on some of these inputs, hence the
   absolute term. NumPy sums over a non-last axis one row at a time (error growing with the
   rows): there symgrad must meet 4u by itself. float32 data is summed in double, so its sum
   is the exact sum correctly rounded up to a negligible term: within u (float32) of it.
2. Special values. A table of ops x inputs (NaN, +Inf, -Inf, -0.0, 0.0): forward values and
   gradients of sum(op(x)), hand-derived from torch's derivative formulas (derivatives.yaml),
   checked compiled and eager; an optional test runs the same rows in torch.
3. IEEE: no fast-math, FMA contraction, flush-to-zero or reassociation; Python's and NumPy's
   own results as the oracle.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest

import symgrad as sg
from symgrad.build.c import compiler, toolchain

nan, inf = math.nan, math.inf
U = {np.float64: 2.0 ** -53, np.float32: 2.0 ** -24}


# ================================================================== 1. sums

def _data(kind: str, n: int, dtype, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if kind == "uniform":
        x = rng.random(n)
    elif kind == "normal":
        x = rng.standard_normal(n)
    else:   # mixed: magnitudes over 20 decades, both signs
        x = rng.standard_normal(n) * 10.0 ** rng.uniform(-10, 10, n)
    return x.astype(dtype)


def _exact(x: np.ndarray, axis) -> tuple[np.ndarray, np.ndarray]:
    """(exact sums, sums of |x|) over ``axis`` (None: all), as float64."""
    x = x.astype(np.float64)
    if axis is None:
        return np.array([math.fsum(x.reshape(-1))]), np.array([np.abs(x).sum()])
    rows = np.moveaxis(x, axis, -1).reshape(-1, x.shape[axis])
    return np.array([math.fsum(r) for r in rows]), np.abs(rows).sum(axis=1)


def _error(result, exact: np.ndarray, scale: np.ndarray, divide_by: int = 1) -> float:
    result = np.asarray(result, np.float64).reshape(-1)
    return float(np.max(np.abs(result * divide_by - exact) / scale))


TOTAL = sg.compile(lambda x: x.sum())
MEAN = sg.compile(lambda x: x.mean())
AXIS0 = sg.compile(lambda x: x.sum(0))
AXIS1 = sg.compile(lambda x: x.sum(1))


SUM_CASES = [(dtype, kind, n) for dtype in (np.float64, np.float32)
             for kind in ("uniform", "normal", "mixed") for n in (10**7, 10**6 + 3)
             if not (dtype is np.float32 and kind == "normal" and n == 10**7)]   # test time


@pytest.mark.parametrize("dtype,kind,n", SUM_CASES)
def test_sum_and_mean_are_as_accurate_as_numpy(dtype, kind, n):
    x = _data(kind, n, dtype)
    exact, scale = _exact(x, None)
    ours, numpy_err = _error(TOTAL(x), exact, scale), _error(x.sum(), exact, scale)
    assert ours <= max(2 * numpy_err, 4 * U[dtype]), (ours, numpy_err)
    if dtype is np.float32:
        assert ours <= U[dtype] * (1 + 1e-6), ours     # the exact sum, correctly rounded
    if n == 10**7:
        # mean = sum / n: one more rounding (NumPy divides too)
        ours = _error(MEAN(x), exact, scale, n)
        numpy_err = _error(x.mean(), exact, scale, n)
        assert ours <= max(2 * numpy_err, 5 * U[dtype]), (ours, numpy_err)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("kind", ["uniform", "mixed"])
@pytest.mark.parametrize("shape", [(3001, 3331), (100003, 7)])
def test_sums_over_either_axis_are_accurate(dtype, kind, shape):
    x = _data(kind, math.prod(shape), dtype, seed=1).reshape(shape)
    for axis, fn in ((0, AXIS0), (1, AXIS1)):
        exact, scale = _exact(x, axis)
        ours, numpy_err = _error(fn(x), exact, scale), _error(x.sum(axis), exact, scale)
        assert ours <= max(2 * numpy_err, 4 * U[dtype]), (axis, ours, numpy_err)
        if axis == 0:      # NumPy: one row at a time, error growing with the 3001/100003 rows
            assert ours <= 4 * U[dtype], (ours, numpy_err)


def test_sums_inside_a_fused_value_and_grad_are_accurate_also_on_threads():
    # loss = sum((x * w + b)**2) / n: the value is a sum over everything, dw and db sums over
    # axis 0 (a non-last axis), all in the loop that computes the terms.
    rng = np.random.default_rng(3)
    n, d = 200_003, 7
    x, w, b = rng.random((n, d)), rng.random(d) + 0.5, rng.random(d)

    def loss(w, b, x):
        t = x * w + b
        return (t * t).sum() / float(n)
    step = sg.value_and_grad(loss, argnums=(0, 1))
    t = x * w + b
    terms = {"value": (t * t / n, None), "dw": (2 * t * x / n, 0), "db": (2 * t / n, 0)}
    before = sg.get_num_threads()
    try:
        results = {}
        for threads in (1, 2):
            sg.set_num_threads(threads)
            value, (dw, db) = step(w, b, x)
            results[threads] = (value, dw, db)
            for got, (name, (term, axis)) in zip((value, dw, db), terms.items()):
                exact, scale = _exact(term, axis)
                numpy_err = _error(term.sum() if axis is None else term.sum(axis), exact, scale)
                ours = _error(got, exact, scale)
                assert ours <= max(2 * numpy_err, 4 * U[np.float64]), (name, ours, numpy_err)
    finally:
        sg.set_num_threads(before)
    for a, b_ in zip(results[1], results[2]):     # the same bits on 1 and 2 threads
        np.testing.assert_array_equal(a, b_)


def test_threads_do_not_change_a_single_output_sum():
    # A single-output sum is cut into a fixed number of chunks whatever the thread count, and
    # the chunks are added pairwise in order: the result is the same bits for 1, 2, 3 threads.
    x = _data("mixed", 1_000_003, np.float64, seed=5)
    y = _data("uniform", 300_007, np.float32, seed=6).reshape(300_007, 1)
    f = sg.compile(lambda x, y: (x.sum(), (y * y).sum(), (x * 2.0).mean()))
    before = sg.get_num_threads()
    try:
        got = []
        for threads in (1, 2, 3):
            sg.set_num_threads(threads)
            got.append(f(x, y))
    finally:
        sg.set_num_threads(before)
    assert "omp parallel for" in f.c_source
    for other in got[1:]:
        for a, b in zip(got[0], other):
            assert a.tobytes() == b.tobytes()


def test_blocked_sum_loops_stay_vectorized():
    # the block's loop and the tile's loop carry `omp simd` (gcc vectorizes sums only when
    # told it may reorder them into lanes); shapes too small for the blocks keep one loop.
    x = np.ones(100_000)
    TOTAL(x)
    AXIS0(np.ones((1000, 300)))
    if toolchain.has_vector_math():
        assert "#pragma omp simd reduction(+:acc)" in TOTAL.c_source
        assert "#pragma omp simd\n" in AXIS0.c_source
    assert "acc_s[" in TOTAL.c_source and "acc_s[" in AXIS0.c_source   # pairwise stacks
    small = sg.compile(lambda x: x.sum(1))
    small(np.ones((4, 100)))
    assert "acc_s" not in small.c_source and "blocks" not in small.c_source


def test_one_thread_keeps_the_vector_loop():
    # A bare `if(nthreads > 1)` on `omp parallel for simd` also switches the simd part off
    # (OpenMP 4.5+): gcc ran the one-thread case as scalar code (a fused tanh value_and_grad of
    # 1e7 elements: 84 ms instead of 20 ms). The condition must name the parallel directive.
    f = sg.compile(lambda x: sg.tanh(x) * 2.0)
    f(np.zeros(300_000))
    assert "#pragma omp parallel for" in f.c_source
    assert "if(nthreads > 1)" not in f.c_source
    assert "if(parallel: nthreads > 1)" in f.c_source


@pytest.mark.parametrize("shape,axes", [((130, 7, 300), (0, 2)), ((7, 130, 300), (1,)),
                                         ((300, 5, 130), (0, 1)), ((257, 129), (0,))])
def test_blocked_sums_of_any_layout_match_the_exact_sums(shape, axes):
    # reduced dims in the middle, at both ends, partial tiles; with a max fused in (carried
    # along in place / in a scalar) and an elementwise output
    x = _data("normal", math.prod(shape), np.float64, seed=7).reshape(shape)
    f = sg.compile(lambda x: (x.sum(axes), sg.amax(x, axes), sg.exp(x)))
    s, m, e = f(x)
    moved = np.moveaxis(x, axes, tuple(range(-len(axes), 0)))
    rows = moved.reshape(-1, math.prod(shape[a] for a in axes))
    exact = np.array([math.fsum(r) for r in rows]).reshape(s.shape)
    np.testing.assert_allclose(s, exact, rtol=0, atol=4 * U[np.float64] * np.abs(rows).sum())
    np.testing.assert_array_equal(m, x.max(axes))
    np.testing.assert_allclose(e, np.exp(x), rtol=1e-15)


# ================================================================== 2. NaN, Inf, -0.0

SPECIALS = np.array([nan, inf, -inf, -0.0, 0.0])
LN2 = math.log(2.0)


@dataclass
class Row:
    """``fn(m, x)``: one op applied to x, m being symgrad or torch. Unary rows get
    x = SPECIALS; reduction rows get x = [[s, 1, -2] for s in SPECIALS] (``rows``)."""

    name: str
    fn: Callable
    value: list                # expected forward values, flattened
    grad: list                 # expected gradient of sum(fn(x)), flattened like x
    rows: bool = False


def _red(x):
    return np.array([[s, 1.0, -2.0] for s in x])


def _lse(s):
    return math.log(sum(math.exp(v) for v in (s, 1.0, -2.0)))


def _softmax(s):
    z = [math.exp(v) for v in (s, 1.0, -2.0)]
    return [v / sum(z) for v in z]


# Hand-derived: forward from IEEE (C99 Annex F) math, gradients from torch's formulas.
TABLE = [
    Row("neg", lambda m, x: -x, [nan, -inf, inf, 0.0, -0.0], [-1.0] * 5),
    Row("add", lambda m, x: x + 2.0, [nan, inf, -inf, 2.0, 2.0], [1.0] * 5),
    Row("sub", lambda m, x: 2.0 - x, [nan, -inf, inf, 2.0, 2.0], [-1.0] * 5),
    Row("mul", lambda m, x: x * 3.0, [nan, inf, -inf, -0.0, 0.0], [3.0] * 5),
    # mul's rule, g*other + g*self: 2x (and -0.0 + -0.0 = -0.0)
    Row("x*x", lambda m, x: x * x, [nan, inf, inf, 0.0, 0.0], [nan, inf, -inf, -0.0, 0.0]),
    Row("div", lambda m, x: x / 2.0, [nan, inf, -inf, -0.0, 0.0], [0.5] * 5),
    # d/dother = -g * self / (other * other)
    Row("1/x", lambda m, x: 1.0 / x, [nan, 0.0, -0.0, -inf, inf], [nan, -0.0, -0.0, -inf, -inf]),
    # pow_backward: exponent * x**(exponent - 1); exactly 0 where the exponent is 0
    Row("x**2", lambda m, x: x ** 2.0, [nan, inf, inf, 0.0, 0.0], [nan, inf, -inf, -0.0, 0.0]),
    Row("x**0", lambda m, x: x ** 0.0, [1.0] * 5, [0.0] * 5),
    # pow_backward_exponent: g * result * log(base)
    Row("2**x", lambda m, x: 2.0 ** x, [nan, inf, 0.0, 1.0, 1.0], [nan, inf, 0.0, LN2, LN2]),
    Row("exp", lambda m, x: m.exp(x), [nan, inf, 0.0, 1.0, 1.0], [nan, inf, 0.0, 1.0, 1.0]),
    # log: g / x (log(0) = -inf, log'(0) = inf)
    Row("log", lambda m, x: m.log(x), [nan, inf, nan, -inf, -inf], [nan, 0.0, -0.0, -inf, inf]),
    Row("log1p", lambda m, x: m.log1p(x), [nan, inf, nan, -0.0, 0.0],
        [nan, 0.0, -0.0, 1.0, 1.0]),
    # expm1: g * (result + 1)
    Row("expm1", lambda m, x: m.expm1(x), [nan, inf, -1.0, -0.0, 0.0], [nan, inf, 0.0, 1.0, 1.0]),
    # sqrt: g / (2 * result): sqrt'(+-0) = +-inf
    Row("sqrt", lambda m, x: m.sqrt(x), [nan, inf, nan, -0.0, 0.0], [nan, 0.0, nan, -inf, inf]),
    # rsqrt = 1 / sqrt: torch's -0.5 * g * result**3
    Row("rsqrt", lambda m, x: m.rsqrt(x), [nan, 0.0, nan, -inf, inf],
        [nan, -0.0, nan, inf, -inf]),
    Row("sin", lambda m, x: m.sin(x), [nan, nan, nan, -0.0, 0.0], [nan, nan, nan, 1.0, 1.0]),
    # cos: g * -sin(x)
    Row("cos", lambda m, x: m.cos(x), [nan, nan, nan, 1.0, 1.0], [nan, nan, nan, 0.0, -0.0]),
    # tanh: g * (1 - result**2)
    Row("tanh", lambda m, x: m.tanh(x), [nan, 1.0, -1.0, -0.0, 0.0], [nan, 0.0, 0.0, 1.0, 1.0]),
    # sigmoid: g * result * (1 - result)
    Row("sigmoid", lambda m, x: m.sigmoid(x), [nan, 1.0, 0.0, 0.5, 0.5],
        [nan, 0.0, 0.0, 0.25, 0.25]),
    # softplus_backward: g where x > 20 (NaN is not), else g * sigmoid(x)
    Row("softplus", lambda m, x: m.nn.functional.softplus(x), [nan, inf, 0.0, LN2, LN2],
        [nan, 1.0, 0.0, 0.5, 0.5]),
    # relu = clamp_min(x, 0): -0.0 stays; threshold_backward: 0 where result <= 0, which NaN
    # is not: relu'(NaN) = 1
    Row("relu", lambda m, x: m.relu(x), [nan, inf, 0.0, -0.0, 0.0], [1.0, 1.0, 0.0, 0.0, 0.0]),
    # abs: g * sgn(x), torch's sign being (x > 0) - (x < 0): 0 at NaN and at +-0
    Row("abs", lambda m, x: m.abs(x), [nan, inf, inf, 0.0, 0.0], [0.0, 1.0, -1.0, 0.0, 0.0]),
    Row("sign", lambda m, x: m.sign(x), [0.0, 1.0, -1.0, 0.0, 0.0], [0.0] * 5),
    # maximum/minimum: g / 2 each on a tie, 0 to the operand that is smaller/larger; a NaN
    # compares false both ways: g to both operands (2 in all for maximum(x, x))
    Row("maximum(x,1)", lambda m, x: m.maximum(x, m.ones_like(x)), [nan, inf, 1.0, 1.0, 1.0],
        [1.0, 1.0, 0.0, 0.0, 0.0]),
    Row("minimum(x,-1)", lambda m, x: m.minimum(x, -m.ones_like(x)), [nan, -1.0, -inf, -1.0, -1.0],
        [1.0, 0.0, 1.0, 0.0, 0.0]),
    Row("maximum(x,x)", lambda m, x: m.maximum(x, x), [nan, inf, -inf, -0.0, 0.0],
        [2.0, 1.0, 1.0, 1.0, 1.0]),
    # clamp_backward: g where min <= x <= max (NaN is not)
    Row("clamp", lambda m, x: m.clamp(x, -1.0, 1.0), [nan, 1.0, -1.0, -0.0, 0.0],
        [0.0, 0.0, 0.0, 1.0, 1.0]),
    # where: g to the selected branch, 0 (not NaN) to the other
    Row("where(x>0,x,0)", lambda m, x: m.where(x > 0, x, m.zeros_like(x)),
        [0.0, inf, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0]),
    Row("where(isnan,0,x)", lambda m, x: m.where(m.isnan(x), m.zeros_like(x), x),
        [0.0, inf, -inf, -0.0, 0.0], [0.0, 1.0, 1.0, 1.0, 1.0]),
    # ... but the unselected branch's own backward still runs on its 0: sqrt's g / (2 * out)
    # is 0 / NaN or 0 / 0 = NaN there (torch's well-known where/NaN gradient)
    Row("where(x>0,sqrt,0)", lambda m, x: m.where(x > 0, m.sqrt(x), m.zeros_like(x)),
        [0.0, inf, 0.0, 0.0, 0.0], [nan, 0.0, nan, nan, nan]),
    # reductions along rows [s, 1, -2]
    Row("sum", lambda m, x: x.sum(1), [nan, inf, -inf, -1.0, -1.0], [1.0] * 15, rows=True),
    Row("mean", lambda m, x: x.mean(1), [nan, inf, -inf, -1 / 3, -1 / 3], [1 / 3] * 15,
        rows=True),
    # amax/amin: (g / count) * (x == result); no element equals a NaN result: 0 * inf = NaN
    Row("amax", lambda m, x: m.amax(x, 1), [nan, inf, 1.0, 1.0, 1.0],
        [nan] * 3 + [1, 0, 0] + [0, 1, 0] * 3, rows=True),
    Row("amin", lambda m, x: m.amin(x, 1), [nan, -2.0, -inf, -2.0, -2.0],
        [nan] * 3 + [0, 0, 1] + [1, 0, 0] + [0, 0, 1] * 2, rows=True),
    # max()/min() of all elements: evenly_distribute_backward, among the NaNs if NaN
    Row("max()", lambda m, x: tuple(m.max(x[i]) for i in range(5)), [nan, inf, 1.0, 1.0, 1.0],
        [1, 0, 0] * 2 + [0, 1, 0] * 3, rows=True),
    Row("min()", lambda m, x: tuple(m.min(x[i]) for i in range(5)), [nan, -2.0, -inf, -2.0, -2.0],
        [1, 0, 0] + [0, 0, 1] + [1, 0, 0] + [0, 0, 1] * 2, rows=True),
    # max(x, dim): the gradient goes to the index it returns; argmax returns the first NaN
    Row("max(x,1)", lambda m, x: m.max(x, 1)[0], [nan, inf, 1.0, 1.0, 1.0],
        [1, 0, 0] * 2 + [0, 1, 0] * 3, rows=True),
    # logsumexp: g * exp(x - result); exp(inf - inf) = NaN
    Row("logsumexp", lambda m, x: m.logsumexp(x, 1),
        [nan, inf, _lse(-inf), _lse(0.0), _lse(0.0)],
        [nan] * 3 + [nan, 0.0, 0.0] + _softmax(-inf) + _softmax(0.0) * 2, rows=True),
    # softmax: exp(x - max) / sum, and x - max is NaN at an infinite max: a NaN row
    Row("softmax", lambda m, x: m.softmax(x, 1)[:, 1],
        [nan, nan] + _softmax(-inf)[1:2] + _softmax(0.0)[1:2] * 2,
        [nan] * 3 + [nan, nan, nan] + [0.0, 0.0, 0.0] + [0.0] * 6, rows=True),
]
# softmax's rows where it is finite: torch's softmax_backward, y * (g - sum(g * y)), with g
# one-hot at column 1: y_j * ([j == 1] - y_1) (-0.0 at y_0 = 0)
for _i, _s in ((2, -inf), (3, 0.0), (4, 0.0)):
    _y = _softmax(_s)
    TABLE[-1].grad[3 * _i:3 * _i + 3] = [_y[j] * (float(j == 1) - _y[1]) for j in range(3)]


def _inputs():
    return [(_red(SPECIALS) if r.rows else SPECIALS.copy()) for r in TABLE]


def _flat(out) -> np.ndarray:
    parts = out if isinstance(out, tuple) else (out,)
    return np.concatenate([np.asarray(p, np.float64).reshape(-1) for p in parts])


def _same(got, want, what: str) -> None:
    """Equal values, NaN at the same places, and the same sign where the value is a zero."""
    got, want = np.asarray(got, np.float64).reshape(-1), np.asarray(want, np.float64)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=f"{what}: NaNs")
    ok = ~np.isnan(want)
    np.testing.assert_allclose(got[ok], want[ok], rtol=1e-14, atol=0, err_msg=what)
    zeros = ok & (want == 0)
    np.testing.assert_array_equal(np.signbit(got[zeros]), np.signbit(want[zeros]),
                                  err_msg=f"{what}: signs of zeros")


def _total(outs):
    return sum(o.sum() for out in outs for o in (out if isinstance(out, tuple) else (out,)))


def test_special_values_compiled():
    xs = _inputs()
    n = len(TABLE)
    values = sg.compile(lambda *xs: tuple(r.fn(sg, x) for r, x in zip(TABLE, xs)))(*xs)
    grads = sg.grad(lambda *xs: _total([r.fn(sg, x) for r, x in zip(TABLE, xs)]),
                    argnums=tuple(range(n)))(*xs)
    for r, v, g in zip(TABLE, values, grads):
        _same(_flat(v), r.value, f"{r.name} value")
        _same(g, r.grad, f"{r.name} gradient")


def test_special_values_eager():
    for r, x in zip(TABLE, _inputs()):
        t = sg.tensor(x, requires_grad=True)
        out = r.fn(sg, t)
        _same(_flat(tuple(o.detach().numpy() for o in out) if isinstance(out, tuple)
                    else out.detach().numpy()), r.value, f"{r.name} value")
        _total([out]).backward()
        _same(t.grad.numpy(), r.grad, f"{r.name} gradient")


# Intended differences from torch (documented in the ops' docstrings): none in TABLE; prod's
# is tested on its own below.
def test_special_values_match_torch():
    torch = pytest.importorskip("torch")
    for r, x in zip(TABLE, _inputs()):
        t = torch.tensor(x, requires_grad=True)
        out = r.fn(torch, t)
        _same(_flat(tuple(o.detach().numpy() for o in out) if isinstance(out, tuple)
                    else out.detach().numpy()), r.value, f"torch {r.name} value")
        _total([out]).backward()
        _same(t.grad.numpy(), r.grad, f"torch {r.name} gradient")


def test_prod_gradient_is_the_product_of_the_others_at_special_values():
    # Intended difference from torch (ops/reduce.py): torch divides (g * result / x) when no
    # element is 0, which is NaN at an infinite element and everywhere when the product is
    # NaN; symgrad multiplies the other elements: d/dx0 prod([x0, 1, -2]) = -2 for any x0.
    x = _red(SPECIALS)
    value = sg.compile(lambda x: x.prod(1))(x)
    grad = sg.grad(lambda x: x.prod(1).sum())(x)
    _same(value, [nan, -inf, inf, 0.0, -0.0], "prod value")
    _same(grad, [-2.0, nan, nan, -2.0, -inf, inf, -2.0, inf, -inf, -2.0, 0.0, -0.0,
                 -2.0, -0.0, 0.0], "prod gradient")


# ================================================================== 3. IEEE arithmetic

def test_no_fast_math_flags():
    flags = " ".join(compiler.DEFAULT_OPT_FLAGS)
    for bad in ("-ffast-math", "-Ofast", "-funsafe-math-optimizations", "-ffinite-math-only",
                "-fassociative-math", "-freciprocal-math", "-fno-signed-zeros"):
        assert bad not in flags
    assert "-ffp-contract=off" in flags


def test_rounding_is_not_reassociated_away():
    want = (2.0 ** 40 + 0.3) - 2.0 ** 40      # 0.300048828125, not 0.3
    assert want != 0.3
    inputs = sg.compile(lambda a, b: (a + b) - a)
    assert inputs(np.array(2.0 ** 40), np.array(0.3)) == want
    np.testing.assert_array_equal(inputs(np.full(33, 2.0 ** 40), np.full(33, 0.3)), want)
    mixed = sg.compile(lambda a: (a + 0.3) - 2.0 ** 40)
    assert mixed(np.array(2.0 ** 40)) == want
    folded = sg.compile(lambda x: x + ((sg.tensor(2.0 ** 40, dtype=sg.float64) + 0.3)
                                       - 2.0 ** 40))
    assert folded(np.array(0.0)) == want
    assert "+ (0.300048828125);" in folded.c_source     # folded at compile time


def test_overflow_is_inf_in_evaluation_order():
    f = sg.compile(lambda x: x * 1e308 * 10.0)
    np.testing.assert_array_equal(f(np.array([1.0, -1.0, 0.1])), [inf, -inf, 0.1 * 1e308 * 10])
    assert 0.1 * 1e308 * 10 < inf     # (x * 1e308) * 10, not x * (1e308 * 10) = x * inf


@pytest.mark.parametrize("dtype,tiny", [(np.float32, 1e-40), (np.float64, 1e-310)])
def test_subnormals_are_not_flushed(dtype, tiny):
    x = np.full(37, tiny, dtype)            # a vectorized loop and its remainder
    assert 0 < x[0] < np.finfo(dtype).tiny
    f = sg.compile(lambda x: (x * 0.5, x + 0.0, x - x * 0.5))
    half = x * dtype(0.5)
    for got, want in zip(f(x), (half, x, x - half)):
        np.testing.assert_array_equal(got, want)
        assert (got > 0).all()
    e = sg.compile(lambda x: sg.exp(x))(np.full(37, -720.0 if dtype is np.float64 else -95.0,
                                                 dtype))
    assert 0 < e[0] < np.finfo(dtype).tiny                        # a subnormal result


def test_no_fma_contraction():
    rng = np.random.default_rng(8)
    a, b, c = (rng.standard_normal(1001) for _ in range(3))
    got = sg.compile(lambda a, b, c: a * b + c)(a, b, c)
    np.testing.assert_array_equal(got, a * b + c)                 # two roundings, as NumPy
    fused = np.array([float(Fraction(p) * Fraction(q) + Fraction(r)) for p, q, r in zip(a, b, c)])
    assert (fused != a * b + c).sum() > 100    # an FMA would have changed these elements


def test_division_by_zero_follows_ieee():
    f = sg.compile(lambda a, b: a / b)
    a = np.array([1.0, -1.0, 0.0, 1.0, -1.0, inf, nan])
    b = np.array([0.0, 0.0, 0.0, -0.0, -0.0, inf, 0.0])
    with np.errstate(all="ignore"):
        want = a / b
    _same(f(a, b), want, "a / b")
    _same(want, [inf, -inf, nan, -inf, inf, nan, nan], "NumPy's a / b")


def test_int64_arithmetic_wraps_like_numpy():
    # +, -, *, unary -, abs, sum and prod of int64 wrap modulo 2**64 as NumPy's do; `/` is
    # true division in torch's default float dtype, float32 (NumPy's is float64).
    a = np.array([2**63 - 1, -2**63, 3, -2**63], np.int64)
    b = np.array([1, -1, 2**62, -1], np.int64)
    f = sg.compile(lambda a, b: (a + b, a - b, a * b, -a, sg.abs(a), a.sum(), a.prod(), a / b))
    with np.errstate(all="ignore"):
        want = (a + b, a - b, a * b, -a, np.abs(a), a.sum(), a.prod(),
                a.astype(np.float32) / b.astype(np.float32))
    for i, (got, w) in enumerate(zip(f(a, b), want)):
        assert got.dtype == w.dtype, i
        np.testing.assert_array_equal(got, w, err_msg=f"output {i}")


# ================================================================== 4. x ** 0.5 and x ** -0.5

# torch computes x ** 0.5 as sqrt and x ** -0.5 as rsqrt = 1 / sqrt (ops/elementwise.py): IEEE
# sqrt(-0.0) = -0.0 and sqrt(x < 0) = NaN, so -0.0 -> -0.0 / -inf and -inf -> NaN, where C99's
# pow gives +0.0 / +inf and +inf / +0.0. Gradients are PowBackward0's, e * x ** (e - 1), whose
# power takes the same road:
#   e = 0.5:  0.5 * x ** -0.5 = 0.5 / sqrt(x): -inf at -0.0, inf at 0.0, 0.5 / 2 at 4, +0.0 at
#             inf, NaN at -inf (sqrt(-inf) = NaN), NaN, -1.
#   e = -0.5: -0.5 * x ** -1.5, C99's pow (-1.5 is not +-0.5): pow(+-0.0, -1.5) = +inf,
#             pow(4, -1.5) = 1/8, pow(+-inf, -1.5) = +0.0, pow(-1, -1.5) = NaN.
POW_X = [-0.0, 0.0, 4.0, inf, -inf, nan, -1.0]
POW_HALF = ([-0.0, 0.0, 2.0, inf, nan, nan, nan],                  # x ** 0.5
            [-inf, inf, 0.25, 0.0, nan, nan, nan])                 # its gradient
POW_MINUS_HALF = ([-inf, inf, 0.5, 0.0, nan, nan, nan],            # x ** -0.5
                  [-inf, -inf, -0.0625, -0.0, -0.0, nan, nan])     # its gradient


def _half_powers(m, x):
    return x ** 0.5, x ** -0.5


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("reps", [1, 9])        # 7 elements; 63: vector loop and remainder
def test_pow_of_plus_minus_half_is_sqrt_compiled_and_interpreted(dtype, reps):
    from symgrad.ir import interpret
    x = np.tile(np.array(POW_X, dtype), reps)
    f = sg.compile(lambda x: _half_powers(sg, x))
    g = sg.grad(lambda a, b: (a ** 0.5).sum() + (b ** -0.5).sum(), argnums=(0, 1))
    values, grads = f(x), g(x, x)
    ref_values = interpret(f.last_specialization.compiled.traced.graph, [x])
    ref_grads = interpret(g.last_specialization.compiled.traced.graph, [x, x])
    for i, (want_value, want_grad) in enumerate((POW_HALF, POW_MINUS_HALF)):
        what = f"x ** {(0.5, -0.5)[i]} {np.dtype(dtype).name}"
        assert values[i].dtype == dtype and grads[i].dtype == dtype
        for got, name in ((values[i], "compiled"), (ref_values[i], "interpreter")):
            _same(got, want_value * reps, f"{name} {what}")
        for got, name in ((grads[i], "compiled"), (ref_grads[i], "interpreter")):
            _same(got, want_grad * reps, f"{name} gradient of {what}")
    ctype_sqrt = "sqrtf(" if dtype is np.float32 else "sqrt("
    assert ctype_sqrt in f.c_source and ctype_sqrt in g.c_source


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_pow_of_plus_minus_half_is_sqrt_eager(dtype):
    for i, (want_value, want_grad) in enumerate((POW_HALF, POW_MINUS_HALF)):
        t = sg.tensor(np.array(POW_X, dtype), requires_grad=True)
        out = _half_powers(sg, t)[i]
        out.sum().backward()
        what = f"eager x ** {(0.5, -0.5)[i]} {np.dtype(dtype).name}"
        assert out.dtype == t.dtype and t.grad.numpy().dtype == dtype
        _same(out.detach().numpy(), want_value, what)
        _same(t.grad.numpy(), want_grad, f"gradient of {what}")


def test_pow_of_plus_minus_half_matches_torch():
    torch = pytest.importorskip("torch")
    for dtype in (torch.float64, torch.float32):
        for i, (want_value, want_grad) in enumerate((POW_HALF, POW_MINUS_HALF)):
            t = torch.tensor(POW_X, dtype=dtype, requires_grad=True)
            out = _half_powers(torch, t)[i]
            out.sum().backward()
            what = f"torch x ** {(0.5, -0.5)[i]} {dtype}"
            _same(out.detach().numpy(), want_value, what)
            _same(t.grad.numpy(), want_grad, f"gradient of {what}")


def test_other_exponents_and_tensor_exponents_keep_c99_pow():
    # Only a number exponent of exactly +-0.5 is a square root: 0.25 stays pow, +0.0 at
    # x = -0.0 and +inf at -inf (C99 Annex F), compiled and eager alike; a tensor exponent (even
    # a 0-d one equal to +-0.5) is C's pow, as torch's pow_tensor_tensor (ops/elementwise.py).
    x = np.array([-0.0, -inf])
    f = sg.compile(lambda x, e: (x ** 0.25, x ** e))
    for e, want in ((1.5, [0.0, inf]), (0.5, [0.0, inf]), (-0.5, [inf, 0.0])):
        const, tensor = f(x, np.array(e))
        _same(const, [0.0, inf], "compiled x ** 0.25")
        _same(tensor, want, f"compiled x ** tensor({e})")
        _same((sg.tensor(x) ** sg.tensor(e)).numpy(), want, f"eager x ** tensor({e})")
    _same((sg.tensor(x) ** 0.25).numpy(), [0.0, inf], "eager x ** 0.25")
