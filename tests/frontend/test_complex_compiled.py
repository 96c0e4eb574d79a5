"""Every complex-capable op compiled: values and gradients of ``@symgrad.compile`` against an
independent NumPy oracle (and finite differences of it), and against torch when it is
installed.

Ops are grouped (one compiled program per group and precision keeps the test fast); each op's
output is compared on its own, so a failure names the op. The gradient is that of a real loss,
the outputs' real and imaginary parts times fixed weights, summed: torch's convention
``z.grad = dL/dx + i dL/dy``, which the oracle gets by central differences of the NumPy
program in each element's real and imaginary parts. complex64 programs compute in float32
parts (sums, scans and transforms in double, rounded once).
"""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg

RNG = np.random.default_rng(7)


def _c(*shape):
    return RNG.uniform(-1, 1, shape) + 1j * RNG.uniform(-1, 1, shape)


def _r(*shape):
    return RNG.uniform(-1, 1, shape)


def _shifted(z):
    return z + 2.5        # real part >= 1.5: no branch cut, no kink at 0


def _var(z, axis):
    return np.var(z.real, axis=axis, ddof=1) + np.var(z.imag, axis=axis, ddof=1)


def _polar(r, t):
    return r * np.cos(t) + 1j * r * np.sin(t)


def _irfftn(z, s):
    return np.fft.irfftn(z, s=s, axes=tuple(range(len(s))))


