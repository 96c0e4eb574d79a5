"""nn.functional, case by case (``nn_cases.py``): values against NumPy references written from
each function's definition; gradients (eager, and compiled with ``symgrad.grad``) against
central finite differences in float64 of the contracted reference ``sum(w * f(args))``; second
derivatives (eager double backward through ``backward(create_graph=True)``, and compiled
``grad`` of ``grad``) against central differences of the gradient; and, where torch is
installed, values, gradients, second derivatives and grad_fn names against torch in float32
and float64.

Compiling costs a few tenths of a second, so the compiled checks of a group share one compiled
function (the sum of every case's contracted loss; each case has its own inputs, so the
gradient with respect to them is its own).
"""

from __future__ import annotations

import functools
import warnings
import zlib

import numpy as np
import pytest
from nn_cases import ALL, GROUPS

import symgrad as sg

F64, F32 = np.float64, np.float32


def by_id(cases):
    return pytest.mark.parametrize("case", cases, ids=[c.id for c in cases])


def _tensors(m, case, args, dtype=F64, grad=True):
    out = []
    for i, a in enumerate(args):
        a = a.astype(dtype) if a.dtype.kind == "f" else a
        t = m.tensor(a)
        if grad and i in case.diff:
            t.requires_grad_()
        out.append(t)
    return out


def _call(m, case, ts):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # kl_div's 'mean' and size warnings
        return case.fn(m, *ts)


def eager_grads(case, args=None, m=sg, dtype=F64):
    ts = _tensors(m, case, case.args if args is None else args, dtype)
    out = _call(m, case, ts)
    (out * m.tensor(case.weight.astype(dtype))).sum().backward()
    return [ts[i].grad.detach().numpy().astype(F64) for i in case.diff]


def fd_grads(case, eps=1e-6):
    """Central differences of the NumPy reference's contracted loss."""
    def loss(args):
        return float((np.asarray(case.ref(*args)) * case.weight).sum())
    grads = []
    for i in case.diff:
        g = np.zeros_like(case.args[i])
        for j in np.ndindex(g.shape):
            args = [a.copy() for a in case.args]
            args[i][j] += eps
            up = loss(args)
            args[i][j] -= 2 * eps
            g[j] = (up - loss(args)) / (2 * eps)
        grads.append(g)
    return grads


def direction(case):
    r = np.random.default_rng(zlib.crc32(b"v" + case.id.encode()))
    return [r.standard_normal(case.args[i].shape) for i in case.diff]


