"""A row loop's block with its rows innermost (codegen/c/lanes.py): the block's local arrays
row-fastest, each loop that touches one running along the block's rows in its innermost loop.

Values against NumPy (sums over a few elements in order: NumPy's bits), derivatives against
central differences; rows that do not fill the last block; the C checked for loops whose
innermost loop runs over the block's rows. Threads: ``tests/lower/test_row_loops.py``.
"""

import re

import numpy as np
import pytest

import symgrad as sg

RNG = np.random.default_rng(23)


def _blocks(text: str) -> list:
    return [int(b) for b in re.findall(r"in blocks of (\d+)", text)]


def _rows_innermost(text: str, block: int) -> int:
    """How many loops of a block run along its rows innermost: an ``omp simd`` loop over
    ``block`` iterations whose loads or stores of local arrays (``row<k>``) step by one."""
    loops = re.findall(r"#pragma omp simd[^\n]*\n\s*for \(int64_t (i\d) = 0; \1 < "
                       rf"{block}; \1\+\+\) {{\n((?:[^\n}}]*\n)+)", text)
    return sum(1 for var, body in loops
               if re.search(rf"row\d+\[(?:[^\]]*\+ )?{var}\]", body))


@pytest.mark.parametrize("n", [640, 1003])
def test_sums_over_a_middle_axis_of_each_row_give_numpys_bits(n):
    """Per row, a (4, 5) block: a sum over its 4 (in place, over the rows innermost) and
    one over its 5; NumPy adds 4 or 5 terms in order too, so the bits agree."""
    x = RNG.normal(size=(n, 4, 5))
    w = RNG.normal(size=(4, 5))

    def f(x, w):
        y = x * w + x * x
        a = y.sum(1)                       # (n, 5): over the middle axis
        b = (y * y).sum(2)                 # (n, 4): over the last
        return a * a - a, b + 1.0
    g = sg.compile(f)
    a, b = g(x, w)
    y = x * w + x * x
    a_np = y.sum(1)
    np.testing.assert_array_equal(a, a_np * a_np - a_np)
    np.testing.assert_array_equal(b, (y * y).sum(2) + 1.0)
    (block,) = set(_blocks(g.c_source))
    assert _rows_innermost(g.c_source, block) >= 2


def _project(cam, X):
    """A small camera model per row: rotation by an angle-axis, perspective division, a
    radial distortion (bundle adjustment's projection, vmapped)."""
    rot, centre, f = cam[..., 0:3], cam[..., 3:6], cam[..., 6:7]
    Xo = X - centre
    theta = sg.sqrt((rot * rot).sum(-1, keepdim=True))
    axis = rot / theta
    cos, sin = sg.cos(theta), sg.sin(theta)
    Xc = Xo * cos + sg.linalg.cross(axis, Xo, dim=-1) * sin + \
        axis * (axis * Xo).sum(-1, keepdim=True) * (1 - cos)
    p = Xc[..., 0:2] / Xc[..., 2:3]
    rsq = (p * p).sum(-1, keepdim=True)
    return p * (1 + cam[..., 7:8] * rsq) * f


def _project_np(cam, X):
    rot, centre, f = cam[..., 0:3], cam[..., 3:6], cam[..., 6:7]
    Xo = X - centre
    theta = np.sqrt((rot * rot).sum(-1, keepdims=True))
    axis = rot / theta
    Xc = Xo * np.cos(theta) + np.cross(axis, Xo) * np.sin(theta) + \
        axis * (axis * Xo).sum(-1, keepdims=True) * (1 - np.cos(theta))
    p = Xc[..., 0:2] / Xc[..., 2:3]
    return p * (1 + cam[..., 7:8] * (p * p).sum(-1, keepdims=True)) * f


