"""A gather is a loop node (lower/fusion.py): its index is computed, and its values are used,
in the loop that reads the source where the index points; advanced indexing's gather is
rewritten into the index's shape for it (passes/identities.py, gather_in_the_index_shape).
An index in memory (an argument, a stored value) is checked by a kernel of its own before the
loops that read at it (lower/index.py, IndexCheck, moved up past the loops in between by
hoist_checks), so those loops cannot fail and run in row loops.

Values against NumPy's indexing, gradients against central differences, the C checked for
the one fused loop, and an index out of range still an IndexError naming the line.
"""

import re

import numpy as np
import pytest

import symgrad as sg
from references import central_differences
from symgrad import dtypes
from symgrad.lower.guard import GuardKernel
from symgrad.lower.index import IndexCheck, hoist_checks
from symgrad.lower.loopir import Buffer, Literal, View, copy_kernel

RNG = np.random.default_rng(5)


def _source(f, *args) -> str:
    f(*args)
    return f.last_specialization.source.text


def test_permutation_products_run_in_one_loop():
    """GradBench's det by permutations: index arithmetic, gather and product in one loop."""
    ell = 4
    import itertools
    perms = np.array(list(itertools.permutations(range(ell))), dtype=np.int64)
    signs = np.array([np.linalg.det(np.eye(ell)[p]) for p in perms])
    a = RNG.random(ell * ell)
    f = sg.compile(lambda a, p, s: (s * a.reshape(ell, ell)[sg.arange(ell), p].prod(1)).sum())
    np.testing.assert_allclose(f(a, perms, signs), np.linalg.det(a.reshape(ell, ell)),
                               rtol=1e-12)
    text = _source(f, a, perms, signs)
    assert text.count("sg_bad |=") == 1 and "gather along" not in text
    assert "prod over axes [1]" in text and "(fused:" in text


@pytest.mark.parametrize("case", ["rows", "rows_cols", "middle", "negative"])
def test_indexing_patterns_match_numpy_with_gradients(case):
    x = RNG.normal(size=(6, 4, 3))
    i = RNG.integers(0, 6, size=(5, 2))
    j = RNG.integers(0, 4, size=(2,))
    fns = {"rows": (lambda x, i: sg.sin(x[i]) * x[i].sum(-1, keepdim=True),
                    lambda x, i: np.sin(x[i]) * x[i].sum(-1, keepdims=True)),
           "rows_cols": (lambda x, i: (x[i, j] ** 2).sum(0), lambda x, i: (x[i, j] ** 2).sum(0)),
           "middle": (lambda x, i: sg.exp(x[:, j % 4]) * 2.0,
                      lambda x, i: np.exp(x[:, j % 4]) * 2.0),
           "negative": (lambda x, i: x[i - 6].cumsum(0), lambda x, i: x[i - 6].cumsum(0))}
    f, f_np = fns[case]
    got = sg.compile(f)(x, i)
    np.testing.assert_allclose(got, f_np(x, i), rtol=1e-13, atol=1e-14)
    c = RNG.normal(size=got.shape)
    g = sg.grad(lambda x, i: (f(x, i) * sg.tensor(c)).sum())(x, i)
    fd = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[k] = 1e-6
        fd[k] = ((f_np(x + d, i) - f_np(x - d, i)) * c).sum() / 2e-6
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)


def test_an_index_out_of_range_in_a_fused_loop_is_an_index_error():
    f = sg.compile(lambda x, i: (x[i] * 2.0).sum(1))
    x = RNG.normal(size=(5, 3))
    assert f(x, np.array([0, 4, 2])).shape == (3,)
    for bad in ([0, 5, 1], [-6, 0, 1]):
        with pytest.raises(IndexError, match=r"out of range.*test_gather_fusion.py"):
            f(x, np.array(bad))


def test_a_stored_index_is_checked_once_and_its_loops_cannot_fail():
    """Three gathers at one index argument, in three loops (the sum's, and two values
    returned): one check, before them; no loop checks (no status flag)."""
    x, y = RNG.normal(size=(7, 3)), RNG.normal(size=(7,))
    i = np.array([6, 0, 3, 3, -1, 2])

    def f(x, y, i):
        return (x[i] * 2.0).sum(1), sg.sin(y)[i] * y[i], sg.exp(x)[i]
    g = sg.compile(f)
    for got, want in zip(g(x, y, i), ((x[i] * 2).sum(1), np.sin(y)[i] * y[i], np.exp(x)[i])):
        np.testing.assert_allclose(got, want, rtol=1e-14)
    text = _source(g, x, y, i)
    assert text.count("check the indices in") == 1 and "sg_bad" not in text
    assert text.count("[gather] */") >= 3 and "gather along" not in text
    for bad in ([0, 7, 1, 1, 1, 1], [0, 1, 1, 1, 1, -8]):
        with pytest.raises(IndexError, match=r"out of range.*test_gather_fusion.py"):
            g(x, y, np.array(bad))


def _observations(n_obs: int):
    cams, pts = RNG.normal(size=(9, 6)), RNG.normal(size=(40, 3))
    return cams, pts, RNG.integers(0, 9, n_obs), RNG.integers(0, 40, n_obs)


