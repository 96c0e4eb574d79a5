"""Row loops (lower/rows.py, codegen/c/rows.py): consecutive loops over the same many rows of
small work run as one loop over blocks of rows, each block's intermediates in local arrays.

Values against NumPy and derivatives against central differences; the C checked for the row
loop, and for what must stay out of it: reads across rows, reductions over the rows.
"""

import re

import numpy as np

import symgrad as sg

RNG = np.random.default_rng(17)


def _rotate(r, x):
    """Rodrigues' rotation of each row of x by the row's angle-axis r (per-row small work)."""
    theta = sg.sqrt((r * r).sum(-1, keepdim=True))
    axis = r / theta
    cos, sin = sg.cos(theta), sg.sin(theta)
    return x * cos + sg.linalg.cross(axis, x, dim=-1) * sin + \
        axis * (axis * x).sum(-1, keepdim=True) * (1 - cos)


def _rotate_np(r, x):
    theta = np.sqrt((r * r).sum(-1, keepdims=True))
    axis = r / theta
    return x * np.cos(theta) + np.cross(axis, x) * np.sin(theta) + \
        axis * (axis * x).sum(-1, keepdims=True) * (1 - np.cos(theta))


def _row_loops(text: str) -> list:
    return re.findall(r"rows \[(\d+)\] in blocks of \d+: (\d+) loops", text)


def test_per_row_jacobians_run_row_by_row():
    n = 500
    r, x = RNG.normal(size=(n, 3)), RNG.normal(size=(n, 3))
    jac = sg.compile(sg.vmap(sg.jacfwd(_rotate, argnums=(0, 1))))
    d_r, d_x = jac(r, x)
    eps = 1e-6
    for j in range(3):
        e = np.zeros(3)
        e[j] = eps
        np.testing.assert_allclose(d_r[:, :, j], (_rotate_np(r + e, x) - _rotate_np(r - e, x))
                                   / (2 * eps), rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(d_x[:, :, j], (_rotate_np(r, x + e) - _rotate_np(r, x - e))
                                   / (2 * eps), rtol=1e-6, atol=1e-8)
    loops = _row_loops(jac.c_source)
    assert loops and all(rows == str(n) for rows, _ in loops) and int(loops[0][1]) >= 4


def test_rows_read_across_are_not_run_row_by_row():
    """y is written by rows and read one row further on: the loop reading it runs after the
    loop that writes it, not in the same row loop."""
    x = RNG.normal(size=(300, 4))

    def f(x):
        y = sg.sin(x) * 2.0 + x.sum(1, keepdim=True)
        z = y[1:] - y[:-1]
        return (z * z).sum(1) + 1.0
    g = sg.compile(f)
    y = np.sin(x) * 2.0 + x.sum(1, keepdims=True)
    np.testing.assert_allclose(g(x), ((y[1:] - y[:-1]) ** 2).sum(1) + 1.0, rtol=1e-13)


def test_a_sum_over_the_rows_is_no_row_loop():
    x = RNG.normal(size=(400, 3))
    f = sg.compile(lambda x: (sg.exp(x) * x).sum(0) + (x * 2).sum(0))
    np.testing.assert_allclose(f(x), (np.exp(x) * x).sum(0) + (x * 2).sum(0), rtol=1e-13)


def test_row_loops_on_threads_give_the_same_numbers(thread_count):
    n = 20011
    r, x = RNG.normal(size=(n, 3)), RNG.normal(size=(n, 3))
    f = sg.compile(sg.vmap(sg.jacfwd(_rotate, argnums=(0, 1))))
    sg.set_num_threads(1)
    one = f(r, x)
    sg.set_num_threads(2)
    two = f(r, x)
    block = f.c_source.split("rows [")[1]
    assert "omp parallel for" in block.split("/* k")[0]         # (over the threads' shares)
    assert re.search(r"for \(int64_t b = sg_lo; b < sg_hi; b\+\+\)", f.c_source)
    blocks = [int(b) for b in re.findall(r"in blocks of (\d+)", f.c_source)]
    # each row loop's full blocks, then its rows left over
    assert f.c_source.count("const int64_t r0 =") == sum(1 + bool(n % b) for b in blocks)
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a, b)


