"""Strip loops (lower/strips.py): consecutive loops over one long vector, each reading what
the ones before wrote at or before its element, run one cache-sized strip at a time.

Compiled programs: the same bits with strips and without (each element computed by the
same statements from the same values), NumPy's numbers, and a gradient through a stripped
recurrence against central differences. The run builder on hand-made loops: reads ahead of
the element (a run from the last) and then behind it, a write to an array an earlier loop of
the run read, an accumulation, loops of other lengths, loops that fit in the L1 cache, loops
that feed nothing after them, the stores read only in the run.
"""

import numpy as np
import pytest
from references import chain_ode, chain_ode_numpy, chain_ode_step

import symgrad as sg
from symgrad.dtypes import float64
from symgrad.lower import strips
from symgrad.lower.loopir import Buffer, Expr, LoopKernel, Stmt, Store, View

RNG = np.random.default_rng(23)
N = 20000          # (three 160 KB arrays and more: well past the L1 cache)


def sg_rk4(x, steps=3):
    """The chain ODE's steps unrolled (each a few loops of the entry point)."""
    y = x * 0
    for _ in range(steps):
        y = chain_ode_step(x, y, 0.2, sg.cat, lambda n: sg.ones(n, dtype=x.dtype))
    return y


def np_rk4(x, steps=3):
    return chain_ode_numpy(x, steps, 0.2)


@pytest.mark.parametrize("f,f_np", [
    (sg_rk4, np_rk4),
    (lambda x: chain_ode(x, 5, 0.1), lambda x: chain_ode_numpy(x, 5, 0.1)),
], ids=["unrolled", "fori_loop"])
def test_strips_give_the_bits_of_the_plain_loops(f, f_np, monkeypatch):
    x = RNG.uniform(size=N)
    stripped = sg.compile(f)
    got = stripped(x)
    assert "in strips of" in stripped.c_source
    monkeypatch.setattr(strips, "L1_BYTES", 1 << 60)      # (every run fits: no strips)
    plain = sg.compile(f)
    want = plain(x)
    assert "in strips of" not in plain.c_source
    np.testing.assert_array_equal(got.view(np.int64), want.view(np.int64))
    np.testing.assert_allclose(got, f_np(x), rtol=1e-13)


def test_a_gradient_through_stripped_stages_matches_central_differences():
    x = RNG.uniform(size=N)
    w = RNG.normal(size=N)
    grad = sg.grad(lambda x: (sg_rk4(x, 2) * sg.tensor(w)).sum())
    got = grad(x)
    eps = 1e-6
    for i in (0, 1, 2, 777, N - 2, N - 1):
        e = np.zeros(N)
        e[i] = eps
        fd = ((np_rk4(x + e, 2) * w).sum() - (np_rk4(x - e, 2) * w).sum()) / (2 * eps)
        assert abs(got[i] - fd) <= 1e-6 * max(1.0, abs(fd)), (i, got[i], fd)


# ---------------------------------------------------------------- the run builder

def _buf(i, n=N):
    return Buffer("temp", i, float64, n)


def _loop(reads, writes, n=N, accumulate=False):
    """A loop ``writes[j][i] = sum of reads`` over (n,); ``reads``: (buffer, shift)."""
    loads = [View(b, d, (n,), (1,), ((max(0, -d), n - max(0, d)),) if d else None)
             for b, d in reads]
    body = [Stmt("t0", Expr("add", float64, float64), [("load", 0), ("load", len(loads) - 1)])]
    stores = [Store("t0", View.dense(b, (n,)), "add", n, accumulate=accumulate) for b in writes]
    return LoopKernel((n,), loads, body, stores)


def _families(kernels):
    return [len(k.kernels) if isinstance(k, strips.StripLoop) else "loop" for k in kernels]


def test_a_recurrence_of_shifted_stages_is_one_strip():
    x, a, b, out = _buf(0), _buf(1), _buf(2), _buf(3)
    run = [_loop([(x, 0), (x, -1)], [a]), _loop([(x, 0), (a, -1)], [b]),
           _loop([(a, 0), (b, -1)], [out])]
    made = strips.strip_runs(run)
    assert _families(made) == [3]
    assert made[0].strip % strips.STRIP_ALIGN == 0
    assert made[0].n * 4 * 8 > strips.L1_BYTES