def _project(torch, cams, pts, ci, pi):
    """Bundle adjustment's shape: per observation, a camera's and a point's rows gathered
    and a few small steps on them (rows of 2 to 6 elements)."""
    c, p = cams[ci], pts[pi]
    q = p * c[:, 0:3] + c[:, 3:6]
    r2 = q[:, 0:1] * q[:, 0:1] + q[:, 1:2] * q[:, 1:2]
    return q[:, 0:2] / q[:, 2:3] * (1.0 + 0.1 * r2)


def test_gathers_at_stored_indices_run_in_row_loops():
    cams, pts, ci, pi = _observations(300)
    f = sg.compile(lambda cams, pts, ci, pi: _project(sg, cams, pts, ci, pi))
    np.testing.assert_allclose(f(cams, pts, ci, pi), _project(np, cams, pts, ci, pi),
                               rtol=1e-13)
    text = _source(f, cams, pts, ci, pi)
    rows = text[text.index("rows [300] in blocks"):]
    assert "[gather] */" in rows and "sg_bad" not in text
    assert text.count("check the indices in") == 2
    assert text.index("check the indices in") < text.index("rows [300] in blocks")
    # the gradient (its scatters) against central differences
    w = RNG.normal(size=(300, 2))
    grad = sg.grad(lambda cams, pts, ci, pi: (_project(sg, cams, pts, ci, pi)
                                              * sg.tensor(w)).sum(), argnums=(0, 1))
    got = grad(cams, pts, ci, pi)
    fds = (central_differences(lambda t: (_project(np, t.numpy(), pts, ci, pi) * w).sum(), cams),
           central_differences(lambda t: (_project(np, cams, t.numpy(), ci, pi) * w).sum(), pts))
    for g, fd in zip(got, fds):
        np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-7)
    with pytest.raises(IndexError, match="out of range"):
        f(cams, pts, ci, np.where(np.arange(300) == 299, 40, pi))


def _index(n: int = 8):
    buf = Buffer("input", 0, dtypes.int64, n)
    return View.dense(buf, (n,))


def _writes(view: View, name: str = "copy"):
    return copy_kernel(name, view.shape, Literal(0, view.buffer.dtype), view)


def test_a_check_moves_up_past_loops_but_not_past_a_writer_of_its_index_or_a_guard():
    idx, other = _index(), View.dense(Buffer("temp", 1, dtypes.float64, 8), (8,))
    check = IndexCheck(idx, 5)
    loop_a, loop_b = _writes(other, "a"), _writes(other, "b")
    assert hoist_checks([loop_a, loop_b, check]) == [check, loop_a, loop_b]
    writer = _writes(idx, "w")
    assert hoist_checks([writer, loop_a, check]) == [writer, check, loop_a]
    guard = GuardKernel(Literal(True, dtypes.bool_), True, 0)
    assert hoist_checks([loop_a, guard, loop_b, check]) == [loop_a, guard, check, loop_b]
    # the same check again (from any line), with nothing between that writes the index: once
    again = IndexCheck(idx, 5, "another line")
    assert hoist_checks([loop_a, check, loop_b, again]) == [check, loop_a, loop_b]
    assert hoist_checks([check, writer, check]) == [check, writer, check]
    # checks keep their order: the first bad index in the program's order is the one named
    other = IndexCheck(_index(4), 3)
    assert hoist_checks([check, loop_a, other]) == [check, other, loop_a]
    assert hoist_checks([loop_a, other, loop_b, check, again]) == [other, check, loop_a, loop_b]


def test_of_several_bad_indices_the_first_in_the_program_is_named():
    """x[i], x[j], x[k] on three lines, every index out of range: the error names x[i]'s line,
    as running the program in order (NumPy, torch, eager symgrad) would. (``grad`` alone, whose
    program is the reverse pass, names the line its first loop reads at, as before.)"""
    def f(x, i, j, k):
        a = sg.sin(x[i])
        b = sg.cos(x[j])
        c = sg.exp(x[k])
        return a.sum() + b.sum() + c.sum()
    x, bad = RNG.normal(size=(5, 3)), np.array([0, 9])
    for fn in (sg.compile(f), sg.value_and_grad(f)):
        with pytest.raises(IndexError, match=r"a = sg\.sin\(x\[i\]\)"):
            fn(x, bad, bad, bad)
        with pytest.raises(IndexError, match=r"b = sg\.cos\(x\[j\]\)"):
            fn(x, np.array([0, 1]), bad, bad)


def test_a_read_at_an_argument_index_stays_inside_its_source():
    """Checked before the loop, an index in an argument array is still held inside the
    source where the loop reads at it (another Python thread may write the array during the
    call); one in the call's own workspace (x[i] with negative indices wrapped) is read as
    it is."""
    x, i = RNG.normal(size=(4, 5)), np.array([[0, 4], [1, 1], [2, 3], [4, 0]])
    f = sg.compile(lambda x, i: sg.gather(x, 1, i) * 2.0)
    np.testing.assert_array_equal(f(x, i), np.take_along_axis(x, i, 1) * 2.0)
    text = _source(f, x, i)
    assert "check the indices in in1" in text and "sg_bad" not in text
    assert re.search(r"in0\[[^\]]*\(\(\(uint64_t\)t\d+_at < \(uint64_t\)5\) \? t\d+_at : 0\)",
                     text)
    g = sg.compile(lambda x, i: x[i] * 2.0)
    j = np.array([3, -1, 0])
    np.testing.assert_array_equal(g(x, j), x[j] * 2.0)
    text = _source(g, x, j)
    assert re.search(r"check the indices in tmp\d+", text) and "? t0_at : 0" not in text
