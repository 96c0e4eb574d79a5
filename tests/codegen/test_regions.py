"""A threaded loop in a function of its own (codegen/c/regions.py), called on each thread's
share of the iterations: its pointers are ``restrict`` parameters.

Each case: one thread and two give the same bits (the same machine code on the whole range or
on shares), the numbers match NumPy, and the C calls the loop's function from the parallel
loop over the shares. The cases cover each printer of threaded loops (plain nests, pairwise
sums with a chunked single output, tiles, banded loops, row loops) and a libm call in a single
vectorized loop whose length is not a multiple of the vector width, or which reads a column
of rows (its shares the same for any thread count); a loop that gathers stays as OpenMP
outlines it.
"""

import re

import numpy as np
import pytest

import symgrad as sg

RNG = np.random.default_rng(41)
X = RNG.normal(size=(100, 10000))    # (rows of 100: no row loop, lower/rows.py)
V = RNG.normal(size=10000)
LONG = RNG.normal(size=1_000_037)    # (not a multiple of any vector width)
IDX = RNG.integers(0, 10000, size=400_000)
POINTS = RNG.normal(size=(200_000, 3))
COLUMNS = RNG.normal(size=(31843, 3))   # (a column of rows of 3: loads with gaps)


def rosenbrock_hessian(x):
    return sg.hessian(lambda v: (100 * (v[1:] - v[:-1] ** 2) ** 2 + (1 - v[:-1]) ** 2).sum())(x)


def rosenbrock_hessian_np(x):
    n = len(x)
    h = np.zeros((n, n))
    i = np.arange(n - 1)
    h[i, i] += 1200 * x[:-1] ** 2 - 400 * x[1:] + 2
    h[i + 1, i + 1] += 200
    h[i, i + 1] = h[i + 1, i] = -400 * x[:-1]
    return h


def normalized(p):      # rows of 3: a row loop of elementwise work and row sums
    return p / sg.sqrt((p * p).sum(1, keepdim=True)) * sg.exp(-p[:, :1] ** 2)


def normalized_np(p):
    return p / np.sqrt((p * p).sum(1, keepdims=True)) * np.exp(-p[:, :1] ** 2)


CASES = [   # (name, function, its arguments, NumPy's, a pattern the C must have)
    ("arithmetic", lambda x, v: x * v + x * x, (X, V), lambda x, v: x * v + x * x, None),
    ("min over rows (tiles)", lambda x, v: (x[:, :1] + v[None, :] * 2).amin(0), (X, V),
     lambda x, v: (x[:, :1] + v[None, :] * 2).min(0), None),
    ("tanh of one long vector", lambda x: sg.tanh(x) * 3, (LONG,),
     lambda x: np.tanh(x) * 3, r"\(sg_n \+ sg_parts - 1\)/sg_parts \+ 63\)/64\*64"),
    ("one sum in chunks", lambda x, v: (x * v).sum(), (X, V),
     lambda x, v: (x * v).sum(), r"double \*restrict acc_p"),
    ("sums of rows", lambda x: sg.exp(x).sum(1), (X,), lambda x: np.exp(x).sum(1), None),
    ("banded Hessian", rosenbrock_hessian, (RNG.normal(size=1000),), rosenbrock_hessian_np,
     r"banded"),
    ("row loop", normalized, (POINTS,), normalized_np, r"rows \[200000\] in blocks"),
    # gcc ends each call's vector loop early when it loads rows with gaps: shares cut per
    # thread count gave the elements before a cut other bits on two threads (libm's scalar
    # cos); the shares are the same for any count
    ("libm of a column", lambda p: sg.cos(p[:, 0:1] * 1.7) / (1 + p[:, 0:1] ** 2), (COLUMNS,),
     lambda p: np.cos(p[:, 0:1] * 1.7) / (1 + p[:, 0:1] ** 2),
     r"sg_parts = \(sg_n \+ 2047\)/2048"),
]


@pytest.mark.parametrize("name,f,args,f_np,pattern", CASES, ids=[c[0] for c in CASES])
def test_one_thread_and_two_give_the_same_bits(name, f, args, f_np, pattern, thread_count):
    cf = sg.compile(f)
    sg.set_num_threads(1)
    one = np.asarray(cf(*args))
    sg.set_num_threads(2)
    two = np.asarray(cf(*args))
    np.testing.assert_array_equal(one.view(np.int64), two.view(np.int64))
    np.testing.assert_allclose(one, f_np(*args), rtol=1e-10, atol=1e-10)
    text = cf.c_source
    assert re.search(r"static void sg_\w+_loop1\(int64_t sg_lo, "
                     r"int64_t sg_hi, [^)]*\*restrict ", text), text
    # each parallel loop runs over the shares and calls a loop's function
    parallel = [m.end() for m in re.finditer(r"#pragma omp parallel for[^\n]*\n", text)]
    assert parallel
    for end in parallel:
        assert re.match(r"\s*for \(int64_t sg_part = 0; sg_part < sg_parts; sg_part\+\+\) "
                        r"\{\n[^}]*sg_\w+_loop\d+\(lo, hi", text[end:]), text[end - 200:end + 400]
    if pattern:
        assert re.search(pattern, text), text


def test_a_gathering_loop_stays_as_openmp_outlines_it(thread_count):
    """Its threads or their flags of an index out of range (module docstring): the same bits
    on one thread and two, NumPy's numbers, and the error from either thread's share."""
    cf = sg.compile(lambda v, i: sg.sin(v[i]) * 2)
    sg.set_num_threads(1)
    one = np.asarray(cf(V, IDX))
    sg.set_num_threads(2)
    two = np.asarray(cf(V, IDX))
    np.testing.assert_array_equal(one.view(np.int64), two.view(np.int64))
    np.testing.assert_allclose(one, np.sin(V[IDX]) * 2, rtol=1e-14)
    assert "reduction(|:sg_bad)" in cf.c_source and "sg_lo" not in cf.c_source
    for at in (3, len(IDX) - 3):           # (in the first thread's share, in the second's)
        bad = IDX.copy()
        bad[at] = 10000
        with pytest.raises(IndexError, match="out of range"):
            cf(V, bad)


def test_call_time_sizes_reach_the_function(thread_count):
    cf = sg.compile(lambda x, v: sg.exp(x * v).sum(1), dynamic=True)
    for rows in (100, 37):
        x = X[:rows]
        sg.set_num_threads(2)
        two = np.asarray(cf(x, V))
        sg.set_num_threads(1)
        one = np.asarray(cf(x, V))
        np.testing.assert_array_equal(one.view(np.int64), two.view(np.int64))
        np.testing.assert_allclose(one, np.exp(x * V).sum(1), rtol=1e-12)
    assert re.search(r"_loop1\(int64_t sg_lo, int64_t sg_hi, [^)]*int64_t ", cf.c_source)


def test_a_loop_too_small_for_threads_has_no_function():
    cf = sg.compile(lambda x: x * 3 + 1)
    x = RNG.normal(size=100)
    np.testing.assert_array_equal(cf(x), x * 3 + 1)
    assert "sg_lo" not in cf.c_source and "omp parallel" not in cf.c_source
