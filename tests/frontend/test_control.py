"""Loops and branches (scan, fori_loop, while_loop, cond): each against its Python unrolling,
eagerly and compiled, values and gradients, with finite differences as the gradient oracle."""

import re

import numpy as np
import pytest

import symgrad as sg
from symgrad.ir import format_graph, interpret, verify
from symgrad.tracing import ArgSpec, trace
from symgrad import dtypes
from symgrad.build.c import toolchain
from tests.references import central_differences, chain_ode, gradient

RNG = np.random.default_rng(7)


def rnn(x, w):
    """A small recurrence: the value the tests compute by scan and by a Python loop."""
    def step(h, xt):
        h = sg.tanh(h * w + xt)
        return h, (h * h).sum()
    h, ys = sg.scan(step, sg.zeros(x.shape[1], dtype=x.dtype), x)
    return h.sum() + ys.sum()


def rnn_unrolled(x, w):
    h, total = sg.zeros(x.shape[1], dtype=x.dtype), 0.0
    for t in range(x.shape[0]):
        h = sg.tanh(h * w + x[t])
        total = total + (h * h).sum()
    return h.sum() + total


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_scan_values_and_gradients_match_the_unrolled_loop(dtype):
    x, w = RNG.normal(size=(6, 3)).astype(dtype), RNG.normal(size=3).astype(dtype)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    want = rnn_unrolled(sg.tensor(x), sg.tensor(w)).item()
    assert sg.compile(rnn)(x, w).item() == pytest.approx(want, rel=tol)
    assert rnn(sg.tensor(x), sg.tensor(w)).item() == pytest.approx(want, rel=tol)
    value, (gx, gw) = sg.value_and_grad(rnn, argnums=(0, 1))(x, w)
    xe, we = sg.tensor(x, requires_grad=True), sg.tensor(w, requires_grad=True)
    rnn_unrolled(xe, we).backward()
    np.testing.assert_allclose(gx, xe.grad.numpy(), rtol=tol * 10, atol=tol)
    np.testing.assert_allclose(gw, we.grad.numpy(), rtol=tol * 10, atol=tol)


@pytest.mark.parametrize("how", ["eager", "compiled"])
def test_scan_gradient_against_finite_differences(how):
    x = RNG.normal(size=(5, 2))
    w0 = RNG.normal(size=2)
    f = lambda w: rnn(sg.tensor(x), w)   # noqa: E731
    np.testing.assert_allclose(gradient(f, w0, how), central_differences(f, w0), rtol=1e-6,
                               atol=1e-8)


def test_reverse_scan_zero_and_one_step_and_no_xs():
    def f(x):
        def step(c, xt):
            return c * 0.5 + xt, c
        return sg.scan(step, x[0] * 0, x, reverse=True)
    for n in (0, 1, 4):
        x = RNG.normal(size=(n, 3)) if n else np.zeros((0, 3))
        c, ys = sg.compile(f)(x) if n else f(sg.tensor(np.ones((1, 3))))
        if not n:
            continue
        ce, yse = f(sg.tensor(x))
        np.testing.assert_allclose(c, ce.numpy(), rtol=1e-13)
        np.testing.assert_allclose(ys, yse.numpy(), rtol=1e-13)
    # no xs: a length, and the carry alone
    g = sg.compile(lambda a: sg.scan(lambda c, _: (c * 1.5, None), a, None, length=4)[0])
    np.testing.assert_allclose(g(np.ones(2)), 1.5 ** 4 * np.ones(2))


def test_zero_length_scan_compiled_and_eager():
    def f(x, a):
        c, ys = sg.scan(lambda c, xt: (c + xt, c * 2), a, x)
        return c, ys
    x, a = np.zeros((0, 2)), np.arange(2.0)
    c, ys = sg.compile(f)(x, a)
    np.testing.assert_array_equal(c, a)
    assert ys.shape == (0, 2)
    ce, yse = f(sg.tensor(x), sg.tensor(a))
    np.testing.assert_array_equal(ce.numpy(), a)
    assert tuple(yse.shape) == (0, 2)


