"""Loop fusion, windowed views and threads: the shape of the generated C, and its numbers.

Oracles: hand-derived NumPy gradients, NumPy scatter for the gradients of slices, the NumPy
interpreter on the same graph (random fused programs), and the single-thread build for the
threaded one.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from references import chain_ode, chain_ode_numpy, elementwise, elementwise_numpy

import symgrad as sg
from symgrad.ir import interpret

RNG = np.random.default_rng(11)


def kernels(c_source: str) -> list[str]:
    """The titles of the kernels in a C text (one per loop nest / BLAS call)."""
    return re.findall(r"/\* k\d+: (.*?) \*/", c_source)


# ------------------------------------------------------------------ whole-function fusion

def test_forward_and_backward_of_an_elementwise_function_are_one_loop():
    f = sg.value_and_grad(elementwise, argnums=(0, 1))
    x, y = RNG.uniform(-2, 2, 1000), RNG.uniform(-2, 2, 1000)
    value, (dx, dy) = f(x, y)
    ks = kernels(f.c_source)
    assert len(ks) == 1, ks                     # value, dx, dy and the sum: one pass
    assert "3 stores" in ks[0]
    assert "tmp" not in f.c_source              # no intermediate array in memory
    want = elementwise_numpy(x, y)
    np.testing.assert_allclose(value, want[0], rtol=1e-12)
    np.testing.assert_allclose(dx, want[1], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(dy, want[2], rtol=1e-12, atol=1e-14)


def _rosenbrock(x):
    return sg.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def _rosenbrock_grad_numpy(x):
    g = np.zeros_like(x)
    a = x[1:] - x[:-1] ** 2
    g[:-1] += -400 * x[:-1] * a - 2 * (1 - x[:-1])
    g[1:] += 200 * a
    return g


def test_gradient_of_slices_is_read_through_windows_not_zero_filled():
    f = sg.value_and_grad(_rosenbrock)
    x = RNG.uniform(-2, 2, 500)
    value, g = f(x)
    ks = kernels(f.c_source)
    # one loop over the 499 pairs (value and the three slice gradients), one over the 500
    # outputs reading those three through windows
    assert len(ks) == 2, ks
    assert "unslice" not in f.c_source
    assert "(i0 >= 1) ?" in f.c_source and "(i0 < 499) ?" in f.c_source
    np.testing.assert_allclose(value, np.sum(100 * (x[1:] - x[:-1] ** 2) ** 2
                                             + (1 - x[:-1]) ** 2), rtol=1e-12)
    np.testing.assert_allclose(g, _rosenbrock_grad_numpy(x), rtol=1e-12, atol=1e-12)


SLICES = [
    ("x[1:]", lambda x: x[1:], (7,)),
    ("x[:-2]", lambda x: x[:-2], (7,)),
    ("x[2:5]", lambda x: x[2:5], (7,)),
    ("x[::2] (strided: a kernel)", lambda x: x[::2], (7,)),
    ("x[1:, :-2]", lambda x: x[1:, :-2], (4, 5)),
    ("x[1:3].T", lambda x: x[1:3].T, (4, 5)),
    ("x[:, 1:][None]", lambda x: x[:, 1:][None], (4, 5)),
    ("x[1:][1:]", lambda x: x[1:][1:], (6,)),
    ("x[1:].reshape(-1)", lambda x: x[1:, 2:].reshape(-1), (4, 5)),
]


@pytest.mark.parametrize("label,take,shape", SLICES, ids=[s[0] for s in SLICES])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gradient_of_a_slice_equals_numpy_scatter(label, take, shape, dtype):
    x = RNG.uniform(-1, 1, shape).astype(dtype)
    w = RNG.uniform(-1, 1, take(np.zeros(shape)).shape).astype(dtype)
    # d/dx sum(w * sin(x)[slice]) = cos(x) * scatter(w): the window meets a fused consumer
    f = sg.grad(lambda x, w: sg.sum(w * take(sg.sin(x))))
    got = f(x, w)
    positions = take(np.arange(int(np.prod(shape))).reshape(shape))
    scattered = np.zeros(int(np.prod(shape)), dtype)
    np.add.at(scattered, positions.ravel(), w.ravel())
    scattered = scattered.reshape(shape)
    tol = 1e-6 if dtype == np.float32 else 1e-14
    np.testing.assert_allclose(got, np.cos(x) * scattered, rtol=tol, atol=tol)


def test_a_window_feeding_a_matmul_is_made_dense():
    f = sg.grad(lambda x, w: sg.sum((x[1:] @ w) ** 2))
    x, w = RNG.uniform(-1, 1, (6, 4)), RNG.uniform(-1, 1, (4, 3))
    got = f(x, w)
    want = np.zeros_like(x)
    want[1:] = 2 * (x[1:] @ w) @ w.T
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)


def test_reductions_over_different_axes_of_one_space():
    f = sg.compile(lambda x: (sg.exp(x).sum(0), sg.exp(x).sum(1), (x * x).max(1).values,
                              sg.exp(x) * 2))
    x = RNG.uniform(-1, 1, (5, 6))
    a, b, c, d = f(x)
    np.testing.assert_allclose(a, np.exp(x).sum(0), rtol=1e-13)
    np.testing.assert_allclose(b, np.exp(x).sum(1), rtol=1e-13)
    np.testing.assert_array_equal(c, (x * x).max(1))
    np.testing.assert_allclose(d, np.exp(x) * 2, rtol=1e-15)   # libmvec: within 4 ulp


def test_a_value_needed_after_a_matmul_is_stored_not_fused_across_it():
    # tanh(x) is read by the matmul and by the product after it: the groups stay convex.
    def f(x, w):
        t = sg.tanh(x)
        return sg.sum(t * (t @ w))
    x, w = RNG.uniform(-1, 1, (4, 4)), RNG.uniform(-1, 1, (4, 4))
    value, g = sg.value_and_grad(f, argnums=(0, 1))(x, w)
    t = np.tanh(x)
    m = t @ w
    np.testing.assert_allclose(value, np.sum(t * m), rtol=1e-13)
    dt = m + t @ w.T
    np.testing.assert_allclose(g[0], dt * (1 - t * t), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(g[1], t.T @ t, rtol=1e-12, atol=1e-14)


def _random_program(rng, n_ops: int):
    """A random elementwise/reduction program over (4, 5) and its broadcasts, with shared
    subexpressions, as a Python function of two arguments."""
    unary = [sg.sin, sg.exp, sg.tanh, lambda v: v * v, lambda v: -v, sg.sigmoid]
    binary = [lambda a, b: a + b, lambda a, b: a * b, lambda a, b: a - b,
              lambda a, b: sg.maximum(a, b)]
    plan = []
    for _ in range(n_ops):
        kind = rng.integers(0, 4)
        plan.append((int(kind), int(rng.integers(0, 1 << 30)), int(rng.integers(0, 1 << 30))))

    def fn(x, y):
        pool = [x, y, y[:1], x[:, :1]]
        outs = []
        for kind, p, q in plan:
            a, b = pool[p % len(pool)], pool[q % len(pool)]
            if kind == 0:
                pool.append(unary[q % len(unary)](a))
            elif kind == 1:
                pool.append(binary[q % len(binary)](a, b))
            elif kind == 2 and a.ndim == 2:
                outs.append(a.sum(q % 2, keepdim=True) if p % 2 else a.amax(q % 2))
            else:
                pool.append(sg.tanh(a) * 0.5 + b)
        return tuple(outs) + (pool[-1], pool[-2].sum())
    return fn


@pytest.mark.parametrize("seed", range(12))
def test_random_fused_programs_match_the_interpreter(seed):
    rng = np.random.default_rng(seed)
    fn = _random_program(rng, 14)
    x, y = rng.uniform(-1, 1, (4, 5)), rng.uniform(-1, 1, (4, 5))
    for cf in (sg.compile(fn), sg.grad(lambda x, y: sum(o.sum() for o in fn(x, y)),
                                       argnums=(0, 1))):
        spec, leaves = cf.specialize(x, y)
        got = spec.run(leaves)
        want = interpret(spec.compiled.traced.graph, leaves)
        for a, b in zip(got, want):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_a_cheap_value_read_by_another_loop_is_computed_again_there(monkeypatch):
    """RK4 steps of the chain ODE in a fori_loop: each stage ``k = x * cat([1, s[:-1]])``
    is read by its loop and by the step's sum in a later loop (the next stage reads ``s``
    shifted: a loop of its own). The sum multiplies again instead of loading stored stages
    (fusion.RECOMPUTED): the same bits as storing them, NumPy's numbers, fewer stores."""
    from symgrad.lower import fusion
    x = RNG.uniform(-1, 1, 1000)
    again = sg.compile(lambda x: chain_ode(x, 3, 0.1))
    got = again(x)
    monkeypatch.setattr(fusion, "RECOMPUTED", frozenset())
    stored = sg.compile(lambda x: chain_ode(x, 3, 0.1))
    want = stored(x)
    np.testing.assert_array_equal(got.view(np.int64), want.view(np.int64))
    np.testing.assert_allclose(got, chain_ode_numpy(x, 3, 0.1), rtol=1e-14)
    stores = [len(re.findall(r"tmp\d+\[i0\] = ", cf.c_source)) for cf in (again, stored)]
    assert stores == [3, 6], stores      # (the three shifted sums; and the three stages)


