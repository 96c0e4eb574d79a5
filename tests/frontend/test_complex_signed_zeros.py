"""Complex ``+``/``-`` and the products' gradients with torch 2.13's signed zeros, infinities and
NaNs, eagerly and compiled.

torch's CPU add computes x + alpha * y (alpha = 1, sub: -1) with c10's complex product, then
part by part, in its vectorized and scalar loops alike: re = xr + (yr - yi * 0), im = xi + (yr
* 0 + yi). Its analytic ops' gradients are g * conj(f'(z)) (``grad * other.conj()``) by the
plain product formula. Without torch: a scalar oracle of those formulas written here (Python
floats, part by part) and values stored from torch 2.13; with torch: the same grids compared
live, operand sizes 1 and 2401 (torch's scalar and vectorized paths).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import symgrad as sg

SPECIAL = [0.0, -0.0, 1.0, -2.0, math.inf, -math.inf, math.nan]
Z = [complex(r, i) for r in SPECIAL for i in SPECIAL]
PAIRS = list(itertools.product(Z, Z))
X = np.array([a for a, _ in PAIRS])
Y = np.array([b for _, b in PAIRS])


def _axpy(x: complex, y: complex, c: float) -> complex:
    """torch's x + c * y (c real), Python floats part by part."""
    re = c * y.real - 0.0 * y.imag
    im = c * y.imag + 0.0 * y.real
    return complex(x.real + re, x.imag + im)


def _key(a) -> tuple:
    """What must agree: NaN positions, then signs and values elsewhere."""
    v = np.ascontiguousarray(a).view(np.float64 if a.dtype == np.complex128 else np.float32)
    nan = np.isnan(v)
    return nan.tolist(), np.where(nan, False, np.signbit(v)).tolist(), np.where(nan, 0, v).tolist()


def _oracle(c: float, dtype) -> np.ndarray:
    out = np.array([_axpy(a, b, c) for a, b in PAIRS], np.complex128)
    return out.astype(dtype)


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_add_sub_against_the_formula(dtype):
    x, y = sg.tensor(X, dtype=getattr(sg, dtype)), sg.tensor(Y, dtype=getattr(sg, dtype))
    np_dt = getattr(np, dtype)
    assert _key((x + y).numpy()) == _key(_oracle(1.0, np_dt))
    assert _key((x - y).numpy()) == _key(_oracle(-1.0, np_dt))
    assert _key(x.clone().add_(y).numpy()) == _key(_oracle(1.0, np_dt))

    @sg.compile
    def both(a, b):
        return a + b, a - b

    plus, minus = both(x, y)
    assert _key(np.asarray(plus)) == _key(_oracle(1.0, np_dt))
    assert _key(np.asarray(minus)) == _key(_oracle(-1.0, np_dt))


def test_values_stored_from_torch():
    # torch 2.13 (NumPy's x + y in brackets): (-0-1j) + (-0-0j) = +0-1j (-0-1j); (1+0j) +
    # (1+inf j) = nan+inf j (2+inf j); (0-0j) + (1-0j) = 1+0j (1-0j); (1+0j) - (1+inf j) =
    # nan-inf j (0-inf j); 1 + (-0-0j), a Python number first, = 1+0j
    a = sg.tensor([complex(-0.0, -1.0), 1 + 0j, complex(0.0, -0.0)])
    b = sg.tensor([complex(-0.0, -0.0), complex(1.0, math.inf), complex(1.0, -0.0)])
    s = (a + b).numpy().tolist()
    assert math.copysign(1, s[0].real) == 1 and s[0].imag == -1
    assert math.isnan(s[1].real) and s[1].imag == math.inf
    assert s[2].real == 1 and math.copysign(1, s[2].imag) == 1
    d = (a - b).numpy().tolist()
    assert math.isnan(d[1].real) and d[1].imag == -math.inf
    r = (1 + sg.tensor([complex(-0.0, -0.0)])).numpy().tolist()[0]
    assert r.real == 1 and math.copysign(1, r.imag) == 1


def test_add_with_alpha():
    x, y = sg.tensor(X), sg.tensor(Y)
    want = [complex(a.real + (2 * b.real - 0.0 * b.imag), a.imag + (2 * b.imag + 0.0 * b.real))
            for a, b in PAIRS]
    assert _key(sg.add(x, y, alpha=2).numpy()) == _key(np.array(want))
    x.requires_grad_()
    y = sg.tensor([1 + 2j] * len(PAIRS), requires_grad=True)
    sg.sub(x, y, alpha=2 - 1j).real.sum().backward()
    assert np.all(y.grad.numpy() == -(2 + 1j))     # torch: g * conj(-alpha)