def test_pytree_carries_and_a_body_with_matmul_reductions_and_indexing():
    def f(x, W):
        def step(carry, xt):
            h, n = carry["h"], carry["n"]
            h = sg.tanh(W @ h + xt[:3])
            return {"h": h, "n": n + 1}, (h.max(), h[1:].sum())
        init = {"h": sg.zeros(3, dtype=x.dtype), "n": 0}
        carry, (mx, s) = sg.scan(step, init, x)
        return carry["h"].sum() * carry["n"] + mx.sum() + s.sum()
    _compiled_value_and_gradient(f, RNG.normal(size=(4, 5)), RNG.normal(size=(3, 3)))


def _compiled_value_and_gradient(f, x, w) -> None:
    """``f(x, w)`` compiled against eager, and its gradient in ``w`` against differences."""
    want = f(sg.tensor(x), sg.tensor(w)).item()
    assert sg.compile(f)(x, w).item() == pytest.approx(want, rel=1e-13)
    fw = lambda w_: f(sg.tensor(x), w_)   # noqa: E731
    np.testing.assert_allclose(gradient(fw, w, "compiled"), central_differences(fw, w),
                               rtol=1e-6, atol=1e-8)


def test_fori_loop_static_and_traced_bounds():
    def f(x, n):
        return sg.fori_loop(0, n, lambda i, c: c * 0.9 + i, x)
    x = RNG.normal(size=3)
    cf = sg.compile(f)
    for n in (0, 1, 5, 12):
        want = x.copy()
        for i in range(n):
            want = want * 0.9 + i
        np.testing.assert_allclose(cf(x, n), want, rtol=1e-13)       # n is a runtime int
        np.testing.assert_allclose(f(sg.tensor(x), n).numpy(), want, rtol=1e-13)
    assert len(cf.specializations) == 1          # changing the trip count does not recompile
    g = sg.compile(lambda x: sg.fori_loop(2, 6, lambda i, c: c * i, x))
    np.testing.assert_allclose(g(np.ones(2)), np.full(2, 2.0 * 3 * 4 * 5))


def test_fori_loop_with_static_bounds_is_differentiable():
    def f(w):
        return sg.fori_loop(0, 7, lambda i, c: sg.sin(c * w) + 0.1 * i, w).sum()
    w0 = RNG.normal(size=3)
    for how in ("eager", "compiled"):
        np.testing.assert_allclose(gradient(f, w0, how), central_differences(f, w0),
                                   rtol=1e-6, atol=1e-8)


def test_while_loop_trip_count_changes_between_calls():
    def f(x):
        return sg.while_loop(lambda c: c[1].sum() < 100.0,
                             lambda c: (c[0] + 1, c[1] * 2.0), (0, x))
    cf = sg.compile(f)
    for scale in (0.001, 1.0, 30.0, 500.0):
        x = np.abs(RNG.normal(size=3)) * scale + 1e-3
        n, y = cf(x)
        ne, ye = f(sg.tensor(x))
        assert int(n) == int(ne)
        np.testing.assert_allclose(y, ye.numpy(), rtol=1e-14)


@pytest.mark.parametrize("how", ["eager", "compiled"])
def test_while_loop_gradient_against_finite_differences(how):
    """Reverse mode through a loop whose trip count depends on the values (it stays the same
    under the small perturbations of the differences)."""
    def f(w):
        def body(c):
            return c[0] + 1, sg.sin(c[1] * w) + c[1] * 1.5 + 0.1
        n, y = sg.while_loop(lambda c: c[1].sum() < 50.0, body, (0, w * 0.5))
        return (y * y).sum() + n
    w0 = np.array([0.3, 0.7, 0.2])
    np.testing.assert_allclose(gradient(f, w0, how), central_differences(f, w0), rtol=1e-6,
                               atol=1e-8)