def test_values_computed_again_do_not_chain():
    """Two cheap values, the second of the first (``b = a * x``), both read by the step's
    sum in a later loop: only ``a`` is computed again there, ``b`` is loaded (a chain would
    grow every later loop by the whole chain)."""
    def f(x, y):
        def body(i, v):
            a = x * sg.cat([sg.ones(1, dtype=x.dtype), v[:-1]])
            b = a * x
            s = v + a + b                      # (read shifted below: the sum's own loop)
            return a + b + x * sg.cat([sg.ones(1, dtype=x.dtype), s[:-1]])
        return sg.fori_loop(0, 2, body, y)
    x, y = RNG.uniform(-1, 1, 500), RNG.uniform(-1, 1, 500)
    cf = sg.compile(f)
    v = y
    for _ in range(2):
        a = x * np.concatenate([[1.0], v[:-1]])
        b = a * x
        v = a + b + x * np.concatenate([[1.0], (v + a + b)[:-1]])
    np.testing.assert_allclose(cf(x, y), v, rtol=1e-14)
    # a and b in the first loop; a again and x * s in the second (b loaded, not computed)
    assert len(re.findall(r"\[mul\]", cf.c_source)) == 4, cf.c_source


# ------------------------------------------------------------------ threads

def test_large_loops_run_on_threads_with_the_same_result():
    f = sg.value_and_grad(elementwise, argnums=(0, 1))
    x, y = RNG.uniform(-2, 2, 300_000), RNG.uniform(-2, 2, 300_000)
    before = sg.get_num_threads()
    try:
        sg.set_num_threads(1)
        one = f(x, y)
        sg.set_num_threads(2)
        two = f(x, y)
    finally:
        sg.set_num_threads(before)
    assert "#pragma omp parallel for" in f.c_source and "num_threads(nthreads)" in f.c_source
    # The sum's order differs; elementwise values may differ in the last bits because the
    # threads' block edges move which elements the vector (libmvec) and which the scalar
    # libm variant computes (both within 4 ulp).
    np.testing.assert_allclose(two[0], one[0], rtol=1e-12)
    np.testing.assert_allclose(two[1][0], one[1][0], rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(two[1][1], one[1][1], rtol=1e-14, atol=1e-15)
    want = elementwise_numpy(x, y)
    np.testing.assert_allclose(two[0], want[0], rtol=1e-12)


def test_small_loops_stay_on_one_thread():
    f = sg.value_and_grad(elementwise, argnums=(0, 1))
    f(np.ones(100), np.ones(100))
    assert "omp parallel" not in f.c_source


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_set_num_threads_rejects_non_positive_ints(bad):
    with pytest.raises(ValueError, match="positive int"):
        sg.set_num_threads(bad)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_runs_threaded_code_single_threaded_without_hanging(tmp_path):
    script = tmp_path / "fork_child.py"
    script.write_text(textwrap.dedent("""
        import os, warnings
        import numpy as np, symgrad as sg
        sg.set_num_threads(2)
        f = sg.compile(lambda x: sg.sum(sg.sin(x) * x))
        x = np.linspace(0, 1, 500_000)
        parent = f(x)
        assert "omp parallel" in f.c_source
        pid = os.fork()
        if pid == 0:
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                sg.set_num_threads(2)             # refused: stays 1
            ok = (sg.get_num_threads() == 1 and len(w) == 1
                  and abs(f(x) - parent) <= 1e-9 * abs(parent))
            os._exit(0 if ok else 3)
        _, status = os.waitpid(pid, 0)
        print("child exit", os.waitstatus_to_exitcode(status))
    """))
    env = dict(os.environ, SYMGRAD_NUM_THREADS="2")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert "child exit 0" in out.stdout


# ------------------------------------------------------------------ buffer plan

def test_temporaries_reuse_workspace_bytes_once_dead():
    # A chain of matmuls: each product is a temporary read only by the next one.
    def chain(x, w):
        for _ in range(6):
            x = sg.tanh(x @ w)
        return x.sum()
    f = sg.value_and_grad(chain, argnums=(0, 1))
    x, w = RNG.uniform(-1, 1, (32, 32)), RNG.uniform(-0.3, 0.3, (32, 32))
    spec, leaves = f.specialize(x, w)
    temps = {v.buffer for k in spec.compiled.program.kernels for v in _kernel_views(k)
             if v.buffer.role == "temp"}
    total = sum(-(-b.size * b.dtype.itemsize // 64) * 64 for b in temps)
    program = spec.compiled.program
    assert program.workspace_bytes < total / 2, (program.workspace_bytes, total)
    assert any(b.shared for b in temps)
    # no two temporaries that are live at once overlap
    live = {}
    for i, k in enumerate(spec.compiled.program.kernels):
        for v in _kernel_views(k):
            if v.buffer.role == "temp":
                live.setdefault(v.buffer, [i, i])[1] = i
    for a in temps:
        for b in temps:
            if a is not b and not (live[a][1] < live[b][0] or live[b][1] < live[a][0]):
                a_end = a.offset + a.size * a.dtype.itemsize
                b_end = b.offset + b.size * b.dtype.itemsize
                assert a_end <= b.offset or b_end <= a.offset, (a, b)
    # and the numbers: against the same chain in NumPy, differentiated by hand
    value, (gx, gw) = f(x, w)
    hs, h = [], x
    for _ in range(6):
        hs.append(h)
        h = np.tanh(h @ w)
    np.testing.assert_allclose(value, h.sum(), rtol=1e-12)
    g, gw_want = np.ones_like(h), np.zeros_like(w)
    out = h
    for h_in in reversed(hs):
        pre_grad = g * (1 - out * out)
        gw_want += h_in.T @ pre_grad
        g = pre_grad @ w.T
        out = h_in
    np.testing.assert_allclose(gx, g, rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(gw, gw_want, rtol=1e-10, atol=1e-13)


def _kernel_views(k):
    return k.views()


def test_programs_that_call_blas_leave_the_threads_to_blas():
    # OpenMP threads spinning after a parallel loop starve OpenBLAS's own pool.
    f = sg.value_and_grad(lambda w, x: sg.sum(sg.tanh(x @ w) * sg.sin(x @ w)))
    w, x = RNG.uniform(-1, 1, (64, 512)), RNG.uniform(-1, 1, (512, 64))
    value, g = f(w, x)
    assert "scipy_cblas_dgemm" in f.c_source
    assert "omp parallel" not in f.c_source
    h = x @ w
    np.testing.assert_allclose(value, np.sum(np.tanh(h) * np.sin(h)), rtol=1e-12)
    dh = (1 - np.tanh(h) ** 2) * np.sin(h) + np.tanh(h) * np.cos(h)
    np.testing.assert_allclose(g, x.T @ dh, rtol=1e-10, atol=1e-10)
