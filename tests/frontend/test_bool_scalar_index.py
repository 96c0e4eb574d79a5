"""A 0-d boolean index (``x[False]``, ``x[0, True]``, ``x[tensor(False)]``) is a new dim of size
1 or 0 that broadcasts with the other index arrays, and integers select before the arrays
index, as torch's indexing does: reading, gradients and assignment, against shapes and NumPy
equivalents written down from torch 2.13 and, when it is installed, against torch itself."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg

X = np.arange(24.0).reshape(2, 3, 4)
S = slice(None)

# (name, index with "T"/"F" for tensor(True)/tensor(False), torch's shape, a NumPy equivalent)
CASES = [
    ("False", False, [0, 2, 3, 4], lambda x: x[None][[]]),
    ("True", True, [1, 2, 3, 4], lambda x: x[None]),
    ("tensor False", "F", [0, 2, 3, 4], lambda x: x[None][[]]),
    ("tensor True", "T", [1, 2, 3, 4], lambda x: x[None]),
    ("int True", (0, True), [1, 3, 4], lambda x: x[0][None]),
    ("int False", (0, False), [0, 3, 4], lambda x: x[0][None][[]]),
    ("ellipsis False", (Ellipsis, False), [2, 3, 4, 0], lambda x: x[..., None][..., []]),
    ("ellipsis True", (Ellipsis, True), [2, 3, 4, 1], lambda x: x[..., None]),
    ("list True", ([0, 1], True), [2, 3, 4], lambda x: x[[0, 1]]),
    ("True list", (True, [1, 0]), [2, 3, 4], lambda x: x[[1, 0]]),
    ("None False", (None, False), [1, 0, 2, 3, 4], lambda x: x[None, None][:, []]),
    ("int slice False", (1, S, False), [3, 0, 4], lambda x: x[1][:, None][:, []]),
    ("True True", (True, True), [1, 2, 3, 4], lambda x: x[None]),
    ("int slice list", (0, S, [0, 1]), [3, 2], lambda x: x[0][:, [0, 1]]),
    ("slice int list", (S, 0, [1, 3]), [2, 2], lambda x: x[:, 0][:, [1, 3]]),
]


def _index(lib, index):
    items = index if isinstance(index, tuple) else (index,)
    made = tuple(lib.tensor(i == "T") if i in ("T", "F") else i for i in items)
    return made if isinstance(index, tuple) else made[0]


@pytest.mark.parametrize("name,index,shape,equivalent", CASES, ids=[c[0] for c in CASES])
def test_read_grad_and_write(name, index, shape, equivalent):
    x = sg.tensor(X, requires_grad=True)
    out = x[_index(sg, index)]
    want = equivalent(X)
    assert list(out.shape) == shape == list(want.shape)
    np.testing.assert_array_equal(out.detach().numpy(), want)
    weights = np.arange(1.0, out.numel() + 1).reshape(out.shape)
    (out * sg.tensor(weights)).sum().backward()
    seen = np.zeros_like(X)   # the gradient: each read element's weight, by hand
    flat = seen.reshape(-1)
    np.add.at(flat, equivalent(_positions()).astype(int).ravel(), weights.ravel())
    np.testing.assert_array_equal(x.grad.numpy(), seen)
    y = sg.tensor(X)
    y[_index(sg, index)] = -1.0
    written = X.copy().reshape(-1)
    written[equivalent(_positions()).astype(int).ravel()] = -1.0
    np.testing.assert_array_equal(y.numpy(), written.reshape(X.shape))


def _positions():
    return np.arange(X.size, dtype=np.float64).reshape(X.shape)


def test_mismatched_broadcast_is_torch_index_error():
    with pytest.raises(IndexError, match="shape mismatch"):
        sg.tensor(X)[[0, 1], False]


@pytest.mark.parametrize("name,index,shape,equivalent", CASES, ids=[c[0] for c in CASES])
def test_against_torch(name, index, shape, equivalent):
    torch = pytest.importorskip("torch")
    got, want = [], []
    for lib, into in ((sg, got), (torch, want)):
        x = lib.tensor(X, requires_grad=True)
        out = x[_index(lib, index)]
        (out * lib.arange(out.numel(), dtype=out.dtype).reshape(out.shape)).sum().backward()
        y = lib.tensor(X)
        y[_index(lib, index)] = 5.0
        into += [list(out.shape), out.detach().numpy(), x.grad.numpy(), y.numpy()]
    assert got[0] == want[0] == shape
    for a, b in zip(got[1:], want[1:]):
        np.testing.assert_array_equal(a, b)
