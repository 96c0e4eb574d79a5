"""var, std, var_mean, std_mean, nansum, nanmean, count_nonzero, aminmax, dist, cdist, cov,
corrcoef: values against NumPy, gradients against central finite differences (eagerly and
compiled), torch's values, gradients, grad_fn names and second derivatives, and torch's
warnings and errors."""

from __future__ import annotations

import itertools
import re
import warnings

import numpy as np
import pytest

import symgrad as sg
from references import central_differences, gradient

RNG = np.random.default_rng(11)
X = RNG.standard_normal((3, 4, 5))
M = RNG.standard_normal((3, 6))
A = RNG.standard_normal((4, 3))
B = RNG.standard_normal((5, 3))
N = np.where(RNG.random((3, 4)) < 0.3, np.nan, RNG.standard_normal((3, 4)))
N[2] = np.nan                                      # a row with no numbers at all
FW = np.array([1, 2, 1, 3, 1, 2])
AW = RNG.uniform(0.5, 2.0, 6)


def _cdist(a, b, p):
    d = np.abs(a[:, None, :] - b[None, :, :])
    if p == np.inf:
        return d.max(-1)
    if p == 0:
        return (d != 0).sum(-1).astype(float)
    return (d ** p).sum(-1) ** (1 / p)


VALUE_CASES = [
    ("sg.var(x)", lambda: np.var(X, ddof=1)),
    ("x.var(1)", lambda: np.var(X, 1, ddof=1)),
    ("x.var(dim=(0, 2), keepdim=True)", lambda: np.var(X, (0, 2), ddof=1, keepdims=True)),
    ("x.var(1, unbiased=False)", lambda: np.var(X, 1)),
    ("x.var(False)", lambda: np.var(X)),
    ("sg.var(x, 2, correction=2)", lambda: np.var(X, 2, ddof=2)),
    ("x.std()", lambda: np.std(X, ddof=1)),
    ("sg.std(x, -1, keepdim=True, correction=0)", lambda: np.std(X, -1, keepdims=True)),
    ("sg.std(x, axis=[0, 1], keepdims=True)", lambda: np.std(X, (0, 1), ddof=1, keepdims=True)),
    ("sg.var_mean(x, 1)[0]", lambda: np.var(X, 1, ddof=1)),
    ("sg.var_mean(x, 1)[1]", lambda: np.mean(X, 1)),
    ("sg.std_mean(x, correction=0)[0]", lambda: np.std(X)),
    ("sg.std_mean(x, (0, 2))[1]", lambda: np.mean(X, (0, 2))),
    ("sg.nansum(n)", lambda: np.nansum(N)),
    ("n.nansum(1)", lambda: np.nansum(N, 1)),
    ("sg.nanmean(n, 1)", lambda: np.array([np.nanmean(r) if np.isfinite(r).any() else np.nan
                                           for r in N])),
    ("sg.nanmean(n, 0, keepdim=True)", lambda: np.nanmean(N, 0, keepdims=True)),
    ("sg.count_nonzero(x > 0.5, 1)", lambda: np.count_nonzero(X > 0.5, 1)),
    ("sg.count_nonzero(x > 0.5, (0, 2))", lambda: np.count_nonzero(X > 0.5, (0, 2))),
    ("sg.aminmax(x, dim=1).min", lambda: X.min(1)),
    ("sg.aminmax(x).max", lambda: X.max()),
    ("sg.dist(a, a[:1])", lambda: np.linalg.norm((A - A[:1]).ravel())),
    ("sg.dist(a, a * 2, 1)", lambda: np.abs(A).sum()),
    ("sg.dist(a, 0.5, float('inf'))", lambda: np.abs(A - 0.5).max()),
    ("sg.dist(a, a.flip(0), 3)", lambda: (np.abs(A - A[::-1]) ** 3).sum() ** (1 / 3)),
    ("sg.dist(a, a[0], 0)", lambda: float((A != A[0]).sum())),
    ("sg.cdist(a, b)", lambda: _cdist(A, B, 2)),
    ("sg.cdist(a, b, p=1)", lambda: _cdist(A, B, 1)),
    ("sg.cdist(a, b, float('inf'))", lambda: _cdist(A, B, np.inf)),
    ("sg.cdist(a, b, 3.5)", lambda: _cdist(A, B, 3.5)),
    ("sg.cdist(a, b, 0)", lambda: _cdist(A, B, 0)),
    ("sg.cdist(x[:, :2, :3], sg.tensor(b))[1]", lambda: _cdist(X[1, :2, :3], B, 2)),
    ("sg.cov(m)", lambda: np.cov(M)),
    ("sg.cov(m[0])", lambda: np.cov(M[0])),
    ("sg.cov(m, correction=0)", lambda: np.cov(M, bias=True)),
    ("sg.cov(m, fweights=sg.tensor(fw))", lambda: np.cov(M, fweights=FW)),
    ("sg.cov(m, aweights=sg.tensor(aw))", lambda: np.cov(M, aweights=AW)),
    ("sg.cov(m, fweights=sg.tensor(fw), aweights=sg.tensor(aw), correction=0)",
     lambda: np.cov(M, fweights=FW, aweights=AW, bias=True)),
    ("sg.corrcoef(m)", lambda: np.corrcoef(M)),
]