# group -> (inputs, [(name, f(t, *xs) on torch or symgrad, numpy oracle f(*xs))])
GROUPS = {
    "products": ((_c(3, 4), _c(4, 2), _c(2, 3, 4), _c(2, 4, 2), _c(4), _c(4)), [
        ("matmul", lambda t, a, b, *_: a @ b, lambda a, b, *_: a @ b),
        ("mm", lambda t, a, b, *_: t.mm(a, b), lambda a, b, *_: a @ b),
        ("bmm", lambda t, a, b, c, d, *_: t.bmm(c, d), lambda a, b, c, d, *_: c @ d),
        ("matvec", lambda t, a, b, c, d, u, v: a @ u, lambda a, b, c, d, u, v: a @ u),
        ("dot", lambda t, a, b, c, d, u, v: t.dot(u, v).reshape(1),
         lambda a, b, c, d, u, v: np.dot(u, v).reshape(1)),
        ("vdot", lambda t, a, b, c, d, u, v: t.vdot(u, v).reshape(1),
         lambda a, b, c, d, u, v: np.vdot(u, v).reshape(1)),
        ("outer", lambda t, a, b, c, d, u, v: t.outer(u, v),
         lambda a, b, c, d, u, v: np.outer(u, v)),
        ("einsum", lambda t, a, b, *_: t.einsum("ij,jk->ki", a, b),
         lambda a, b, *_: np.einsum("ij,jk->ki", a, b)),
    ]),
    "reductions": ((_c(3, 4), _c(5)), [
        ("sum", lambda t, a, v: a.sum(1), lambda a, v: a.sum(1)),
        ("mean", lambda t, a, v: a.mean(0), lambda a, v: a.mean(0)),
        ("prod", lambda t, a, v: v.prod().reshape(1), lambda a, v: np.prod(v).reshape(1)),
        ("prod dim", lambda t, a, v: a.prod(1), lambda a, v: a.prod(1)),
        ("cumsum", lambda t, a, v: a.cumsum(1), lambda a, v: np.cumsum(a, 1)),
        ("cumprod", lambda t, a, v: a.cumprod(0), lambda a, v: np.cumprod(a, 0)),
        ("var", lambda t, a, v: a.var(1), lambda a, v: _var(a, 1)),
        ("std", lambda t, a, v: a.std(0), lambda a, v: np.sqrt(_var(a, 0))),
        ("norm", lambda t, a, v: a.norm(dim=1), lambda a, v: np.linalg.norm(a, axis=1)),
        ("vector_norm 1", lambda t, a, v: t.linalg.vector_norm(v, 1).reshape(1),
         lambda a, v: np.abs(v).sum().reshape(1)),
        ("trace", lambda t, a, v: t.trace(a[:, :3]).reshape(1),
         lambda a, v: np.trace(a[:, :3]).reshape(1)),
    ]),
    "parts": ((_c(2, 3), _r(3) + 1.5, _r(3), _r(3, 2)), [
        ("abs", lambda t, z, *_: _shifted(z).abs(), lambda z, *_: np.abs(_shifted(z))),
        ("angle", lambda t, z, *_: _shifted(z).angle(), lambda z, *_: np.angle(_shifted(z))),
        ("real imag", lambda t, z, *_: z.real * 2 + z.imag,
         lambda z, *_: z.real * 2 + z.imag),
        ("conj", lambda t, z, *_: z.conj() * z[0], lambda z, *_: np.conj(z) * z[0]),
        ("sgn", lambda t, z, *_: _shifted(z).sgn(), lambda z, *_: _shifted(z) /
         np.abs(_shifted(z))),
        ("polar", lambda t, z, r, a, p: t.polar(r, a), lambda z, r, a, p: _polar(r, a)),
        ("complex", lambda t, z, r, a, p: t.complex(a, r), lambda z, r, a, p: a + 1j * r),
        ("view_as_real", lambda t, z, *_: t.view_as_real(z), lambda z, *_: np.stack(
            [z.real, z.imag], -1)),
        ("view_as_complex", lambda t, z, r, a, p: t.view_as_complex(p),
         lambda z, r, a, p: p[:, 0] + 1j * p[:, 1]),
        ("mH", lambda t, z, *_: z.mH, lambda z, *_: np.conj(z.T)),
        ("mixed real", lambda t, z, r, *_: z * r - r / _shifted(z),
         lambda z, r, *_: z * r - r / _shifted(z)),
    ]),
    "analytic": ((_c(4), _c(4)), [
        ("exp", lambda t, z, w: z.exp(), lambda z, w: np.exp(z)),
        ("log", lambda t, z, w: _shifted(z).log(), lambda z, w: np.log(_shifted(z))),
        ("sqrt", lambda t, z, w: _shifted(z).sqrt(), lambda z, w: np.sqrt(_shifted(z))),
        ("rsqrt", lambda t, z, w: _shifted(z).rsqrt(), lambda z, w: 1 / np.sqrt(_shifted(z))),
        ("sin cos", lambda t, z, w: z.sin() - t.cos(w), lambda z, w: np.sin(z) - np.cos(w)),
        ("tanh", lambda t, z, w: z.tanh(), lambda z, w: np.tanh(z)),
        ("sigmoid", lambda t, z, w: t.sigmoid(z), lambda z, w: 1 / (1 + np.exp(-z))),
        ("pow int", lambda t, z, w: z ** 3, lambda z, w: z ** 3),
        ("pow float", lambda t, z, w: _shifted(z) ** 2.5, lambda z, w: _shifted(z) ** 2.5),
        ("pow complex", lambda t, z, w: _shifted(z) ** w, lambda z, w: _shifted(z) ** w),
        ("div", lambda t, z, w: w / _shifted(z), lambda z, w: w / _shifted(z)),
        ("reciprocal", lambda t, z, w: _shifted(w).reciprocal(), lambda z, w: 1 / _shifted(w)),
        ("sinc", lambda t, z, w: t.sinc(z * 2), lambda z, w: np.sinc(z * 2)),
        ("logaddexp", lambda t, z, w: t.logaddexp(z, w * 3),
         lambda z, w: np.log(np.exp(z) + np.exp(w * 3))),
    ]),
    "structure": ((_c(3, 4), _c(3, 4)), [
        ("where", lambda t, a, b: t.where(t.tensor([True, False, True, True]), a, b),
         lambda a, b: np.where([True, False, True, True], a, b)),
        ("cat", lambda t, a, b: t.cat([a, b[1:]]), lambda a, b: np.concatenate([a, b[1:]])),
        ("stack", lambda t, a, b: t.stack([a, b], 1), lambda a, b: np.stack([a, b], 1)),
        ("index", lambda t, a, b: a[[2, 0, 0], 1:], lambda a, b: a[[2, 0, 0], 1:]),
        ("flip roll", lambda t, a, b: a.flip(1).roll(1, 0), lambda a, b: np.roll(a[:, ::-1],
                                                                                 1, 0)),
        ("gather", lambda t, a, b: a.gather(1, t.tensor([[0, 3], [2, 2], [1, 0]])),
         lambda a, b: np.take_along_axis(a, np.array([[0, 3], [2, 2], [1, 0]]), 1)),
        ("masked_fill", lambda t, a, b: a.masked_fill(t.tensor([True, False, False, True]),
                                                      1j), lambda a, b: np.where(
            [True, False, False, True], 1j, a)),
        ("diagonal", lambda t, a, b: a.diagonal(), lambda a, b: np.diagonal(a)),
    ]),
    "fft": ((_c(5), _c(8), _r(6), _c(3, 4), _r(3, 4)), [
        ("fft", lambda t, a, *_: t.fft.fft(a), lambda a, *_: np.fft.fft(a)),
        ("ifft", lambda t, a, b, *_: t.fft.ifft(b), lambda a, b, *_: np.fft.ifft(b)),
        ("fft ortho n", lambda t, a, *_: t.fft.fft(a, n=7, norm="ortho"),
         lambda a, *_: np.fft.fft(a, n=7, norm="ortho")),
        ("rfft", lambda t, a, b, x, *_: t.fft.rfft(x), lambda a, b, x, *_: np.fft.rfft(x)),
        ("irfft", lambda t, a, *_: t.fft.irfft(a), lambda a, *_: np.fft.irfft(a)),
        ("irfft odd", lambda t, a, b, *_: t.fft.irfft(b[:4], n=7),
         lambda a, b, *_: np.fft.irfft(b[:4], n=7)),
        ("fft of real", lambda t, a, b, x, *_: t.fft.fft(x),
         lambda a, b, x, *_: np.fft.fft(x)),
        ("fftn", lambda t, a, b, x, m, y: t.fft.fftn(m), lambda a, b, x, m, y: np.fft.fftn(m)),
        ("fft dim 0", lambda t, a, b, x, m, y: t.fft.fft(m, dim=0, norm="forward"),
         lambda a, b, x, m, y: np.fft.fft(m, axis=0, norm="forward")),
        ("rfftn", lambda t, a, b, x, m, y: t.fft.rfftn(y), lambda a, b, x, m, y:
         np.fft.rfftn(y)),
        ("irfftn", lambda t, a, b, x, m, y: t.fft.irfftn(m, s=(3, 5)),
         lambda a, b, x, m, y: _irfftn(m, (3, 5))),
        ("fft2 of real", lambda t, a, b, x, m, y: t.fft.fft2(y),
         lambda a, b, x, m, y: np.fft.fft2(y)),
        ("hfft", lambda t, a, *_: t.fft.hfft(a), lambda a, *_: np.fft.hfft(a)),
        ("ihfft", lambda t, a, b, x, *_: t.fft.ihfft(x), lambda a, b, x, *_: np.fft.ihfft(x)),
    ]),
}

