"""Selections of whole rows sunk toward the inputs (passes/sink_gathers.py): ``f(x)[idx]``
computes f on the selected rows only, through products, reshapes, permutes, broadcasts and
``vmap``'s merged rows.

Values against NumPy, derivatives against central differences; the C checked for the sizes
its matrix products run at; an index out of range still an IndexError.
"""

import re

import numpy as np
import pytest

import symgrad as sg

RNG = np.random.default_rng(13)
ROWS = 500


def _verts(w, t, pos):
    """A skinning-like chain: blended transforms per row, applied to each row's position."""
    blended = (w @ t).reshape(-1, 3, 4)
    moved = (blended @ pos[:, :, None])[:, :, 0]
    return sg.sin(moved) * 2.0 + 1.0


def _skinned(w, t, pos, idx):
    return _verts(w, t, pos)[idx]


def _skinned_np(w, t, pos, idx):
    blended = (w @ t).reshape(-1, 3, 4)
    return (np.sin((blended @ pos[:, :, None])[:, :, 0]) * 2.0 + 1.0)[idx]


def _args(n_idx=7):
    return (RNG.normal(size=(ROWS, 6)), RNG.normal(size=(6, 12)), RNG.normal(size=(ROWS, 4)),
            RNG.integers(-ROWS, ROWS, size=n_idx))


def _products(text: str) -> list:
    return re.findall(r"matmul (\[[\d, ]+\]) @", text)


def test_the_selected_rows_are_computed_alone():
    w, t, pos, idx = _args()
    f = sg.compile(_skinned)
    np.testing.assert_allclose(f(w, t, pos, idx), _skinned_np(w, t, pos, idx), rtol=1e-13,
                               atol=1e-13)
    assert _products(f.c_source) and all(p.startswith("[7,") for p in _products(f.c_source))


def test_forward_mode_through_the_selection():
    """jacfwd with respect to t: vmap's merged rows split, selected and merged again."""
    w, t, pos, idx = _args()
    jac = sg.jacfwd(_skinned, argnums=1)
    J = jac(w, t, pos, idx)
    assert J.shape == (7, 3, 6, 12)
    eps = 1e-6
    for k in [(0, 0), (2, 5), (5, 11)]:
        e = np.zeros_like(t)
        e[k] = eps
        fd = (_skinned_np(w, t + e, pos, idx) - _skinned_np(w, t - e, pos, idx)) / (2 * eps)
        np.testing.assert_allclose(J[(..., *k)], fd, rtol=1e-6, atol=1e-8)
    assert all(not p.startswith(f"[{ROWS},") for p in _products(jac.c_source))


def test_a_value_read_elsewhere_is_computed_whole():
    w, t, pos, idx = _args()
    f = sg.compile(lambda w, t, pos, idx: (_skinned(w, t, pos, idx).sum(), (w @ t).sum()))
    s, total = f(w, t, pos, idx)
    np.testing.assert_allclose(s, _skinned_np(w, t, pos, idx).sum(), rtol=1e-12)
    np.testing.assert_allclose(total, (w @ t).sum(), rtol=1e-12)


def test_as_many_rows_as_there_are_are_not_moved():
    w, t, pos, _ = _args()
    idx = RNG.integers(0, ROWS, size=2 * ROWS)
    f = sg.compile(_skinned)
    np.testing.assert_allclose(f(w, t, pos, idx), _skinned_np(w, t, pos, idx), rtol=1e-13,
                               atol=1e-13)
    assert f"[{ROWS}, 6] @" in f.c_source


def test_an_index_out_of_range_is_still_an_index_error():
    w, t, pos, idx = _args()
    idx[3] = ROWS
    with pytest.raises(IndexError):
        sg.compile(_skinned)(w, t, pos, idx)


def test_selections_of_one_value_are_made_together():
    """A triangle's three corners, each a selection of the same vertices: one selection of
    their 3 x 7 rows, sunk, and each corner its part."""
    w, t, pos, _ = _args()
    tri = RNG.integers(0, ROWS, size=(7, 3))
    u = RNG.random((7, 2))

    def corners(w, t, pos, tri, u):
        verts = _verts(w, t, pos)
        return (u[:, :1] * verts[tri[:, 0]] + u[:, 1:] * verts[tri[:, 1]]
                + (1 - u[:, :1] - u[:, 1:]) * verts[tri[:, 2]])
    f = sg.compile(corners)
    verts = _skinned_np(w, t, pos, np.arange(ROWS))
    want = (u[:, :1] * verts[tri[:, 0]] + u[:, 1:] * verts[tri[:, 1]]
            + (1 - u[:, :1] - u[:, 1:]) * verts[tri[:, 2]])
    np.testing.assert_allclose(f(w, t, pos, tri, u), want, rtol=1e-12, atol=1e-13)
    assert _products(f.c_source) and all(p.startswith("[21,") for p in _products(f.c_source))
