"""A broadcast array that becomes a constant of a trace (the index of a flip, of an index
along one dim, expanded to the operand's shape) is held as its distinct elements and an
``expand``: a flip of a (300, 40) tensor holds 300 indices, not 12,000; the values, the
gradient and a sparse Jacobian's exact pattern through it are unchanged."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg


def _consts(ir: str) -> list[str]:
    return [line.split("=")[0].split(":")[1].strip() for line in ir.splitlines()
            if "= const" in line]


def test_a_flip_holds_one_index_per_position():
    x = np.arange(12000.0).reshape(300, 40)
    f = sg.compile(lambda x: x.flip(0) * 2 + x[:, [3, 1, 2]].sum(1, keepdim=True))
    np.testing.assert_array_equal(f(x), x[::-1] * 2 + x[:, [3, 1, 2]].sum(1, keepdims=True))
    shapes = _consts(sg.inspect(f, x, print_=False).optimized_ir)
    assert "i64[300,1]" in shapes and not any(s.startswith("i64[300,40]") for s in shapes)
    w = np.random.default_rng(0).normal(size=40)
    g = sg.grad(lambda x: (x.flip(1) * sg.tensor(w)).sum())(x)
    np.testing.assert_array_equal(g, np.broadcast_to(w[::-1], x.shape))


def test_sparse_jacobian_through_a_flip_is_a_permutation():
    pytest.importorskip("scipy")
    x = np.random.default_rng(1).normal(size=(20, 8))
    J = sg.sparse.jacobian(lambda x: (x.flip(0) * 3).reshape(-1))(x)
    want = np.zeros((160, 160))
    want[np.arange(160), np.arange(160).reshape(20, 8)[::-1].ravel()] = 3.0
    assert J.nnz == 160
    np.testing.assert_array_equal(J.toarray(), want)