def _env(lib):
    return {"sg": lib, "x": lib.tensor(X), "m": lib.tensor(M), "a": lib.tensor(A),
            "b": B if lib is sg else lib.tensor(B), "n": lib.tensor(N), "fw": FW, "aw": AW}


@pytest.mark.parametrize("expr,want", VALUE_CASES, ids=[c[0] for c in VALUE_CASES])
def test_values_against_numpy(expr, want):
    env = _env(sg)
    env["b"] = sg.tensor(B)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # NumPy's nanmean of a NaN row
        expected = np.asarray(want())
    got = eval(expr, env)
    assert tuple(got.shape) == expected.shape
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12, atol=1e-13)


GRAD_CASES = ["x.var(1)", "sg.var(x, correction=0)", "x.std(0, keepdim=True)",
              "sg.std(x * x, 1, correction=2)", "sg.var_mean(x, 1)[0] * sg.var_mean(x, 1)[1]",
              "sg.std_mean(x)[0] + sg.std_mean(x)[1] ** 2",
              "sg.nansum(sg.where(mask, float('nan'), x), 1)",
              "sg.nanmean(sg.where(mask, float('nan'), x), 0)",
              "sg.aminmax(x, dim=0).max - sg.aminmax(x, dim=0).min ** 2",
              "sg.dist(x, x[1])", "sg.dist(x, x.flip(0), 1)", "sg.dist(x[0], x[1], 3)",
              "sg.dist(x, 0.25, float('inf'))", "sg.cdist(x, x[:2] * 0.5)",
              "sg.cdist(x, x[1:] ** 2, 1)", "sg.cdist(x[:, :3], x[:, 2:], 3)",
              "sg.cov(x)", "sg.cov(x, aweights=x[0] ** 2, correction=0)", "sg.corrcoef(x.t())"]


@pytest.mark.parametrize("expr", GRAD_CASES)
@pytest.mark.parametrize("how", ["eager", "compiled"])
def test_gradients_against_finite_differences(expr, how):
    x0 = np.round(RNG.standard_normal((3, 5)), 2) + 0.001 * np.arange(15).reshape(3, 5)
    mask = sg.tensor(np.arange(15).reshape(3, 5) % 4 == 1)
    env = {"sg": sg, "mask": mask}
    w = RNG.standard_normal(eval(expr, dict(env, x=sg.tensor(x0))).shape)

    def f(x):
        return (sg.sin(eval(expr, dict(env, x=x))) * sg.tensor(w)).sum()
    np.testing.assert_allclose(gradient(f, x0, how), central_differences(f, x0), rtol=1e-6,
                               atol=1e-8)


TORCH_CASES = [
    ("x.var(1)", "VarBackward0"), ("torch.var(x, (0, 2), True, True)", "VarBackward0"),
    ("x.std()", "StdBackward0"), ("torch.std(x, 1, correction=0)", "StdBackward0"),
    ("torch.var_mean(x, 1)[0]", "VarMeanBackward0"),
    ("torch.var_mean(x, 1)[1]", "VarMeanBackward0"),
    ("torch.std_mean(x)[0]", "StdMeanBackward0"), ("torch.std_mean(x)[1]", "StdMeanBackward0"),
    ("torch.nansum(n, 1)", "NansumBackward0"), ("torch.nanmean(n)", "DivBackward0"),
    ("torch.aminmax(x, dim=2).min", "AminmaxBackward0"),
    ("torch.aminmax(x).max", "AminmaxBackward0"),
    ("torch.dist(a, b[:4])", "DistBackward0"), ("torch.dist(a, b[1:], 1.5)", "DistBackward0"),
    ("torch.cdist(a, b)", "CdistBackward0"), ("torch.cdist(a, b, 1)", "CdistBackward0"),
    ("torch.cdist(a, b, 3)", "CdistBackward0"),
    ("torch.cov(m)", None), ("torch.corrcoef(m)", "ClampBackward1"),
]


@pytest.mark.parametrize("expr,name", TORCH_CASES, ids=[c[0] for c in TORCH_CASES])
def test_values_gradients_and_grad_fns_match_torch(expr, name):
    torch = pytest.importorskip("torch")
    results = []
    for lib in (torch, sg):
        env = {k: lib.tensor(v, requires_grad=True) for k, v in
               (("x", X), ("m", M), ("a", A), ("b", B), ("n", N))}
        out = eval(expr, dict(env, torch=lib))
        (out * out).sum().backward()
        results.append((out.detach().numpy(), [env[k].grad for k in sorted(env)],
                        type(out.grad_fn).__name__))
    (a, ga, na), (b, gb, nb) = results
    np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-13)
    for p, q in zip(ga, gb):
        assert (p is None) == (q is None)
        if p is not None:
            np.testing.assert_allclose(q.numpy(), p.numpy(), rtol=1e-10, atol=1e-12)
    if name is not None:
        assert na == nb == name