def test_rows_behind_the_tangents_run_block_by_block():
    """jacfwd with respect to a few parameters: its tangents lead, (3, rows, 3) arrays, and
    the row loop runs along their second dim."""
    n = 400
    x, p = RNG.normal(size=(n, 3)), RNG.normal(size=3)

    def f(p, x):
        return _rotate(p * sg.ones_like(x), x) * sg.exp(x[:, :1])
    jac = sg.jacfwd(f)
    J = jac(p, x)
    eps = 1e-6

    def f_np(p):
        return _rotate_np(p * np.ones_like(x), x) * np.exp(x[:, :1])
    for j in range(3):
        e = np.zeros(3)
        e[j] = eps
        np.testing.assert_allclose(J[..., j], (f_np(p + e) - f_np(p - e)) / (2 * eps),
                                   rtol=1e-6, atol=1e-8)
    assert any(rows == str(n) for rows, _ in _row_loops(jac.c_source))
    # a loop of a block: the 3 tangents by the block's rows (innermost: a trailing 1)
    assert re.search(r"/\* k\d+\.\d+: \w+ -> row\d+.* \[3, \d+, 1\]", jac.c_source)


def test_a_reduction_in_place_behind_other_dims_runs_alone():
    """A loop reducing a middle axis accumulates in place after filling its output from the
    view's offset as one stretch: a block of rows behind the tangents is no stretch, so such
    a loop stays out of row loops; reduced innermost (in a register), it may join."""
    from symgrad.dtypes import float64
    from symgrad.lower.loopir import Buffer, LoopKernel, Store, View
    from symgrad.lower.rows import _row_dim

    def reducing(shape, axis):
        src = View.dense(Buffer("input", 0, float64, int(np.prod(shape))), shape)
        kept = tuple(1 if a == axis else n for a, n in enumerate(shape))
        out = View.dense(Buffer("temp", 0, float64, int(np.prod(kept))), kept)
        out = View(out.buffer, 0, shape, tuple(0 if a == axis else st
                                               for a, st in enumerate(out.strides)))
        return LoopKernel(shape, [src], [], [Store(("load", 0), out, "max", out.buffer.size,
                                                   "max")], (axis,))
    assert _row_dim(reducing((3, 100, 4, 2), 2)) is None
    assert _row_dim(reducing((3, 100, 2, 4), 3)) == (100, 1)
    assert _row_dim(reducing((100, 4, 2), 1)) == (100, 0)


def test_a_reduction_over_leading_axes_joins_when_its_block_is_one_stretch():
    """A sum over the points (axis 0) into (components, d): run by components (dim 1), a
    block's outputs are one stretch of the dense output (the rows lead its kept dims); laid
    out otherwise, or with the rows behind another kept dim, they are not."""
    from symgrad.dtypes import float64
    from symgrad.lower.loopir import Buffer, LoopKernel, Store, View
    from symgrad.lower.rows import _outer_reduction

    def reducing(out_strides):
        shape = (7, 100, 4)
        src = View.dense(Buffer("input", 0, float64, 2800), shape)
        out = View(Buffer("temp", 0, float64, 400), 0, shape, out_strides)
        return LoopKernel(shape, [src], [], [Store(("load", 0), out, "min", 400, "min")], (0,))
    assert not _outer_reduction(reducing((0, 4, 1)), 1)       # dense (100, 4): a stretch
    assert _outer_reduction(reducing((0, 1, 100)), 1)         # (100, 4) stored transposed
    assert _outer_reduction(reducing((0, 4, 1)), 2)           # rows behind the components