def test_fori_loop_with_a_traced_trip_count_is_differentiable_without_recompiling():
    def ode(y0, p, n):
        def step(i, y):
            return y + 0.01 * sg.stack([y[1], -p[0] * y[0] - p[1] * y[1]])
        return sg.fori_loop(0, n, step, y0).sum()
    vg = sg.value_and_grad(ode, argnums=1)
    y0, p0 = np.array([1.0, 0.0]), np.array([2.0, 0.3])
    for n in (0, 1, 10, 150):
        value, g = vg(y0, p0, n)
        fp = lambda p: ode(sg.tensor(y0), p, n)   # noqa: E731
        assert value == pytest.approx(fp(sg.tensor(p0)).item(), rel=1e-13)
        np.testing.assert_allclose(g, central_differences(fp, p0), rtol=1e-6, atol=1e-9)
    assert len(vg.specializations) == 1


def test_second_derivatives_through_a_while_loop():
    """(Once refused; tests/transforms/test_while_second_order.py checks them in depth.) The
    same function through an unrolled Python loop of the same trip count is the oracle."""
    def hvp(w, loop):
        w = w.detach().requires_grad_()
        y = loop(lambda c: c.sum() < 10.0, lambda c: c * w, w + 1.0)
        (g,) = sg.autograd.grad(y.sum(), [w], create_graph=True)
        return sg.autograd.grad(g.sum(), [w])[0]

    def unrolled(cond, body, c):
        while bool(cond(c)):
            c = body(c)
        return c
    w0 = np.array([1.5, 2.0])
    want = hvp(sg.tensor(w0), unrolled).numpy()
    np.testing.assert_allclose(sg.compile(lambda w: hvp(w, sg.while_loop))(w0), want,
                               rtol=1e-12)


@pytest.mark.parametrize("how", ["eager", "compiled"])
def test_cond_both_branches_values_and_gradients(how):
    def f(x, w):
        return sg.cond(x.sum() > 0, lambda a, b: (a * b).sin().sum(),
                       lambda a, b: (a - b).exp().sum(), x, w)
    for sign in (1.0, -1.0):
        x = np.abs(RNG.normal(size=3)) * sign
        w0 = RNG.normal(size=3)
        fw = lambda w: f(sg.tensor(x), w)   # noqa: E731
        np.testing.assert_allclose(gradient(fw, w0, how), central_differences(fw, w0),
                                   rtol=1e-6, atol=1e-8)
        want = f(sg.tensor(x), sg.tensor(w0)).item()
        assert sg.compile(f)(x, w0).item() == pytest.approx(want, rel=1e-14)


def test_cond_torch_spelling_with_an_operands_tuple():
    def f(x):
        return sg.cond(x.sum() > 1.0, lambda a: a.cos(), lambda a: a.sin(), (x,))
    x = np.array([0.3, 0.2])
    np.testing.assert_allclose(sg.compile(f)(x), np.sin(x))
    np.testing.assert_allclose(sg.compile(f)(x * 10), np.cos(x * 10))


def test_lax_cond_passes_a_tuple_operand_as_it_is():
    x = np.array([0.3, 0.2])

    def f(x):
        return sg.lax.cond(x.sum() > 1.0, lambda p: p[0] * p[1], lambda p: p[0] + p[1], (x, x))
    np.testing.assert_allclose(sg.compile(f)(x), x + x)
    np.testing.assert_allclose(sg.compile(f)(x * 10), (x * 10) ** 2)


def test_nested_loop_in_cond_and_cond_in_loop():
    def f(x, w):
        def step(c, xt):
            c = sg.cond(xt.sum() > 0, lambda a: a * w, lambda a: a + w, c)
            return c, None
        inner = lambda a: sg.fori_loop(0, 3, lambda i, v: sg.tanh(v + w), a)  # noqa: E731
        c, _ = sg.scan(step, x[0], x)
        return sg.cond(c.sum() > 0, inner, lambda a: a * 2, c).sum()
    _compiled_value_and_gradient(f, RNG.normal(size=(6, 2)), RNG.normal(size=2))


