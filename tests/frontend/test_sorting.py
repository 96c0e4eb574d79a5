"""sort/argsort/topk/kthvalue/median against NumPy (stable order, NaN last ascending and
first descending), gradients flowing back to the positions the values came from, the clear
error inside compiled code, and torch's results when installed (ties excepted where torch
does not specify the indices)."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg

X = np.array([[3.0, 1.0, np.nan, 2.0, 1.0], [0.0, -1.0, 5.0, 5.0, 2.0]])


def test_sort_and_argsort_against_numpy():
    x = sg.tensor(X)
    values, indices = x.sort()
    np.testing.assert_array_equal(values.numpy(), np.sort(X, axis=-1))
    np.testing.assert_array_equal(indices.numpy(), np.argsort(X, axis=-1, kind="stable"))
    np.testing.assert_array_equal(sg.argsort(x, 0).numpy(), np.argsort(X, 0, kind="stable"))
    desc = x.sort(descending=True).values.numpy()
    assert np.isnan(desc[0, 0]) and desc[0, 1:].tolist() == [3.0, 2.0, 1.0, 1.0]
    assert desc[1].tolist() == [5.0, 5.0, 2.0, 0.0, -1.0]


def test_topk_kthvalue_median():
    y = sg.tensor(X[:, [0, 1, 3, 4]])   # no NaN
    Y = X[:, [0, 1, 3, 4]]
    np.testing.assert_array_equal(y.topk(2).values.numpy(), -np.sort(-Y, axis=1)[:, :2])
    np.testing.assert_array_equal(y.topk(2, largest=False).values.numpy(),
                                  np.sort(Y, axis=1)[:, :2])
    np.testing.assert_array_equal(y.kthvalue(3).values.numpy(), np.sort(Y, axis=1)[:, 2])
    # torch's median is the lower middle element, not NumPy's mean of the two
    assert y.median().item() == np.sort(Y.ravel())[(Y.size - 1) // 2]
    np.testing.assert_array_equal(y.median(1).values.numpy(), np.sort(Y, axis=1)[:, 1])
    with pytest.raises(RuntimeError, match="out of range"):
        y.topk(5)


def test_gradient_goes_back_to_where_values_came_from():
    x = sg.tensor([3.0, 1.0, 2.0], requires_grad=True)
    values, _ = x.sort(descending=True)
    (values * sg.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert x.grad.tolist() == [1.0, 100.0, 10.0]
    x.grad = None
    x.topk(1).values.sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 0.0]


def test_mode_compiles():
    # sort, topk, kthvalue, median compile (tests/frontend/test_compiled_sorting.py); mode too
    # (tests/frontend/test_compiled_mode.py)
    assert sg.compile(lambda a: a.mode().values.sum())(sg.tensor([2.0, 1.0, 2.0])) == 2.0


def test_results_print_as_torch_return_types():
    r = sg.tensor([3.0, 1.0]).sort()
    assert repr(r).startswith("torch.return_types.sort(\nvalues=tensor([1., 3.]),\n")
    values, indices = r
    assert r.values is values and r.indices is indices


@pytest.mark.parametrize("expr", ["x.sort()", "x.sort(descending=True)", "x.sort(0)",
                                  "x.argsort(1)", "x.topk(3, largest=False)",
                                  "x.kthvalue(1, 0, True)", "y.median()", "y.median(1)",
                                  "y.topk(2)", "y.kthvalue(3)"])
def test_matches_torch(expr):
    torch = pytest.importorskip("torch")
    Y = np.array([[3.0, 1.5, 2.0, 1.0], [0.0, -1.0, 5.0, 2.0]])   # no ties: defined indices
    a = eval(expr, {"x": torch.tensor(X), "y": torch.tensor(Y)})
    b = eval(expr, {"x": sg.tensor(X), "y": sg.tensor(Y)})
    for p, q in zip(a if isinstance(a, tuple) else (a,), b if isinstance(b, tuple) else (b,)):
        assert np.array_equal(p.numpy(), q.numpy(), equal_nan=True)
