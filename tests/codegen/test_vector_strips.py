"""Strip loops printed as one loop over vectors (codegen/c/rotate.py): each stage's values
read one or more elements behind come from registers (a lane shuffle of the stage's vector
and the one before it), and the stages no kernel outside the run reads are not stored; a
reverse pass's loops reading ahead, as one loop over vectors from the last.

Every check compares bits with the strips alone (the vector loop switched off) and numbers
with NumPy: the chain ODE's RK4 in float64 and float32 at lengths around the strip and vector
boundaries, shifts of one to eight elements (two vectors of float64 lanes read), a shift
longer than a vector and a stage calling exp (no vector loop), the build without AVX-512 (the
strips run everything), and a gradient through vector-looped stages against central
differences, whose reverse pass reads ahead (bits with and without its vector loop, on one
thread and on two, where the loops run as they were). On a machine without AVX-512 the
vector loop is printed but not compiled: these tests then check the strips.
"""

import numpy as np
import pytest
from references import chain_ode, chain_ode_numpy

import symgrad as sg
from symgrad.build.c import compiler
from symgrad.codegen.c import rotate

RNG = np.random.default_rng(41)
SHUFFLE = "__builtin_shufflevector"


def _compiled(f, x, vectors=True, monkeypatch=None):
    """(f compiled and called at x, its C); ``vectors=False``: strips only."""
    if not vectors:
        monkeypatch.setattr(rotate, "vector_loop", lambda k, number: None)
    c = sg.compile(f)
    out = c(x)
    if not vectors:
        monkeypatch.undo()
    return out, c.c_source


def _same_bits(a, b):
    assert a.dtype == b.dtype
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [20000, 20001, 20007, 20015, 45 * 640 + 9])
def test_the_chain_ode_in_vectors_has_the_bits_of_its_strips(n, dtype, monkeypatch):
    x = RNG.uniform(size=n).astype(dtype)
    f = lambda x: chain_ode(x, 4, 0.05)        # noqa: E731
    got, c = _compiled(f, x)
    assert SHUFFLE in c and rotate.GUARD in c
    want, c0 = _compiled(f, x, vectors=False, monkeypatch=monkeypatch)
    assert "in strips of" in c0 and SHUFFLE not in c0
    _same_bits(got, want)
    tol = 1e-12 if dtype == np.float64 else 2e-5
    np.testing.assert_allclose(got, chain_ode_numpy(x.astype(np.float64), 4, 0.05), rtol=tol)


def test_stages_read_only_in_the_run_are_not_stored_in_the_vector_loop():
    x = RNG.uniform(size=30000)
    _, c = _compiled(lambda x: chain_ode(x, 2, 0.1), x)
    loop = c[c.index("for (int64_t i0 = 8; i0 <"):]
    loop = loop[:loop.index("sg_end =")]
    body, after = loop.split("p0 = ", 1)
    stores = [line for line in body.splitlines() if line.strip().startswith("*(sg_vu *)")]
    assert len(stores) == 1 and "out0" in stores[0], stores   # the step's result only
    # each stage read behind: its last vector stored for the strips after the vectors
    assert after.count("read by the loops after the vectors") == 3


def _shifted(d, op=None):
    """Two RK4 steps of y' = x * g((1, .., 1, y_0, .., y_{n-1-d})) from y = 0 in a
    ``fori_loop``: each stage reads the one before ``d`` elements behind (``op``: g, else
    the identity)."""
    def step(x, y, cat, ones, g):
        def f(v):
            return x * g(cat([ones(d), v[:-d]]))
        h = 0.1
        k1 = f(y)
        k2 = f(y + h / 2 * k1)
        k3 = f(y + h / 2 * k2)
        k4 = f(y + h * k3)
        return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    g = (lambda v: v) if op is None else op

    def f(x):
        ones = lambda n: sg.ones(n, dtype=x.dtype)      # noqa: E731
        return sg.fori_loop(0, 2, lambda i, y: step(x, y, sg.cat, ones, g), sg.zeros_like(x))

    def f_np(x):
        y = np.zeros_like(x)
        for _ in range(2):
            y = step(x, y, np.concatenate, np.ones, (lambda v: v) if op is None else np.exp)
        return y
    return f, f_np