@pytest.mark.parametrize("n", [512, 777])
def test_per_row_jacobian_blocks_with_rows_innermost(n):
    """vmap(jacfwd) of the projection: the block's loops over (tangents, coordinates, rows)
    run along the rows innermost; its blocks against central differences of NumPy's."""
    cam = np.concatenate([0.3 * RNG.normal(size=(n, 3)), RNG.normal(size=(n, 3)),
                          RNG.uniform(1, 2, size=(n, 1)), 0.01 * RNG.normal(size=(n, 1))], 1)
    X = RNG.normal(size=(n, 3)) + np.array([0, 0, 8.0])
    jac = sg.compile(sg.vmap(sg.jacfwd(_project, argnums=(0, 1))))
    d_cam, d_x = jac(cam, X)
    assert d_cam.shape == (n, 2, 8) and d_x.shape == (n, 2, 3)
    eps = 1e-6
    for which, (arg, d) in enumerate(((cam, d_cam), (X, d_x))):
        for j in range(arg.shape[1]):
            e = np.zeros_like(arg)
            e[:, j] = eps
            hi = _project_np(cam + e, X) if which == 0 else _project_np(cam, X + e)
            lo = _project_np(cam - e, X) if which == 0 else _project_np(cam, X - e)
            np.testing.assert_allclose(d[:, :, j], (hi - lo) / (2 * eps), rtol=1e-6, atol=1e-7)
    text = jac.c_source
    (block,) = set(_blocks(text))
    assert _rows_innermost(text, block) >= 10



def _addresses(v, shape, order):
    """Each index of ``shape`` (in the original kernel's order) -> the address view ``v``
    of a kernel with dims in ``order`` reads there (None outside a padded view's window)."""
    import itertools
    found = {}
    for idx in itertools.product(*(range(n) for n in shape)):
        moved = tuple(idx[e] for e in order)
        if v.window is not None and any(not lo <= i < hi for i, (lo, hi) in
                                        zip(moved, v.window)):
            found[idx] = None
            continue
        found[idx] = v.offset + sum(i * s for i, s in zip(moved, v.strides))
    return found


def test_the_block_arrays_hold_each_element_in_one_place(monkeypatch):
    """Every kernel of a block, before and after ``lanes.arrange``: each element of a local
    array that some view reaches moves to one new place, the same for every view, distinct
    places for distinct elements, inside the array; arrays of the function keep their
    addresses; a kernel's dims are the old ones, the rows moved last or not at all."""
    from symgrad.codegen.c import lanes
    seen, original = [], lanes.arrange

    def arrange(kernels, dims, rows, block):
        out = original(kernels, dims, rows, block)
        seen.append((kernels, dims, out))
        return out
    monkeypatch.setattr(lanes, "arrange", arrange)
    n = 205          # (a last block of 13 rows: no other dim of 13, so a moved dim shows)
    cam = np.concatenate([0.3 * RNG.normal(size=(n, 3)), RNG.normal(size=(n, 3)),
                          RNG.uniform(1, 2, size=(n, 1)), 0.01 * RNG.normal(size=(n, 1))], 1)
    X = RNG.normal(size=(n, 3)) + np.array([0, 0, 8.0])
    sg.compile(sg.vmap(sg.jacfwd(_project, argnums=(0, 1))))(cam, X)
    assert any(a is not b for kernels, _, out in seen for a, b in zip(kernels, out))
    for kernels, dims, out in seen:
        moves: dict = {}
        for k, d, new in zip(kernels, dims, out):
            last = len(k.shape) - 1
            order = list(range(len(k.shape))) if new.shape == k.shape else \
                [e for e in range(len(k.shape)) if e != d] + [d]
            assert tuple(k.shape[e] for e in order) == tuple(new.shape)
            for v, w in zip(k.views(), new.views()):
                assert v.buffer is w.buffer
                before = _addresses(v, k.shape, range(last + 1))
                after = _addresses(w, k.shape, order)
                for idx, a in before.items():
                    if a is None:
                        assert after[idx] is None
                    elif v.buffer.role != "row":
                        assert after[idx] == a
                    else:
                        assert 0 <= after[idx] < v.buffer.size
                        assert moves.setdefault((v.buffer, a), after[idx]) == after[idx]
        places: dict = {}
        for (buf, a), b in moves.items():
            assert places.setdefault((buf, b), a) == a      # one element a place