def test_the_stages_no_kernel_outside_the_run_reads_are_internal():
    """``StripLoop.internal``: the stores of temporaries read only inside the run (their
    values may stay in registers), not those read after it, nor outputs."""
    x, a, b, c = _buf(0), _buf(1), _buf(2), _buf(3)
    out = Buffer("output", 0, float64, N)
    run = [_loop([(x, 0), (x, -1)], [a]), _loop([(x, 0), (a, -1)], [b]),
           _loop([(a, 0), (b, -1)], [c]), _loop([(c, 0), (b, -1)], [out])]
    after = _loop([(b, 0), (x, 0)], [_buf(4)])         # reads b after the run
    made = strips.strip_runs(run + [after])
    assert _families(made) == [4, "loop"]
    assert made[0].internal == {(0, 0), (2, 0)}          # a and c; not b (read after), out


def test_loops_reading_ahead_are_a_run_from_the_last():
    """The reverse of a recurrence: each loop reads what one before it wrote at or after its
    element (``ahead``: kept as one run, for the vector loop from the last); a loop reading
    behind a buffer such a run wrote ends it."""
    x, a, b, c = _buf(0), _buf(1), _buf(2), _buf(3)
    run = [_loop([(x, 0), (x, 1)], [a]), _loop([(x, 0), (a, 1)], [b]),
           _loop([(a, 0), (b, 2)], [c])]
    made = strips.strip_runs(run)
    assert _families(made) == [3] and made[0].ahead     # (c too is read by no kernel)
    assert made[0].internal == {(0, 0), (1, 0), (2, 0)}
    behind = _loop([(c, 0), (b, -1)], [_buf(4)])
    made = strips.strip_runs(run + [behind])
    assert _families(made) == [3, "loop"] and made[0].ahead


@pytest.mark.parametrize("case", ["write after read", "accumulate", "other length",
                                  "fits in L1"])
def test_loops_that_would_change_the_numbers_or_not_pay_stay_apart(case):
    x, a, b, c = _buf(0), _buf(1), _buf(2), _buf(3)
    first = _loop([(x, 0), (x, -1)], [a])
    second = {
        "write after read": _loop([(a, 0), (a, -1)], [x]),        # x, read by the first
        "accumulate": _loop([(x, 0), (a, -1)], [b], accumulate=True),
        "other length": _loop([(_buf(4, N - 1), 0), (_buf(5, N - 1), 0)], [_buf(6, N - 1)],
                              n=N - 1),
        "fits in L1": None,
    }[case]
    if case == "fits in L1":
        n = 256
        first = _loop([(_buf(0, n), 0), (_buf(0, n), -1)], [_buf(1, n)], n=n)
        second = _loop([(_buf(0, n), 0), (_buf(1, n), -1)], [_buf(2, n)], n=n)
    third = _loop([(b, 0), (c, 0)], [_buf(7)])
    assert _families(strips.strip_runs([first, second, third])) == ["loop"] * 3


def test_a_loop_that_feeds_nothing_ends_the_strips():
    """A copy to a tape (read by no loop of the run) between the stages: the strips stop
    before it, though with it at least half the arrays would still be read back."""
    x, a, b, c, tape, out = (_buf(i) for i in range(6))
    run = [_loop([(x, 0), (x, -1)], [a]), _loop([(x, 0), (a, -1)], [b]),
           _loop([(x, 0), (b, -1)], [c]), _loop([(x, 0), (a, -1)], [tape]),
           _loop([(b, 0), (c, -1)], [out])]
    assert _families(strips.strip_runs(run)) == [3, "loop", "loop"]


def test_two_stores_into_one_buffer_stay_apart():
    """A loop writing both halves of one buffer: a later loop's read at ``i + N - 1`` is one
    element before the second half (a shift of -1 from it) but ahead of the first half's
    element i: not exact in strips (the rest of the run would pay)."""
    x, c, d, e = _buf(0), _buf(2), _buf(3), _buf(4)
    both = _buf(1, 2 * N)
    first = _loop([(x, 0), (x, -1)], [both])
    first.stores.append(Store("t0", View(both, N, (N,), (1,)), "add", N))
    second = LoopKernel((N,), [View(both, N - 1, (N,), (1,)), View(x, 0, (N,), (1,))],
                        first.body, [Store("t0", View.dense(c, (N,)), "add", N),
                                     Store("t0", View.dense(d, (N,)), "add", N)])
    third = _loop([(c, 0), (d, -1)], [e])
    made = strips.strip_runs([first, second, third])
    assert made[0] is first, _families(made)
