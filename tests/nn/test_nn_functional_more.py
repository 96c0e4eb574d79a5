"""The activations, losses and distances of ``nn_cases_more.py``: values against NumPy
references written from each function's definition; gradients in float64, eager and compiled
(one compiled function per group: the sum of every case's contracted loss), against central
differences of the reference; eager second derivatives of the smooth ones against central
differences of the gradient; and, where torch is installed, values, gradients, second
derivatives and grad_fn names against torch in float32 and float64.
"""

from __future__ import annotations

import functools
import warnings
import zlib

import numpy as np
import pytest
from nn_cases_more import ALL, GROUPS

import symgrad as sg

F64, F32 = np.float64, np.float32


def by_id(cases):
    return pytest.mark.parametrize("case", cases, ids=[c.id for c in cases])


def tensors(m, case, args, dtype=F64, grad=True):
    out = []
    for i, a in enumerate(args):
        t = m.tensor(a.astype(dtype) if a.dtype.kind == "f" else a)
        if grad and i in case.diff:
            t.requires_grad_()
        out.append(t)
    return out


def call(m, case, ts):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return case.fn(m, *ts)


def eager_grads(case, args=None, m=sg, dtype=F64):
    ts = tensors(m, case, case.args if args is None else args, dtype)
    out = call(m, case, ts)
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
    ts = tensors(m, case, case.args)
    out = call(m, case, ts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (out * m.tensor(case.weight)).sum().backward(create_graph=True)
    grads = [ts[i].grad for i in case.diff]
    for i in case.diff:
        ts[i].grad = None
    total = sum((g * m.tensor(v)).sum() for g, v in zip(grads, direction(case)))
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


# ---------------------------------------------------------------- torch-free

@by_id(ALL)
def test_value_matches_numpy(case):
    expected = np.asarray(case.ref(*case.args))
    for dtype, tol in ((F64, 1e-12), (F32, 2e-6)):
        out = call(sg, case, tensors(sg, case, case.args, dtype, grad=False))
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
def compiled(group):
    """One compiled value-and-gradient of the group's summed losses."""
    cases, loss, diff, rest = _group_loss(group)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value, grads = sg.value_and_grad(loss)(diff, rest)
    return float(value), {c.id: list(g) for c, g in zip(cases, grads)}


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_compiled_value_matches_numpy(group):
    expected = sum(float((np.asarray(c.ref(*c.args)) * c.weight).sum()) for c in GROUPS[group])
    np.testing.assert_allclose(compiled(group)[0], expected, rtol=1e-12)


@by_id(ALL)
def test_compiled_grad_matches_finite_differences(case):
    assert_close(compiled(case.group)[1][case.id], fd_grads(case), 1e-6, 1e-7, "grad")


SECOND = [c for c in ALL if c.second]


@by_id(SECOND)
def test_eager_second_derivative_matches_finite_differences(case):
    assert_close(eager_hvp(case), fd_hvp(case), 1e-5, 1e-6, "hvp")


# ---------------------------------------------------------------- against torch

@by_id(ALL)
@pytest.mark.parametrize("dtype", [F32, F64], ids=["float32", "float64"])
def test_values_and_grads_match_torch(case, dtype):
    torch = pytest.importorskip("torch")
    mine = call(sg, case, tensors(sg, case, case.args, dtype))
    theirs = call(torch, case, tensors(torch, case, case.args, dtype))
    assert str(mine.dtype) == str(theirs.dtype)
    tol = 1e-5 if dtype is F32 else 1e-12
    np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=tol,
                               atol=tol)
    assert_close(eager_grads(case, dtype=dtype), eager_grads(case, m=torch, dtype=dtype),
                 tol * 10, tol, "grad")


# torch has no derivative of _pdist_backward (symgrad's pdist gradient is differentiable)
@by_id([c for c in SECOND if not c.id.startswith("pdist")])
def test_second_derivatives_match_torch(case):
    torch = pytest.importorskip("torch")
    assert_close(eager_hvp(case), eager_hvp(case, torch), 1e-10, 1e-11, "hvp")


@by_id(ALL)
def test_grad_fn_names_match_torch(case):
    torch = pytest.importorskip("torch")
    mine = call(sg, case, tensors(sg, case, case.args))
    theirs = call(torch, case, tensors(torch, case, case.args))
    assert (mine.grad_fn is None) == (theirs.grad_fn is None)
    if theirs.grad_fn is not None:
        assert mine.grad_fn.name() == theirs.grad_fn.name()
