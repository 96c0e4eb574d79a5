"""cumsum, cumprod, cummax, cummin, logcumsumexp, diff, trapezoid, cumulative_trapezoid and the
scan primitives under them: values against NumPy (eagerly and compiled), gradients against
central finite differences (eagerly, compiled, through symgrad.grad), second derivatives
against torch, torch's grad_fn names, and a compiled scan of a million elements that is one
C loop (a graph whose size does not grow with n)."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
from references import central_differences
from symgrad.frontend.core.apply import apply

RNG = np.random.default_rng(7)
X = RNG.standard_normal((3, 4, 5))
Z = np.array([[1.5, 2.0, 0.0, 3.0, 0.0], [0.5, -1.0, 2.0, 0.0, 4.0]])   # zeros for cumprod
B = np.array([[True, False, True], [False, False, True]])
I = np.array([[3, -1, 4], [1, 5, -9]])


def _cum_arg(a, axis, larger):
    """Running extremum indices, written as torch documents them: the latest index wins ties,
    a NaN wins and stays until a later NaN."""
    a = np.moveaxis(a, axis, -1)
    out = np.zeros(a.shape, np.int64)
    for idx in np.ndindex(a.shape[:-1]):
        best, at = None, 0
        for j, v in enumerate(a[idx]):
            if best is None or np.isnan(v) or (not np.isnan(best) and
                                               (v >= best if larger else v <= best)):
                best, at = v, j
            out[idx + (j,)] = at
    return np.moveaxis(out, -1, axis)


def _cumulative_trapezoid(y, dx, axis):
    both = np.take(y, range(1, y.shape[axis]), axis) + np.take(y, range(y.shape[axis] - 1), axis)
    return np.cumsum(both * dx / 2, axis=axis)


VALUE_CASES = [
    ("sg.cumsum(x, 1)", lambda: np.cumsum(X, 1)),
    ("x.cumsum(dim=-1)", lambda: np.cumsum(X, -1)),
    ("sg.cumsum(i, 0)", lambda: np.cumsum(I, 0)),
    ("sg.cumsum(b, 1)", lambda: np.cumsum(B, 1)),
    ("sg.cumsum(i, 1, dtype=sg.float64)", lambda: np.cumsum(I, 1).astype(np.float64)),
    ("sg.cumprod(z, 1)", lambda: np.cumprod(Z, 1)),
    ("z.cumprod(0)", lambda: np.cumprod(Z, 0)),
    ("sg.cumprod(i, 1)", lambda: np.cumprod(I, 1)),
    ("sg.cummax(x, 2).values", lambda: np.maximum.accumulate(X, 2)),
    ("sg.cummax(x, 0).indices", lambda: _cum_arg(X, 0, True)),
    ("sg.cummin(x, 1).values", lambda: np.minimum.accumulate(X, 1)),
    ("sg.cummin(x, 1).indices", lambda: _cum_arg(X, 1, False)),
    ("sg.cummax(i, 1).indices", lambda: _cum_arg(I.astype(float), 1, True)),
    ("sg.logcumsumexp(x, 2)", lambda: np.logaddexp.accumulate(X, 2)),
    ("sg.diff(x)", lambda: np.diff(X)),
    ("sg.diff(x, n=2, dim=1)", lambda: np.diff(X, 2, 1)),
    ("sg.diff(z, prepend=z[:, :1], append=z)", lambda: np.diff(Z, prepend=Z[:, :1], append=Z)),
    ("sg.diff(b, dim=1)", lambda: np.diff(B, axis=1)),
    ("sg.trapezoid(x)", lambda: np.trapezoid(X)),
    ("sg.trapezoid(x, dx=0.5, dim=1)", lambda: np.trapezoid(X, dx=0.5, axis=1)),
    ("sg.trapz(z, sg.tensor([0.0, 1.0, 3.0, 3.5, 5.0]))",
     lambda: np.trapezoid(Z, np.array([0.0, 1.0, 3.0, 3.5, 5.0]))),
    ("sg.cumulative_trapezoid(x, dx=2.0, dim=0)", lambda: _cumulative_trapezoid(X, 2.0, 0)),
]


def _env(lib):
    return {"sg": lib, "x": lib.tensor(X), "z": lib.tensor(Z), "b": lib.tensor(B),
            "i": lib.tensor(I)}


@pytest.mark.parametrize("expr,want", VALUE_CASES, ids=[c[0] for c in VALUE_CASES])
def test_values_against_numpy(expr, want):
    got = eval(expr, _env(sg))
    expected = want()
    assert got.dtype.np == (np.int64 if expected.dtype.kind == "i" else expected.dtype)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-13, atol=1e-13)


COMPILED_CASES = [c for c, _ in VALUE_CASES if "trapz(" not in c]


def test_compiled_values_equal_eager():
    """Every case above, compiled as one function, gives the eager values (the scans bit for
    bit; trapezoid's sums may round differently: C sums pairwise)."""
    env = _env(sg)
    names = ("x", "z", "b", "i")
    args = [env[n] for n in names]

    def all_cases(*ts):
        local = dict(zip(names, ts), sg=sg)
        return tuple(eval(c, local) for c in COMPILED_CASES)
    compiled = sg.compile(all_cases)(*args)
    for case, eager, got in zip(COMPILED_CASES, all_cases(*args), compiled):
        if "trapezoid" in case:
            np.testing.assert_allclose(np.asarray(got), eager.numpy(), rtol=1e-14, atol=1e-14)
        else:
            np.testing.assert_array_equal(np.asarray(got), eager.numpy(), err_msg=case)


GRAD_CASES = ["sg.cumsum(x, 0)", "x.cumsum(1)", "sg.cumprod(x, 1)", "sg.cumprod(x * z, 0)",
              "sg.cummax(x, 1).values", "sg.cummin(x, 0).values",
              "sg.logcumsumexp(x, 1)", "sg.logcumsumexp(3 * x, 0)", "sg.diff(x, n=2)",
              "sg.diff(x, dim=0, prepend=x[:1] * 2)", "sg.trapezoid(x, dim=0)",
              "sg.trapezoid(x, x[0] ** 2)", "sg.cumulative_trapezoid(x, dx=0.3)",
              "sg.cumulative_trapezoid(x, sg.tensor([0.0, 0.5, 2.0, 2.5, 4.0]), dim=1)"]


def _grad(f, x0, how):
    if how == "compiled":
        return np.asarray(sg.grad(f)(sg.tensor(x0)))
    x = sg.tensor(x0, requires_grad=True)
    f(x).backward()
    return x.grad.numpy()


@pytest.mark.parametrize("expr", GRAD_CASES)
@pytest.mark.parametrize("how", ["eager", "compiled"])
def test_gradients_against_finite_differences(expr, how):
    x0 = RNG.permutation(np.linspace(-2.0, 2.0, 10)).reshape(2, 5)   # no ties (cummin/max)
    z = sg.tensor(Z)
    w = RNG.standard_normal(eval(expr, {"sg": sg, "x": sg.tensor(x0), "z": z}).shape)

    def f(x):
        return (sg.sin(eval(expr, {"sg": sg, "x": x, "z": z})) * sg.tensor(w)).sum()
    np.testing.assert_allclose(_grad(f, x0, how), central_differences(f, x0),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("how", ["eager", "compiled"])
def test_linear_recurrence_primitive(reverse, how):
    """linrec, the recurrence the cumprod/logcumsumexp rules use: y_j = a_j y_{j-1} + b_j
    (from the end if reverse), its value and both gradients."""
    a0, b0 = RNG.standard_normal((2, 6)), RNG.standard_normal((2, 6))
    want = np.zeros_like(b0)
    for row in range(2):
        y = 0.0
        for j in (range(5, -1, -1) if reverse else range(6)):
            y = a0[row, j] * y + b0[row, j]
            want[row, j] = y
    got = apply("linrec", sg.tensor(a0), sg.tensor(b0), axis=1, reverse=reverse)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-14)
    w = sg.tensor(RNG.standard_normal((2, 6)))
    both = np.concatenate([a0, b0])

    def f(ab):
        return (apply("linrec", ab[:2], ab[2:], axis=1, reverse=reverse) * w).sum()
    np.testing.assert_allclose(_grad(f, both, how), central_differences(f, both),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("shape,axis", [((37, 50), 1), ((50, 21), 0), ((3, 19, 11), 2)])
@pytest.mark.parametrize("kind", ["cumsum", "cumprod", "linrec", "linrec reverse"])
def test_rows_run_side_by_side_give_numpys_bits(shape, axis, kind):
    """A running sum, product or recurrence over many rows runs LANES rows side by side
    (codegen.c.cumulative), then the rows left over: each row still in its own order, so
    NumPy's sequential accumulate gives the same bits (37 rows: 32 in runs, 5 after)."""
    from symgrad.codegen.c import cumulative
    a = RNG.uniform(0.5, 1.5, shape)
    b = RNG.standard_normal(shape)
    if kind == "cumsum":
        f, want = (lambda a, b: sg.cumsum(a, axis)), np.cumsum(a, axis)
    elif kind == "cumprod":
        f, want = (lambda a, b: sg.cumprod(a, axis)), np.cumprod(a, axis)
    else:
        reverse = kind.endswith("reverse")
        f = lambda a, b: apply("linrec", a, b, axis=axis, reverse=reverse)   # noqa: E731
        am, bm = np.moveaxis(a, axis, -1), np.moveaxis(b, axis, -1)
        out = np.zeros_like(bm)
        y = np.zeros(am.shape[:-1])
        for j in (range(am.shape[-1] - 1, -1, -1) if reverse else range(am.shape[-1])):
            y = am[..., j] * y + bm[..., j]
            out[..., j] = y
        want = np.moveaxis(out, -1, axis)
    cf = sg.compile(f)
    got = np.asarray(cf(a, b))
    np.testing.assert_array_equal(got.view(np.int64), want.view(np.int64))
    assert f"acc[{cumulative.LANES}]" in cf.c_source


def test_cumprod_second_derivative_with_zeros_is_torchs():
    """With zeros in the input (one and two of them), d/dx cumprod needs no division: the
    first and second derivatives equal torch's, and the second equals finite differences of
    the first."""
    torch = pytest.importorskip("torch")
    for x0 in ([1.0, 2.0, 0.0, 3.0, 0.0], [0.5, 0.0, -2.0, 1.5], [2.0, 3.0, 0.0]):
        results = []
        for lib in (torch, sg):
            x = lib.tensor(x0, dtype=lib.float64, requires_grad=True)
            y = lib.cumprod(x, 0) * lib.arange(1.0, len(x0) + 1, dtype=lib.float64)
            (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
            (h,) = lib.autograd.grad((g * g).sum(), x)
            results.append((g.detach().numpy(), h.numpy()))
        (tg, th), (sg_g, sg_h) = results
        np.testing.assert_allclose(sg_g, tg, rtol=1e-14)
        np.testing.assert_allclose(sg_h, th, rtol=1e-14)


def test_second_derivatives_against_finite_differences():
    """The gradient of each rule is itself differentiable: d/dx of sum(g^2) for cumprod,
    logcumsumexp and cummax, against central differences of the first derivative."""
    x0 = np.array([[0.3, -1.2, 0.0, 2.0, 0.7], [1.1, 0.4, -0.6, 0.0, -2.0]])
    for fn in (lambda x: sg.cumprod(x, 1), lambda x: sg.logcumsumexp(x, 1),
               lambda x: sg.cummax(x, 0).values ** 3, lambda x: sg.cumsum(x * x, 1)):
        def first(x, fn=fn):
            y = fn(x) * sg.tensor(np.arange(1.0, 11.0).reshape(2, 5))
            (g,) = sg.autograd.grad(y.sum(), x, create_graph=True)
            return g

        def energy(x, first=first):
            x = x.detach().requires_grad_()
            return (first(x) ** 2).sum()
        x = sg.tensor(x0, requires_grad=True)
        (h,) = sg.autograd.grad((first(x) ** 2).sum(), x)
        np.testing.assert_allclose(h.numpy(), central_differences(energy, x0),
                                   rtol=1e-6, atol=1e-7)


TORCH_CASES = [
    ("torch.cumsum(x, 1)", "CumsumBackward0"), ("x.cumsum(0)", "CumsumBackward0"),
    ("torch.cumprod(x, 1)", "CumprodBackward0"), ("torch.cumprod(z, 0)", "CumprodBackward0"),
    ("torch.cummax(x, 1).values", "CummaxBackward0"),
    ("torch.cummin(x, 0).values", "CumminBackward0"),
    ("torch.logcumsumexp(x, 1)", "LogcumsumexpBackward0"),
    ("torch.diff(x, dim=0)", "SubBackward0"),
    ("torch.cumulative_trapezoid(x)", "CumsumBackward0"),
    ("torch.cumsum(x[0, 0, 0], 0)", "CumsumBackward0"),
    ("torch.cummax(x[0, 0, 0], 0).values", "CummaxBackward0"),
]


@pytest.mark.parametrize("expr,name", TORCH_CASES, ids=[c[0] for c in TORCH_CASES])
def test_values_gradients_and_grad_fns_match_torch(expr, name):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (torch, sg):
        env = {"torch": lib, "x": lib.tensor(X, requires_grad=True),
               "z": lib.tensor(Z, requires_grad=True)}
        out = eval(expr, env)
        (out * out).sum().backward()
        results.append((out.detach().numpy(), env["x"].grad, env["z"].grad,
                        type(out.grad_fn).__name__))
    (a, ga, za, na), (b, gb, zb, nb) = results
    np.testing.assert_allclose(b, a, rtol=1e-13)
    for p, q in ((ga, gb), (za, zb)):
        assert (p is None) == (q is None)
        if p is not None:
            np.testing.assert_allclose(q.numpy(), p.numpy(), rtol=1e-12, atol=1e-12)
    assert na == nb == name


def test_float32_scans_round_like_torch_eager_and_compiled():
    """torch accumulates float32 scans in double: so do NumPy (eager) and the C loop, so the
    results are torch's to the bit (a float32 running sum would differ)."""
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(1).standard_normal(20000).astype(np.float32)
    p = (1 + x[:2000] * 0.01).astype(np.float32)
    want = [torch.cumsum(torch.tensor(x), 0).numpy(), torch.cumprod(torch.tensor(p), 0).numpy(),
            torch.logcumsumexp(torch.tensor(x[:3000]), 0).numpy()]

    def scans(a, b):
        return sg.cumsum(a, 0), sg.cumprod(b, 0), sg.logcumsumexp(a[:3000], 0)
    for got in (scans(sg.tensor(x), sg.tensor(p)), sg.compile(scans)(sg.tensor(x),
                                                                    sg.tensor(p))):
        for g, w in zip(got, want):
            np.testing.assert_array_equal(np.asarray(g), w)


def test_nan_and_ties_in_cummax_and_cummin_follow_torch():
    torch = pytest.importorskip("torch")
    v = [2.0, 1.0, 1.0, float("nan"), 0.0, float("nan"), 5.0, 5.0]
    for name in ("cummax", "cummin"):
        want = getattr(torch, name)(torch.tensor(v), 0)
        for got in (getattr(sg, name)(sg.tensor(v), 0),
                    sg.compile(lambda t, n=name: tuple(getattr(sg, n)(t, 0)))(sg.tensor(v))):
            np.testing.assert_array_equal(np.asarray(got[0]), want.values.numpy())
            np.testing.assert_array_equal(np.asarray(got[1]), want.indices.numpy())


def test_a_million_element_scan_compiles_to_one_loop():
    """Compiled cumsum/cumprod are one sequential C loop each, and their gradients' graphs do
    not grow with n (a composition of shifted adds would be O(n log n) work in log n
    kernels; a masked matrix product O(n^2))."""
    n = 1_000_000
    x0 = 1 + np.random.default_rng(2).standard_normal(n) * 1e-6
    f = sg.compile(lambda x: (sg.cumsum(x, 0), sg.cumprod(x, 0)))
    s, p = f(sg.tensor(x0))
    np.testing.assert_allclose(s, np.cumsum(x0), rtol=1e-12)
    np.testing.assert_allclose(p, np.cumprod(x0), rtol=1e-10)
    c = sg.inspect(lambda x: sg.cumprod(x, 0).sum(), sg.tensor(x0), print_=False).c_source
    assert "cumprod along axis 0" in c

    def gradient_nodes(m):
        g = sg.inspect(sg.grad(lambda x: (sg.cumprod(x, 0) * sg.cumsum(x, 0)).sum()),
                       sg.tensor(np.ones(m)), print_=False)
        return len(g.optimized_graph.nodes())
    assert gradient_nodes(10) == gradient_nodes(100_000)


def test_in_place_scans():
    x = sg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    x.cumsum_(1)
    np.testing.assert_array_equal(x.numpy(), np.cumsum([[1, 2, 3], [4, 5, 6]], 1))
    x.cumprod_(dim=0)
    np.testing.assert_array_equal(x.numpy(), [[1, 3, 6], [4, 27, 90]])


def test_errors_name_the_problem():
    x = sg.tensor(X)
    with pytest.raises(TypeError, match="missing.*dim"):
        sg.cumsum(x)
    with pytest.raises(IndexError, match="dim 3 is out of range"):
        x.cumprod(3)
    with pytest.raises(NotImplementedError,
                       match="\"logcumsumexp_out_cpu\" not implemented for 'Long'"):   # torch's
        sg.logcumsumexp(sg.tensor(I), 0)
    with pytest.raises(RuntimeError, match="prepend has 1 dims, input 3"):
        sg.diff(x, prepend=sg.tensor([1.0]))
    with pytest.raises(RuntimeError, match="one `x` value for each sample point"):
        sg.trapezoid(x, sg.tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="either x or dx"):
        sg.cumulative_trapezoid(x, sg.tensor([1.0, 2.0]), dx=1.0)