# ---------------------------------------------------------------- gradients of products

FINITE = [0.0, -0.0, 1.0, -2.0]
ZF = [complex(r, i) for r in FINITE for i in FINITE]
TRIPLES = list(itertools.product(ZF, ZF, ZF))


def _cmul(a: complex, b: complex) -> complex:
    return complex(a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real)


def _conj(a: complex) -> complex:
    return complex(a.real, -a.imag)


def _grads(x, y, g, fn, compiled: bool):
    if not compiled:
        xs, ys = sg.tensor(x, requires_grad=True), sg.tensor(y, requires_grad=True)
        return [t.numpy() for t in sg.autograd.grad(fn(xs, ys), [xs, ys], sg.tensor(g))]

    @sg.compile
    def run(a, b, c):
        a.requires_grad_()
        b.requires_grad_()
        return sg.autograd.grad(fn(a, b), [a, b], c)
    return [np.asarray(t) for t in run(sg.tensor(x), sg.tensor(y), sg.tensor(g))]


@pytest.mark.parametrize("compiled", [False, True])
def test_mul_gradient_is_g_times_conj_other(compiled):
    x, y, g = (np.array(v) for v in zip(*TRIPLES))
    gx, gy = _grads(x, y, g, lambda a, b: a * b, compiled)
    assert _key(gx) == _key(np.array([_cmul(c, _conj(b)) for _, b, c in TRIPLES]))
    assert _key(gy) == _key(np.array([_cmul(c, _conj(a)) for a, _, c in TRIPLES]))
    # a real factor (a Python number): torch's conj leaves it real, its imaginary part +0
    gx2, _ = _grads(x, y, g, lambda a, b: a * 2 + 0 * b, compiled)
    assert _key(gx2) == _key(np.array([_cmul(c, 2 + 0j) for _, _, c in TRIPLES]))


def test_example_stored_from_torch():
    x = sg.tensor([1 + 1j], requires_grad=True)
    (x * 2).backward(sg.tensor([0j]))
    assert not np.signbit(x.grad.numpy().view(np.float32)).any()     # torch 2.13: 0+0j


# ---------------------------------------------------------------- against torch

@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


CASES = {
    "a+b": lambda m, a, b: a + b, "a-b": lambda m, a, b: a - b,
    "add alpha": lambda m, a, b: m.add(a, b, alpha=2),
    "sub alpha": lambda m, a, b: m.sub(a, b, alpha=1j),
    "a+2.5": lambda m, a, b: a + 2.5, "-0.0-a": lambda m, a, b: -0.0 - a,
    "real+b": lambda m, a, b: a.real + b, "isub": lambda m, a, b: a.clone().sub_(b),
}


@pytest.mark.parametrize("n", [1, len(PAIRS)])
@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_add_sub_as_torch(torch, case, dtype, n):
    theirs = CASES[case](torch, torch.tensor(X[:n], dtype=getattr(torch, dtype)),
                         torch.tensor(Y[:n], dtype=getattr(torch, dtype))).numpy()
    mine = CASES[case](sg, sg.tensor(X[:n], dtype=getattr(sg, dtype)),
                       sg.tensor(Y[:n], dtype=getattr(sg, dtype))).numpy()
    assert _key(mine) == _key(theirs)


GRADS = {"mul": lambda m, a, b: a * b, "mul2": lambda m, a, b: a * 2 + b,
         "div self": lambda m, a, b: a / (b.detach() + 3) + b,
         "exp": lambda m, a, b: m.exp(a) + b,
         "sin": lambda m, a, b: m.sin(a) + b, "square": lambda m, a, b: a * a + b,
         "sqrt": lambda m, a, b: m.sqrt(b + 3) + a, "real*b": lambda m, a, b: a.real * b}


@pytest.mark.parametrize("name", sorted(GRADS))
def test_gradients_as_torch(torch, name):
    x, y, g = (np.array(v) for v in zip(*TRIPLES))
    tx, ty = torch.tensor(x, requires_grad=True), torch.tensor(y, requires_grad=True)
    theirs = torch.autograd.grad(GRADS[name](torch, tx, ty), [tx, ty], torch.tensor(g))
    mine = _grads(x, y, g, lambda a, b: GRADS[name](sg, a, b), False)
    for t, s in zip(theirs, mine):
        assert _key(s) == _key(t.numpy())