@pytest.mark.parametrize("expr", ["x.var(1)", "x.std(0)", "torch.dist(x, x.flip(0), 3)",
                                  "torch.dist(x, x.flip(1))", "torch.corrcoef(x)"])
def test_second_derivatives_match_torch(expr):
    torch = pytest.importorskip("torch")
    got = []
    for lib in (torch, sg):
        x = lib.tensor(M[:, :4], requires_grad=True)
        y = eval(expr, {"torch": lib, "x": x})
        (g,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        (h,) = lib.autograd.grad((g * g).sum(), x)
        got.append(h.numpy())
    np.testing.assert_allclose(got[1], got[0], rtol=1e-9, atol=1e-12)


def test_degrees_of_freedom_warn_and_give_torchs_inf_and_nan():
    torch = pytest.importorskip("torch")
    for expr in ("x.var(1, correction=5)", "x[:, :1].var(1)", "x[:, :0].std(1)",
                 "torch.var_mean(x[:, :1], 1)[0]"):
        values = []
        for lib in (torch, sg):
            with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
                values.append(eval(expr, {"torch": lib, "x": lib.tensor(M[:, :4])}).numpy())
        np.testing.assert_array_equal(values[1], values[0])
    x = sg.tensor(M[:1, :1], requires_grad=True)       # one element: torch's NaN gradient
    with pytest.warns(UserWarning):
        x.var().backward()
    assert np.isnan(x.grad.numpy()).all()


def test_std_gradient_is_zero_where_std_is_zero():
    for compiled in (False, True):
        f = lambda x: x.std(1).sum()
        x0 = np.array([[2.0, 2.0, 2.0], [1.0, 2.0, 4.0]])
        if compiled:
            g = np.asarray(sg.grad(f)(sg.tensor(x0)))
        else:
            x = sg.tensor(x0, requires_grad=True)
            f(x).backward()
            g = x.grad.numpy()
        np.testing.assert_array_equal(g[0], 0.0)
        assert np.isfinite(g).all()


def test_distances_have_zero_gradient_at_zero_distance():
    for p in (2, 3, 1):
        x = sg.tensor(A, requires_grad=True)
        (sg.dist(x, A, p) + sg.cdist(x[:1], x[:1].detach(), p).sum()).backward()
        np.testing.assert_array_equal(x.grad.numpy(), 0.0)


def test_compiled_statistics_equal_eager():
    env = _env(sg)
    names = ("x", "m", "a", "n")
    cases = [c for c, _ in VALUE_CASES if not re.search(r"\b(b|fw|aw)\b", c)]

    def run(*ts):
        local = dict(zip(names, ts), sg=sg)
        return tuple(eval(c, local) for c in cases)
    for case, want, got in zip(cases, run(*[env[k] for k in names]),
                               sg.compile(run)(*[env[k] for k in names])):
        np.testing.assert_allclose(np.asarray(got), want.numpy(), rtol=1e-12, atol=1e-13,
                                   err_msg=case)


@pytest.mark.parametrize("call,error,match", [
    ("sg.var(sg.tensor([1, 2]))", RuntimeError, "only support floating point"),
    ("x.var(1, unbiased=True, correction=0)", TypeError, "either unbiased= or correction="),
    ("x.std(3)", IndexError, "dim 3 is out of range"),
    ("sg.nanmean(sg.tensor([1, 2]))", RuntimeError, "floating point"),
    ("sg.aminmax(x[:, :0])", RuntimeError, "empty dimension"),
    ("sg.cdist(x, x[:, :3])", RuntimeError, "same number of columns. X1: 4 X2: 3"),
    ("sg.cdist(x[0], x)", RuntimeError, "at least 2D tensors, X1 got: 1D"),
    ("sg.cdist(x, x, -1.0)", RuntimeError, "non-negative p"),
    ("sg.cov(x, fweights=sg.tensor([1, 2]))", RuntimeError,
     r"fweights to have one dimension of size 4 .* got shape \(2,\)"),
    ("sg.cov(x, fweights=sg.tensor([1.0, 2.0, 1.0, 1.0]))", RuntimeError, "integral dtype"),
    ("sg.cov(sg.zeros(2, 2, 2))", RuntimeError, "two or fewer dimensions"),
])
def test_errors_name_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        eval(call, {"sg": sg, "x": sg.tensor(M[:, :4])})


def test_keyword_spellings_and_methods():
    x = sg.tensor(X)
    for a, b in itertools.combinations([x.var(1, keepdim=True), sg.var(input=x, axis=1,
                                                                          keepdims=True),
                                        x.var(dim=1, unbiased=True, keepdim=True)], 2):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    out = sg.empty(3, 5, dtype=sg.float64)
    sg.std(x, 1, out=out)
    np.testing.assert_allclose(out.numpy(), np.std(X, 1, ddof=1), rtol=1e-13)