@pytest.mark.parametrize("d", [1, 2, 3, 7, 8, 9])
def test_values_read_up_to_a_vector_behind(d, monkeypatch):
    n = 24001
    x = RNG.uniform(size=n)
    f, f_np = _shifted(d)
    got, c = _compiled(f, x)
    assert "in strips of" in c
    assert (SHUFFLE in c) == (d <= 8)        # (8 float64 lanes: a shift of 9 is not kept)
    if d <= 8:
        assert "__builtin_shufflevector(p0, " in c and f", {8 - d}, {9 - d}," in c
    want, _ = _compiled(f, x, vectors=False, monkeypatch=monkeypatch)
    _same_bits(got, want)
    np.testing.assert_allclose(got, f_np(x), rtol=1e-14)


def test_a_stage_calling_a_function_keeps_the_strips(monkeypatch):
    x = RNG.uniform(size=24000)
    f, f_np = _shifted(1, op=sg.exp)
    got, c = _compiled(f, x)
    assert "in strips of" in c and SHUFFLE not in c
    np.testing.assert_allclose(got, f_np(x), rtol=1e-14)


def test_without_avx512_the_strips_and_loops_run_everything(monkeypatch):
    n = 20007
    x = RNG.uniform(size=n)
    w = RNG.normal(size=n)
    f = lambda x: chain_ode(x, 3, 0.1)        # noqa: E731
    want, c = _compiled(f, x)
    grad = sg.grad(lambda x: (f(x) * sg.tensor(w)).sum())
    want_grad = grad(x)
    assert SHUFFLE in c and "from the last" in grad.c_source
    monkeypatch.setattr(compiler, "DEFAULT_OPT_FLAGS",
                        (*compiler.DEFAULT_OPT_FLAGS, "-mno-avx512f"))
    got, c2 = _compiled(f, x)
    assert c2 == c        # the same C, built without the vector loop
    _same_bits(got, want)
    np.testing.assert_allclose(got, chain_ode_numpy(x, 3, 0.1), rtol=1e-13)
    grad2 = sg.grad(lambda x: (f(x) * sg.tensor(w)).sum())
    _same_bits(grad2(x), want_grad)
    assert grad2.c_source == grad.c_source


def test_a_gradient_through_vector_looped_stages_matches_central_differences():
    n = 20003
    x = RNG.uniform(size=n)
    w = RNG.normal(size=n)
    grad = sg.grad(lambda x: (chain_ode(x, 2, 0.1) * sg.tensor(w)).sum())
    got = grad(x)
    assert SHUFFLE in grad.c_source and "one loop over vectors from the last" in grad.c_source
    eps = 1e-6
    for i in (0, 1, 7, 8, 9, 4321, n - 9, n - 2, n - 1):
        e = np.zeros(n)
        e[i] = eps
        fd = ((chain_ode_numpy(x + e, 2, 0.1) * w).sum() -
              (chain_ode_numpy(x - e, 2, 0.1) * w).sum()) / (2 * eps)
        assert abs(got[i] - fd) <= 1e-6 * max(1.0, abs(fd)), (i, got[i], fd)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [20000, 20005, 20019])
def test_the_reverse_pass_in_vectors_has_the_bits_of_its_loops(n, dtype, monkeypatch,
                                                               thread_count):
    x = RNG.uniform(size=n).astype(dtype)
    w = RNG.normal(size=n).astype(dtype)
    f = lambda x: (chain_ode(x, 3, 0.1) * sg.tensor(w)).sum()      # noqa: E731
    sg.set_num_threads(1)
    vectors = sg.grad(f)
    got = vectors(x)
    assert "one loop over vectors from the last" in vectors.c_source
    sg.set_num_threads(2)           # (threads: the loops as they were)
    _same_bits(vectors(x), got)
    sg.set_num_threads(1)
    monkeypatch.setattr(rotate, "vector_loop", lambda k, number: None)
    plain = sg.grad(f)
    want = plain(x)
    assert SHUFFLE not in plain.c_source
    _same_bits(got, want)


@pytest.mark.parametrize("d", [1, 2, 8, 9])
def test_a_reverse_pass_reading_up_to_a_vector_ahead(d, monkeypatch):
    n = 24003
    x = RNG.uniform(size=n)
    w = RNG.normal(size=n)
    f, _ = _shifted(d)
    loss = lambda x: (f(x) * sg.tensor(w)).sum()       # noqa: E731
    grad = sg.grad(loss)
    got = grad(x)
    assert ("one loop over vectors from the last" in grad.c_source) == (d <= 8)
    monkeypatch.setattr(rotate, "vector_loop", lambda k, number: None)
    _same_bits(got, sg.grad(loss)(x))