def test_nested_scans_gradient():
    def f(w):
        def outer(c, _):
            inner, _ = sg.scan(lambda v, __: (sg.sin(v * w), None), c, None, length=3)
            return inner + c, None
        c, _ = sg.scan(outer, w, None, length=4)
        return c.sum()
    w0 = RNG.normal(size=2)
    np.testing.assert_allclose(gradient(f, w0, "compiled"), central_differences(f, w0),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("kind", ["scan", "cond"])
def test_second_derivatives(kind):
    """The Hessian-vector product through scan and cond, against differences of gradients."""
    def f(w):
        if kind == "scan":
            return sg.scan(lambda c, _: (sg.sin(c * w) + c, None), w, None, length=4)[0].sum()
        return sg.cond(w.sum() > -100, lambda a: (a * a * a).sum(), lambda a: a.sum(), w)
    v = RNG.normal(size=3)

    def hvp(w):
        w = w.detach().requires_grad_()
        (g,) = sg.autograd.grad(f(w), [w], create_graph=True)
        (h,) = sg.autograd.grad((g * sg.tensor(v)).sum(), [w])
        return h
    w0 = RNG.normal(size=3)
    compiled = sg.compile(hvp)(w0)
    eps = 1e-6
    fd = (gradient(f, w0 + eps * v, "eager") - gradient(f, w0 - eps * v, "eager")) / (2 * eps)
    np.testing.assert_allclose(compiled, fd, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(hvp(sg.tensor(w0)).numpy(), fd, rtol=1e-5, atol=1e-7)


def test_ir_prints_bodies_verifies_and_interprets():
    specs = [ArgSpec((5, 3), dtypes.float64, "x"), ArgSpec((3,), dtypes.float64, "w")]
    traced = trace(rnn, specs, lambda leaves: (leaves, {}), "rnn")
    text = format_graph(traced.graph)
    assert "scan [carries=1 length=5 reverse=False xs=1]" in text
    assert "body={ lambda c0:f64[3] x0:f64[3] k0:f64[3] ." in text
    verify(traced.graph)
    x, w = RNG.normal(size=(5, 3)), RNG.normal(size=3)
    (got,) = interpret(traced.graph, [x, w])
    assert got == pytest.approx(rnn_unrolled(sg.tensor(x), sg.tensor(w)).item(), rel=1e-13)


def test_carry_type_errors_name_the_carry():
    def f(x):
        return sg.scan(lambda c, xt: (c.float(), None), x[0], x)[0]
    with pytest.raises(TypeError, match=r"carry enters the body as float64\[2\] and leaves "
                                        r"it as float32\[2\]"):
        sg.compile(f)(np.ones((3, 2)))
    # a Python number takes the body's type (JAX's weak types)
    g = sg.compile(lambda x: sg.fori_loop(0, 3, lambda i, c: c + x.sum(), 0.0))
    assert g(np.ones(2)).item() == 6.0


def test_in_place_update_of_an_outside_tensor_is_refused():
    def f(x):
        acc = sg.zeros(3, dtype=sg.float64)

        def body(i, c):
            acc.add_(c)
            return c * 2
        return sg.fori_loop(0, 3, body, x)
    with pytest.raises(RuntimeError, match="outside a loop body"):
        sg.compile(f)(np.ones(3))


@pytest.mark.parametrize("script", ["ode_fit.py", "newton.py"])
def test_loop_examples_run(script):
    """The examples check their own results (the fitted parameters, the implicit function
    theorem) and fail loudly otherwise."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    repo = Path(__file__).resolve().parents[2]
    env = dict(os.environ)
    env["PYTHONPATH"] = str(repo) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, str(repo / "examples" / script)], cwd=repo,
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert ("fitted k = 9.8100" in proc.stdout) if script == "ode_fit.py" else \
        ("implicit function theorem" in proc.stdout)


@pytest.mark.parametrize("k,reverse", [(1, False), (4, False), (5, True), (7, False),
                                       (30, False)])
def test_checkpointed_scan_gradients_equal_the_plain_ones_bit_for_bit(k, reverse, monkeypatch):
    # Scalar libm: with glibc's vector math, gcc vectorizes the two programs' loops
    # differently, and a vector tanh differs from the scalar one in the last bits.
    monkeypatch.setattr(toolchain, "has_vector_math", lambda: False)

    def f(w, x, checkpoint):
        def step(c, xt):
            h = sg.tanh(c * w + xt)
            return h, (h * h).sum()
        c, ys = sg.scan(step, w * 0.5, x, reverse=reverse, checkpoint=checkpoint)
        return c.sum() + (ys * sg.arange(20.0, dtype=ys.dtype)).sum()
    w, x = RNG.normal(size=3), RNG.normal(size=(20, 3))
    plain = sg.value_and_grad(lambda w, x: f(w, x, None), argnums=(0, 1))(w, x)
    every = sg.value_and_grad(lambda w, x: f(w, x, k), argnums=(0, 1))(w, x)
    assert every[0] == plain[0]
    np.testing.assert_array_equal(every[1][0], plain[1][0])
    np.testing.assert_array_equal(every[1][1], plain[1][1])
    fw = lambda w_: f(w_, sg.tensor(x), k)   # noqa: E731
    np.testing.assert_allclose(every[1][0], central_differences(fw, w), rtol=1e-6, atol=1e-8)


def test_checkpointed_scan_stores_less_and_has_second_derivatives(monkeypatch):
    monkeypatch.setattr(toolchain, "has_vector_math", lambda: False)   # (see above)

    def f(w, k):
        return sg.fori_loop(0, 24, lambda i, c: sg.sin(c * w) + c, w, checkpoint=k).sum()
    w0 = RNG.normal(size=2)
    g = sg.value_and_grad(lambda w: f(w, 6))
    text = str(sg.inspect(g, w0, print_=False).memory)
    plain = str(sg.inspect(sg.value_and_grad(lambda w: f(w, None)), w0, print_=False).memory)
    assert "scan of 4 steps" in text and "scan of 24 steps" in plain
    v = RNG.normal(size=2)

    def hvp(w, k):
        w = w.detach().requires_grad_()
        (gr,) = sg.autograd.grad(f(w, k), [w], create_graph=True)
        return sg.autograd.grad((gr * sg.tensor(v)).sum(), [w])[0]
    np.testing.assert_allclose(sg.compile(lambda w: hvp(w, 6))(w0),
                               sg.compile(lambda w: hvp(w, None))(w0), rtol=1e-12)


def test_checkpoint_function_recomputes_and_matches():
    def block(x, w):
        return sg.tanh(x @ w).sum(dim=1)
    x, w = RNG.normal(size=(4, 3)), RNG.normal(size=(3, 5))
    for mode in ("eager", "compiled"):
        def loss(w_):
            return (sg.checkpoint(block, sg.tensor(x), w_) ** 2).sum()
        plain = lambda w_: (block(sg.tensor(x), w_) ** 2).sum()   # noqa: E731
        np.testing.assert_allclose(gradient(loss, w, mode), gradient(plain, w, mode),
                                   rtol=1e-14)
    w_t = sg.tensor(w, requires_grad=True)
    with pytest.raises(ValueError, match="other than its arguments"):
        sg.checkpoint(lambda x: sg.tanh(x @ w_t).sum(), sg.tensor(x, requires_grad=True))


def test_checkpoint_recomputes_with_the_forwards_random_numbers():
    """A checkpointed dropout: the backward's recomputation draws the forward's mask (the
    gradient is d/dx of what the forward computed: 2 * x / (1 - p) where kept, else 0), and
    leaves the random state as the backward found it."""
    sg.manual_seed(0)
    x = sg.randn(64, dtype=sg.float64, requires_grad=True)
    y = sg.checkpoint(lambda x: sg.nn.functional.dropout(x, 0.5, training=True) * x, x)
    sg.rand(3)                               # the program draws between forward and backward
    state = sg.get_rng_state()
    y.sum().backward()
    kept = y.detach().numpy() != 0
    assert 10 < kept.sum() < 54
    np.testing.assert_array_equal(x.grad.numpy(), np.where(kept, 4 * x.detach().numpy(), 0))
    assert bool((sg.get_rng_state() == state).all())


def test_a_while_loops_reverse_reads_the_tape_its_forward_loop_kept():
    """value_and_grad of a while loop runs the loop once (the reverse loop reads the tape the
    forward loop kept, freed by the entry point even when a guard between them fails)."""
    def f(x):
        y = sg.while_loop(lambda c: c.sum() < 10.0, lambda c: c * 1.5 + sg.sin(c), x)
        if y.sum() > 12.0:              # a guard between the loop and its reverse
            return (y * y).sum()
        return y.sum()
    vg = sg.value_and_grad(f)
    for scale in (0.3, 2.0, 0.3, 4.0, 1.1, 0.05):
        x = np.array([0.5, 1.0, 0.25]) * scale
        xe = sg.tensor(x, requires_grad=True)
        f(xe).backward()
        value, grad = vg(x)
        assert value == pytest.approx(f(sg.tensor(x)).item(), rel=1e-13)
        np.testing.assert_allclose(grad, xe.grad.numpy(), rtol=1e-12)
    source = vg.c_source
    assert "keeping the tape its reverse loop reads" in source and "free(tape);" in source


def test_python_control_flow_inside_a_loop_body_is_lowered_to_cond():
    """(Once an error; tests/frontend/test_control_branches.py checks it in depth.)"""
    def f(x):
        def body(c, xt):
            if xt.sum() > 0:          # a value of one step: no guard can decide it
                return c + xt, None
            return c - xt, None
        return sg.scan(body, x[0], x)[0]
    x = np.array([[1.0, 2.0], [-3.0, 0.5], [0.25, 4.0]])
    np.testing.assert_array_equal(sg.compile(f)(x), f(sg.tensor(x)).numpy())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_while_and_cond_in_both_precisions(dtype):
    def f(x, w):
        y = sg.while_loop(lambda c: c.sum() < 20.0, lambda c: c * 1.25 + sg.tanh(c * w), x)
        return sg.cond(y.max() > 5.0, lambda a: (a * w).sum(), lambda a: a.sum() * 2.0, y)
    x, w = (np.abs(RNG.normal(size=4)) + 0.1).astype(dtype), RNG.normal(size=4).astype(dtype)
    value, grad = sg.value_and_grad(f, argnums=1)(x, w)
    xe, we = sg.tensor(x), sg.tensor(w, requires_grad=True)
    out = f(xe, we)
    out.backward()
    tol = 1e-5 if dtype == np.float32 else 1e-12
    assert value.dtype == dtype and grad.dtype == dtype
    assert value == pytest.approx(out.item(), rel=tol)
    np.testing.assert_allclose(grad, we.grad.numpy(), rtol=tol * 10, atol=tol)


def test_checkpoint_inside_loop_bodies_and_its_second_derivative():
    """Found by trying it as a user: a checkpointed function given a tensor from outside
    the loop body, and grad-of-grad through checkpoint (eager and compiled)."""
    def f(w):
        return sg.scan(lambda c, _: (sg.checkpoint(lambda a, b: a * b, c, w), None),
                       w * 0 + 1.0, None, length=2)[0]
    assert sg.grad(f)(3.0) == pytest.approx(6.0)
    g = lambda w: sg.cond(w > 0, lambda v: sg.checkpoint(lambda a, b: a * b, v, w),   # noqa: E731
                          lambda v: v, w)
    assert sg.grad(g)(3.0) == pytest.approx(6.0)
    cube = lambda a: sg.checkpoint(lambda t: t ** 3, a)   # noqa: E731
    assert sg.grad(sg.grad(cube))(2.0) == pytest.approx(12.0)
    a = sg.tensor(2.0, requires_grad=True)
    (d1,) = sg.autograd.grad(cube(a), a, create_graph=True)
    (d2,) = sg.autograd.grad(d1, a)
    assert (d1.item(), d2.item()) == (12.0, 12.0)


def test_in_place_updates_of_body_inputs():
    f = sg.compile(lambda v: sg.scan(lambda c, _: (c.mul_(2.0), None), v, None, length=2)[0])
    np.testing.assert_array_equal(f(np.ones(3)), [4.0, 4.0, 4.0])
    g = sg.compile(lambda v: sg.fori_loop(0, 2, lambda i, s: (s.__setitem__(0, 5.0), s)[1], v))
    np.testing.assert_array_equal(g(np.ones(3)), [5.0, 1.0, 1.0])


def test_a_while_loop_inside_a_scan_body_is_differentiable():
    def h(p, xs):
        def step(c, x):
            return sg.while_loop(lambda y: y.sum() < x, lambda y: y * 1.5, c) * p, None
        return sg.scan(step, p, xs)[0].sum()
    xs = np.array([3.0, 10.0])
    pe = sg.tensor(np.ones(2), requires_grad=True)
    h(pe, sg.tensor(xs)).backward()
    np.testing.assert_allclose(sg.grad(h)(np.ones(2), xs), pe.grad.numpy(), rtol=1e-14)
    memory = sg.inspect(sg.value_and_grad(lambda p, n: sg.fori_loop(
        0, n, lambda i, y: y * p, p).sum()), np.ones(3), 3, print_=False).memory
    assert "reads the tape it kept" in memory


def test_loop_index_arithmetic_is_pythons_and_float_bounds_are_refused():
    body = lambda i, y: y + 0.001 * i   # noqa: E731  (i * 0.001 in double, as eagerly)
    eager = sg.fori_loop(0, 2, body, sg.zeros(1, dtype=sg.float64)).numpy()
    np.testing.assert_array_equal(sg.compile(lambda y: sg.fori_loop(0, 2, body, y))(
        np.zeros(1)), eager)
    with pytest.raises(TypeError, match="upper must be an integer"):
        sg.compile(lambda a, n: sg.fori_loop(0, n, lambda i, v: v + 1, a))(np.zeros(1), 3.5)


def test_deeply_nested_conds_compile_in_linear_time(monkeypatch):
    """Twelve conds nested in one another (a solver's Python ifs lowered in nested descents):
    passes.control_flow simplifies each body once per call, where every round at one level
    re-simplified the levels below (rounds ** depth: eight levels took more than 6 GB);
    against the same branches taken in Python."""
    depth = 12

    def nested(x):
        def branch(level):
            if level == depth:
                return lambda y: y + 1.0
            return lambda y: sg.cond(y.sum() > level, lambda z: z * 0.5, branch(level + 1), y)
        return branch(0)(x)

    def plain(x):
        for level in range(depth):
            if x.sum() > level:
                return x * 0.5
        return x + 1.0
    from symgrad.passes import control_flow
    rounds = []
    once = control_flow._simplify_once
    monkeypatch.setattr(control_flow, "_simplify_once", lambda g: rounds.append(1) or once(g))
    f = sg.compile(nested)
    for start in (np.array([-3.0, 1.0]), np.array([2.5, 3.0]), np.array([9.0, 7.0])):
        np.testing.assert_array_equal(f(start), plain(start))
    # a few rounds per body, not rounds ** depth (measured: 10 per level at depths 6, 12 and
    # 24, one of them the level's branches rewritten to read y.sum() from the level around)
    assert len(rounds) <= 10 * (depth + 1)


@pytest.mark.parametrize("how", ["eager", "compiled"])
def test_shifted_stages_are_kept_by_the_stage_not_a_shifted_copy(how):
    """The reverse loop reads ``cat([1, s[:-1]])`` of each stage ``s``: the forward loop keeps
    ``s`` (which it writes anyway) and the reverse body views it, rather than storing a
    shifted copy per stage and step."""
    x0 = RNG.uniform(size=7)
    f = lambda x: (chain_ode(x, 4, 0.25) * sg.arange(7, dtype=x.dtype)).sum()   # noqa: E731
    np.testing.assert_allclose(gradient(f, x0, how), central_differences(f, x0), rtol=1e-7,
                               atol=1e-9)
    if how == "compiled":
        g = sg.grad(f)
        g(x0)
        copies = re.findall(r"/\* k\d+: cat -> ", g.c_source)
        assert not copies, copies       # (a copy of each shifted stage: 3 per step before)
