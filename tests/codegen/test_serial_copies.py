"""A threaded kernel's loops twice (codegen/c/serial.py): on OpenMP's threads when a call
passes more than one thread, in the function itself when it passes one.

Each case: the numbers on one thread and on two are the same bits, and match NumPy; the C has
both copies (the OpenMP one under ``if (nthreads > 1)``) for arithmetic and in-place
reductions, and one copy where vectorization could change the bits (a libm call, a sum in
SIMD lanes) or where the loop is too small for threads.
"""

import numpy as np
import pytest

import symgrad as sg

RNG = np.random.default_rng(41)
X = RNG.normal(size=(100, 10000))    # (rows of 100: no row loop, lower/rows.py)
V = RNG.normal(size=10000)

CASES = [   # (name, function, NumPy's, whether the kernel has the copy without threads)
    ("arithmetic", lambda x, v: x * v + x * x, lambda x, v: x * v + x * x, True),
    ("min over rows", lambda x, v: (x[:, :1] + v[None, :] * 2).amin(0),
     lambda x, v: (x[:, :1] + v[None, :] * 2).min(0), True),
    # not where vectorization could change the bits: a libm call, a sum in SIMD lanes
    ("tanh", lambda x, v: sg.tanh(x) * v, lambda x, v: np.tanh(x) * v, False),
    ("one sum", lambda x, v: (x * v).sum(), lambda x, v: (x * v).sum(), False),
]


@pytest.mark.parametrize("name,f,f_np,copies", CASES, ids=[c[0] for c in CASES])
def test_one_thread_and_two_give_the_same_bits(name, f, f_np, copies, thread_count):
    cf = sg.compile(f)
    sg.set_num_threads(1)
    one = cf(X, V)
    sg.set_num_threads(2)
    two = cf(X, V)
    np.testing.assert_array_equal(np.asarray(one).view(np.int64),
                                  np.asarray(two).view(np.int64))
    np.testing.assert_allclose(one, f_np(X, V), rtol=1e-12, atol=1e-12)
    text = cf.c_source
    assert "omp parallel" in text
    assert ("if (nthreads > 1) {" in text) == copies
    if copies:
        parallel, alone = text.split("if (nthreads > 1) {", 1)[1].split("} else {", 1)
        assert "omp parallel" in parallel and "omp parallel" not in alone.split("/* k")[0]


def test_a_loop_too_small_for_threads_has_one_copy():
    cf = sg.compile(lambda x: x * 3 + 1)
    x = RNG.normal(size=100)
    np.testing.assert_array_equal(cf(x), x * 3 + 1)
    assert "nthreads > 1) {" not in cf.c_source
