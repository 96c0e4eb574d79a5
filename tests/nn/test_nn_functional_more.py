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

import numpy as np
import pytest
from nn_cases_more import ALL, GROUPS
from test_nn_functional import (_call as call, _tensors as tensors, assert_close, by_id,  # noqa: F401
                                 direction, eager_grads, eager_hvp, fd_grads, fd_hvp)

import symgrad as sg

F64, F32 = np.float64, np.float32


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
