"""In-place arithmetic under no_grad written straight into the tensor's array (an optimizer's
``p -= lr * p.grad``): the same bits as NumPy's out-of-place result, the version counter
bumped, memory shared with NumPy and views updated as by the general path."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg

OPS = {"add_": np.add, "sub_": np.subtract, "mul_": np.multiply}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(OPS))
def test_the_bits_of_numpy_s_result(name, dtype):
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((7, 5)).astype(dtype) for _ in range(2))
    p = sg.tensor(a.copy(), requires_grad=True)
    with sg.no_grad():
        getattr(p, name)(sg.tensor(b))
    assert p.dtype == sg.float32 if dtype is np.float32 else p.dtype == sg.float64
    np.testing.assert_array_equal(p.detach().numpy(), OPS[name](a, b))
    assert p.is_leaf and p.requires_grad and p.grad_fn is None


def test_the_operators_and_the_version_counter():
    x = sg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a = x * 2.0
    y = (a * a).sum()          # saves a
    v = a._version
    with sg.no_grad():
        a -= sg.tensor([0.5, 0.5, 0.5])
        a += sg.tensor([1.0, 1.0, 1.0])
        a *= sg.tensor([2.0, 2.0, 2.0])
    assert a._version == v + 3
    np.testing.assert_array_equal(a.detach().numpy(), np.array([5.0, 9.0, 13.0], np.float32))
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_numpy_memory_and_views_see_the_update():
    arr = np.arange(6, dtype=np.float64)
    t = sg.from_numpy(arr)
    with sg.no_grad():
        t -= sg.ones(6, dtype=sg.float64)
    np.testing.assert_array_equal(arr, np.arange(6) - 1.0)
    base = sg.zeros(2, 3)
    row = base[0]
    with sg.no_grad():
        base += sg.ones(2, 3)        # a tensor with a live view: the view shows the update
        row += sg.ones(3)            # a view: its base shows it
    np.testing.assert_array_equal(row.numpy(), np.full(3, 2.0, np.float32))
    np.testing.assert_array_equal(base.numpy(), np.array([[2, 2, 2], [1, 1, 1]], np.float32))


def test_what_it_does_not_take_goes_the_general_way():
    p = sg.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        p -= sg.ones(3)                 # grad mode on: torch's error
    q = sg.ones(3, dtype=sg.float64)
    with sg.no_grad():
        q -= sg.ones(3)                 # another dtype: promoted and cast back
        q += 1                          # a Python number
    np.testing.assert_array_equal(q.numpy(), np.ones(3))
    i = sg.ones(3, dtype=sg.int64)
    with pytest.raises(RuntimeError, match="can't be cast"):
        with sg.no_grad():
            i -= sg.ones(3)


def test_a_tensor_whose_views_died_is_written_directly_again(monkeypatch):
    """The weight a step transposed (``w.t()`` in a backward) keeps references to the dead
    views until they are dropped: its update must not take the general path for ever."""
    from symgrad.frontend.functions import inplace
    w = sg.ones(4, 3, requires_grad=True)
    (w.t() * 2.0).sum().backward()          # views of w, dead once the step is over
    assert w._views                         # (the dead references are still listed)
    general = []
    monkeypatch.setattr(inplace, "update", lambda *a: general.append(a))
    with sg.no_grad():
        w -= 0.5 * w.grad
    assert general == [] and w._views is None
    np.testing.assert_array_equal(w.detach().numpy(), np.zeros((4, 3), np.float32))
    alive = w.t()                           # a live view: the general path, which updates it
    monkeypatch.undo()
    with sg.no_grad():
        w += sg.ones(4, 3)
    np.testing.assert_array_equal(alive.detach().numpy(), np.ones((3, 4), np.float32))