def test_accesses_at_several_strides_in_separate_stretches_run_by_rows():
    """A buffer written as (rows, 28) values in column ranges and then one value per row
    after them (a sparse Jacobian's values): each stride's accesses stay in their row's
    stretch, the stretches of the two strides apart; overlapping stretches, or an access
    reaching into the next row, are not by rows. A padded view reads only its window."""
    from symgrad.dtypes import float64
    from symgrad.lower.loopir import Buffer, View
    from symgrad.lower.rows import _strided_rows, by_rows

    rows = 100
    out = Buffer("output", 0, float64, rows * 29)
    block = [(View(out, o, (rows, n), (28, 1)), 0) for o, n in ((0, 8), (8, 2), (10, 18))]
    tail = [(View(out, 28 * rows, (rows,), (1,)), 0)]
    assert _strided_rows(block + tail, rows)
    assert not _strided_rows(block + [(View(out, 28 * rows - 5, (rows,), (1,)), 0)], rows)
    assert not _strided_rows([(View(out, 20, (rows, 9), (28, 1)), 0)] + block, rows)
    # (rows, 2) read as (rows, 3) padded on the right: its third column is never read
    two = Buffer("temp", 1, float64, rows * 2)
    padded = View(two, 0, (rows, 3), (2, 1), ((0, rows), (0, 2)))
    assert by_rows(padded, rows) and not by_rows(View(two, 0, (rows, 3), (2, 1)), rows)


def test_a_sparse_jacobians_values_are_written_in_the_row_loop():
    """Bundle-adjustment-like residuals: the gathered values' three reverse passes and the
    writes of the Jacobian's values are one row loop (nothing after it)."""
    n = 300
    r = np.random.default_rng(2)
    cams, pts = r.normal(size=(7, 4)), r.normal(size=(11, 3))
    w, ci, pi = r.uniform(1, 2, n), np.arange(n) % 7, r.permutation(np.arange(n) % 11)

    def res(cams, pts, w, ci, pi):
        c, x = cams[ci], pts[pi]
        proj = (x[:, :2] * c[:, :2] + c[:, 2:4]) / (x[:, 2:3] ** 2 + 1)
        return (w[:, None] * sg.sin(proj)).reshape(-1), 1 - w * w
    J = sg.sparse.jacobian(res, argnums=(0, 1, 2))
    M = J(cams, pts, w, ci, pi)
    dense = np.hstack([np.asarray(d).reshape(3 * n, -1) for d in sg.jacrev(
        lambda *a: sg.cat(list(res(*a, ci, pi))), argnums=(0, 1, 2))(cams, pts, w)])
    np.testing.assert_allclose(M.toarray(), dense, rtol=1e-13, atol=1e-14)
    c = sg.inspect(J, cams, pts, w, ci, pi, print_=False).c_source
    loops = _row_loops(c)
    assert len(loops) == 1 and loops[0][0] == str(n)
    kernels = re.findall(r"/\* k\d+: (\w+)", c)       # (top-level kernels, in order)
    assert kernels[-1] == "rows"


def test_a_row_loop_over_size_0_dims_compiles(monkeypatch):
    """Loops over (0, rows, 0): their block's arrays hold no element, and are declared with
    one (a C array of -1 elements failed to compile; found by ``fuzz_campaign.py --row-loops``
    on the graph without passes)."""
    from symgrad.lower import rows
    from symgrad.pipeline import compile_traced
    from symgrad.runtime import Specialization
    monkeypatch.setattr(rows, "ROW_MIN", 2)
    monkeypatch.setattr(rows, "BLOCK", 4)

    def program(x):
        v = -x
        v = -v
        v = -v
        s = v.sum(dim=0, keepdim=False)
        return (s < v).to(s.dtype) * s
    x = np.zeros((0, 2, 0), np.float32)
    traced = sg.compile(program).trace(x)
    spec = Specialization.of(compile_traced(traced, "program", passes=[]))
    assert "rows [2]" in spec.c_source
    (out,) = spec.run([x])
    assert out.shape == (0, 2, 0) and out.dtype == np.float32