def eager_hvp(case, m=sg):
    """d/dx (grad(x) . v) by double backward through backward(create_graph=True)."""
    ts = _tensors(m, case, case.args)
    out = _call(m, case, ts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # torch's note on create_graph and .grad cycles
        (out * m.tensor(case.weight)).sum().backward(create_graph=True)
    grads = [ts[i].grad for i in case.diff]
    for i in case.diff:
        ts[i].grad = None
    total = sum((g * m.tensor(v)).sum() for g, v in zip(grads, direction(case)))
    if not total.requires_grad:        # a piecewise-linear function: the Hessian is 0
        return [np.zeros_like(case.args[i]) for i in case.diff]
    total.backward()
    return [np.zeros_like(case.args[i]) if ts[i].grad is None
            else ts[i].grad.detach().numpy() for i in case.diff]


def fd_hvp(case, eps=1e-5):
    def shifted(sign):
        args = [a.copy() for a in case.args]
        for i, v in zip(case.diff, direction(case)):
            args[i] = args[i] + sign * eps * v
        return eager_grads(case, args)
    return [(p - q) / (2 * eps) for p, q in zip(shifted(1), shifted(-1))]


def assert_close(actual, expected, rtol, atol, what=""):
    assert len(actual) == len(expected)
    for k, (a, e) in enumerate(zip(actual, expected)):
        a = np.asarray(a)
        assert a.shape == np.shape(e), f"{what}[{k}]: shape {a.shape} != {np.shape(e)}"
        np.testing.assert_allclose(a, e, rtol=rtol, atol=atol, err_msg=f"{what}[{k}]")


# ---------------------------------------------------------------- values and gradients

@by_id(ALL)
def test_value_matches_numpy(case):
    expected = np.asarray(case.ref(*case.args))
    for dtype, tol in ((F64, 1e-12), (F32, 2e-6)):
        out = _call(sg, case, _tensors(sg, case, case.args, dtype, grad=False))
        assert out.dtype is (sg.float64 if dtype is F64 else sg.float32)
        np.testing.assert_allclose(out.numpy(), expected, rtol=tol * 10, atol=tol)


@by_id(ALL)
def test_eager_grad_matches_finite_differences(case):
    assert_close(eager_grads(case), fd_grads(case), 1e-6, 1e-7, "grad")


def _group_loss(group):
    cases = GROUPS[group]

    def loss(diff, rest):
        total = 0.0
        for c, d, r in zip(cases, diff, rest):
            it_d, it_r = iter(d), iter(r)
            args = [next(it_d) if i in c.diff else next(it_r) for i in range(len(c.args))]
            total = total + (c.fn(sg, *args) * c.weight).sum()
        return total
    loss.__name__ = f"loss_{group}"
    diff = [[c.args[i] for i in c.diff] for c in cases]
    rest = [[a for i, a in enumerate(c.args) if i not in c.diff] for c in cases]
    return cases, loss, diff, rest


@functools.cache
def compiled_grads(group):
    cases, loss, diff, rest = _group_loss(group)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        grads = sg.grad(loss)(diff, rest)
    return {c.id: list(g) for c, g in zip(cases, grads)}


@functools.cache
def compiled_hvps(group):
    cases, loss, diff, rest = _group_loss(group)
    grad_loss = sg.grad(loss)
    vs = {c.id: direction(c) for c in cases}

    def directional(d, r):
        total = 0.0
        for c, gs in zip(cases, grad_loss(d, r)):
            for g, v in zip(gs, vs[c.id]):
                total = total + (g * v).sum()
        return total
    directional.__name__ = f"hvp_{group}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hv = sg.grad(directional)(diff, rest)
    return {c.id: list(h) for c, h in zip(cases, hv)}


@by_id(ALL)
def test_compiled_grad_matches_finite_differences(case):
    assert_close(compiled_grads(case.group)[case.id], fd_grads(case), 1e-6, 1e-7, "grad")


SECOND = [c for c in ALL if c.second]


@by_id(SECOND)
def test_eager_second_derivative_matches_finite_differences(case):
    assert_close(eager_hvp(case), fd_hvp(case), 1e-5, 1e-6, "hvp")


@by_id(SECOND)
def test_compiled_second_derivative_matches_finite_differences(case):
    assert_close(compiled_hvps(case.group)[case.id], fd_hvp(case), 1e-5, 1e-6, "hvp")


# ---------------------------------------------------------------- against torch

@by_id(ALL)
@pytest.mark.parametrize("dtype", [F32, F64], ids=["float32", "float64"])
def test_values_and_grads_match_torch(case, dtype):
    torch = pytest.importorskip("torch")
    mine = _call(sg, case, _tensors(sg, case, case.args, dtype))
    theirs = _call(torch, case, _tensors(torch, case, case.args, dtype))
    tol = 1e-5 if dtype is F32 else 1e-12
    np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=tol,
                               atol=tol)
    assert_close(eager_grads(case, dtype=dtype), eager_grads(case, m=torch, dtype=dtype),
                 tol * 10, tol, "grad")


@by_id(SECOND)
def test_second_derivatives_match_torch(case):
    torch = pytest.importorskip("torch")
    assert_close(eager_hvp(case), eager_hvp(case, torch), 1e-10, 1e-11, "hvp")


# torch's circular pad is Python slicing (its grad_fn, CopySlices, is an implementation detail)
@by_id([c for c in ALL if c.id != "pad_circular"])
def test_grad_fn_names_match_torch(case):
    torch = pytest.importorskip("torch")
    mine = _call(sg, case, _tensors(sg, case, case.args))
    theirs = _call(torch, case, _tensors(torch, case, case.args))
    assert (mine.grad_fn is None) == (theirs.grad_fn is None)
    if theirs.grad_fn is not None:
        assert mine.grad_fn.name() == theirs.grad_fn.name()