# precision -> (its parts' dtype, unit of rounding, tolerance against finite differences).
# Errors are measured relative to the largest magnitude of the result: torch's within
# TORCH_ULPS units (measured: at most 4, z ** 3; the transforms 1.3), the oracle's (NumPy in
# double precision) within ORACLE_ULPS.
PRECISIONS = {"complex128": (np.float64, np.finfo(np.float64).eps, 1e-7),
              "complex64": (np.float32, np.finfo(np.float32).eps, 1e-4)}
TORCH_ULPS, ORACLE_ULPS = 8, 32


def _inputs(group: str, precision: str) -> list:
    real, _, _ = PRECISIONS[precision]
    return [a.astype(precision if np.iscomplexobj(a) else real) for a in GROUPS[group][0]]


def _weights(group: str) -> list:
    rng = np.random.default_rng(len(group))
    inputs = [a.astype(np.complex128 if np.iscomplexobj(a) else np.float64)
              for a in GROUPS[group][0]]
    shapes = [np.shape(oracle(*inputs)) for _, _, oracle in GROUPS[group][1]]
    return [(rng.uniform(-1, 1, s), rng.uniform(-1, 1, s)) for s in shapes]


def _loss_of(t, group: str, weights: list):
    def loss(*xs):
        total = 0
        for (_, f, _), (wr, wi) in zip(GROUPS[group][1], weights):
            y = f(t, *xs)
            part = t.real(y) if y.dtype.is_complex else y
            total = total + (part * t.tensor(wr).to(part.dtype)).sum()
            if y.dtype.is_complex:
                total = total + (t.imag(y) * t.tensor(wi).to(part.dtype)).sum()
        return total
    return loss


def _oracle_loss(group: str, weights: list, xs: list) -> float:
    total = 0.0
    for (_, _, oracle), (wr, wi) in zip(GROUPS[group][1], weights):
        y = oracle(*xs)
        total += float((np.real(y) * wr).sum() + (np.imag(y) * wi).sum())
    return total


def _oracle_gradient(group: str, weights: list, h: float = 1e-6) -> list:
    """Central differences of the NumPy program in each element's real and imaginary parts."""
    xs = [a.astype(np.complex128 if np.iscomplexobj(a) else np.float64)
          for a in GROUPS[group][0]]
    grads = []
    for i, a in enumerate(xs):
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            for step in (h, 1j * h) if np.iscomplexobj(a) else (h,):
                plus, minus = [x.copy() for x in xs], [x.copy() for x in xs]
                plus[i][idx] += step
                minus[i][idx] -= step
                d = (_oracle_loss(group, weights, plus) -
                     _oracle_loss(group, weights, minus)) / (2 * h)
                g[idx] += d if step == h else 1j * d
        grads.append(g)
    return grads


@pytest.fixture(scope="module")
def compiled():
    """group, precision -> (the ops' compiled values, the loss's compiled gradient)."""
    cache = {}

    def run(group: str, precision: str):
        if (group, precision) not in cache:
            ops = GROUPS[group][1]
            loss = _loss_of(sg, group, _weights(group))
            argnums = tuple(range(len(GROUPS[group][0])))
            fn = sg.compile(lambda *xs: (tuple(f(sg, *xs) for _, f, _ in ops),
                                         sg.grad(loss, argnums=argnums)(*xs)))
            values, grads = fn(*[sg.tensor(a) for a in _inputs(group, precision)])
            cache[group, precision] = ([np.asarray(v) for v in values],
                                       [np.asarray(g) for g in grads])
        return cache[group, precision]
    return run


def _assert_close(got, want, rtol: float, what: str) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    scale = max(float(np.abs(want).max(initial=0.0)), 1e-300)
    err = float(np.abs(got - want).max(initial=0.0)) / scale
    assert err <= rtol, f"{what}: relative error {err:.3g} > {rtol:.3g}"


CASES = [(g, i, name) for g, (_, ops) in GROUPS.items() for i, (name, _, _) in enumerate(ops)]


@pytest.mark.parametrize("precision", list(PRECISIONS))
@pytest.mark.parametrize("group,index,name", CASES, ids=[f"{g}-{n}" for g, _, n in CASES])
def test_compiled_value_matches_numpy(compiled, group, index, name, precision):
    values, _ = compiled(group, precision)
    oracle = GROUPS[group][1][index][2]
    want = oracle(*[a.astype(np.complex128 if np.iscomplexobj(a) else np.float64)
                    for a in _inputs(group, precision)])
    real = precision == "complex128" and np.isrealobj(want)
    assert values[index].dtype == (np.float64 if real else np.dtype(precision)) or \
        np.isrealobj(want) and values[index].dtype == PRECISIONS[precision][0]
    _assert_close(values[index], want, PRECISIONS[precision][1] * ORACLE_ULPS, f"{name} value")


@pytest.mark.parametrize("precision", list(PRECISIONS))
@pytest.mark.parametrize("group", list(GROUPS))
def test_compiled_gradient_matches_finite_differences(compiled, group, precision):
    _, grads = compiled(group, precision)
    for k, want in enumerate(_oracle_gradient(group, _weights(group))):
        _assert_close(grads[k], want, PRECISIONS[precision][2], f"{group} input {k}")


@pytest.mark.parametrize("precision", list(PRECISIONS))
@pytest.mark.parametrize("group", list(GROUPS))
def test_compiled_values_and_gradients_match_torch(compiled, group, precision):
    torch = pytest.importorskip("torch")
    values, grads = compiled(group, precision)
    xs = [torch.tensor(a, requires_grad=True) for a in _inputs(group, precision)]
    for (name, f, _), got in zip(GROUPS[group][1], values):
        want = f(torch, *xs).detach().resolve_conj().numpy()
        assert got.dtype == want.dtype, f"{name}: dtype {got.dtype} != torch's {want.dtype}"
        _assert_close(got, want, PRECISIONS[precision][1] * TORCH_ULPS, f"{name} value")
    _loss_of(torch, group, _weights(group))(*xs).backward()
    for k, x in enumerate(xs):
        _assert_close(grads[k], x.grad.resolve_conj().numpy(),
                      PRECISIONS[precision][1] * TORCH_ULPS, f"{group} gradient {k}")
