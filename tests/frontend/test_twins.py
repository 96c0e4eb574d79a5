"""Twin backward functions (symgrad/frontend/core/twins.py): at trace time, a value computed
twice takes one adjoint, so the gradient graph is linear in the distinct computations; and
nothing a user can observe of one computation's own cotangent changes (hooks, retain_grad,
autograd.grad inputs, custom Functions, in-place checks, freed graphs). Gradients are checked
against hand-derived formulas (Jacobi's formula for the determinant, derivatives of sin)."""

import math

import numpy as np
import pytest

import symgrad as sg
from references import central_differences, det_by_minors


def jacobi(x, n):
    """d det(M) / dM = det(M) inv(M)^T, derived independently of symgrad."""
    m = x.reshape(n, n)
    return np.linalg.det(m), (np.linalg.det(m) * np.linalg.inv(m).T).ravel()


@pytest.mark.parametrize("n", [4, 6])
def test_recomputed_minors_give_the_determinants_gradient(n):
    x = np.random.default_rng(n).standard_normal(n * n)
    value, grad = sg.value_and_grad(det_by_minors(n))(x)
    want_value, want_grad = jacobi(x, n)
    np.testing.assert_allclose(value, want_value, rtol=1e-12)
    np.testing.assert_allclose(grad, want_grad, rtol=1e-9, atol=1e-12)


def det_by_slices(a):
    """The cofactor determinant of a matrix, torch's way: each minor is cut from its parent
    minor with slices and cat, so one minor is made by as many different view chains as there
    are paths down to it (ir/provenance.py tells them equal)."""
    m = a.shape[0]
    if m == 1:
        return a[0, 0]
    total = None
    for j in range(m):
        parts = [p for p in (a[1:, :j], a[1:, j + 1:]) if p.shape[1]]
        minor = sg.cat(parts, dim=1) if len(parts) > 1 else parts[0]
        term = a[0, j] * det_by_slices(minor)
        total = term if total is None else (total + term if j % 2 == 0 else total - term)
    return total


def test_minors_cut_by_different_slices_share_their_adjoints():
    n = 6
    x = np.random.default_rng(1).standard_normal((n, n))
    vg = sg.value_and_grad(det_by_slices)
    value, grad = vg(x)
    want_value, want_grad = jacobi(x.ravel(), n)
    np.testing.assert_allclose(value, want_value, rtol=1e-12)
    np.testing.assert_allclose(grad.ravel(), want_grad, rtol=1e-9, atol=1e-12)
    flat = sg.value_and_grad(det_by_minors(n)).trace(x.ravel())
    sliced = vg.trace(x)
    # as small as the entry-by-entry layout's graph (2**n minors), not n! paths
    assert len(sliced.graph.nodes()) < 2 * len(flat.graph.nodes())


def test_the_gradient_graph_grows_with_the_distinct_minors_not_the_paths():
    sizes = {}
    for n in (5, 6, 7):
        x = np.random.default_rng(0).standard_normal(n * n)
        traced = sg.value_and_grad(det_by_minors(n)).trace(x)
        sizes[n] = len(traced.graph.nodes())
    # Paths grow by n (n! leaf reads); distinct minors (2**n) by 2. Each size step at most
    # triples the graph here; a tree-sized adjoint grows 6x then 7x.
    assert sizes[6] < 3 * sizes[5] and sizes[7] < 3 * sizes[6], sizes
    assert sizes[7] < math.factorial(7), sizes


def twice(x, *, hook=None, retain=False):
    """sin(x) computed twice, weighted 2 and 3: d/dx = 5 cos(x)."""
    a = sg.sin(x)
    b = sg.sin(x)
    if hook is not None:
        a.register_hook(hook)
    if retain:
        a.retain_grad()
    return a, b, (2.0 * a + 3.0 * b).sum()


X = np.array([0.3, -1.2, 2.0])


# no hook: one adjoint, 2 + 3; a hook on a: a's cotangent (2) is multiplied by 10, b's (3) is
# not, (20 + 3)
@pytest.mark.parametrize("hook, factor", [(None, 5.0), (lambda g: g * 10.0, 23.0)])
def test_twins_share_one_adjoint_and_a_hook_sees_its_own_cotangent_only(hook, factor):
    @sg.compile
    def f(x):
        x = x.requires_grad_()
        _, _, loss = twice(x, hook=hook)
        loss.backward()
        return x.grad

    np.testing.assert_allclose(f(X), factor * np.cos(X), rtol=1e-14)


def test_retain_grad_keeps_its_own_cotangent():
    @sg.compile
    def f(x):
        x = x.requires_grad_()
        a, _, loss = twice(x, retain=True)
        loss.backward()
        return a.grad, x.grad

    a_grad, x_grad = f(X)
    np.testing.assert_array_equal(a_grad, np.full(3, 2.0))
    np.testing.assert_allclose(x_grad, 5 * np.cos(X), rtol=1e-14)


def test_autograd_grad_with_respect_to_one_twin():
    @sg.compile
    def f(x):
        x = x.requires_grad_()
        a, b, loss = twice(x)
        ga, gb = sg.autograd.grad(loss, [a, b])
        return ga, gb

    ga, gb = f(X)
    np.testing.assert_array_equal(ga, np.full(3, 2.0))
    np.testing.assert_array_equal(gb, np.full(3, 3.0))


def test_custom_function_twins_each_run_their_own_backward():
    calls = []

    class Scaled(sg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2.0

        @staticmethod
        def backward(ctx, g):
            calls.append(1)
            return g * 2.0

    @sg.compile
    def f(x):
        x = x.requires_grad_()
        loss = (Scaled.apply(x) + Scaled.apply(x)).sum()
        loss.backward()
        return x.grad

    np.testing.assert_array_equal(f(X), np.full(3, 4.0))
    assert len(calls) == 2   # traced once: each application's backward ran


def test_an_in_place_change_to_one_twins_saved_tensor_still_raises():
    @sg.compile
    def f(x):
        x = x.requires_grad_()
        y1 = x * 1.5
        y2 = x * 1.5
        a = y1 * y1
        b = y2 * y2     # a twin of a, until y2 changes in place
        y2.add_(1.0)
        (a + b).sum().backward()
        return x.grad

    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        f(X)


@pytest.mark.parametrize("retain", [False, True])
def test_twins_are_freed_together_unless_the_graph_is_retained(retain):
    @sg.compile
    def f(x):
        x = x.requires_grad_()
        _, b, loss = twice(x)
        loss.backward(retain_graph=retain)
        (4.0 * b).sum().backward()   # b's function: freed with its twin's, unless retained
        return x.grad

    if retain:
        np.testing.assert_allclose(f(X), 9 * np.cos(X), rtol=1e-14)
    else:
        with pytest.raises(RuntimeError, match="backward through the graph a second time"):
            f(X)


def test_eager_backward_keeps_the_tapes_order():
    # Eagerly, each computation propagates its own cotangent, torch's way: the gradient is
    # the sum of the products, rounded as NumPy rounds them (not the product of the sum).
    x = sg.tensor(X, requires_grad=True)
    a = x * 0.1
    b = x * 0.1
    (a * 0.7 + b * 0.3).sum().backward()
    want = np.float64(0.7) * 0.1 + np.float64(0.3) * 0.1
    np.testing.assert_array_equal(x.grad.numpy(), np.full(3, want))


def test_second_derivative_through_twins():
    @sg.compile
    def f(x):
        x = x.requires_grad_()
        loss = (sg.sin(x) * sg.sin(x)).sum()
        (g,) = sg.autograd.grad(loss, [x], create_graph=True)
        (h,) = sg.autograd.grad(g.sum(), [x])
        return g, h

    g, h = f(X)
    np.testing.assert_allclose(g, np.sin(2 * X), rtol=1e-13, atol=1e-15)    # 2 sin cos
    np.testing.assert_allclose(h, 2 * np.cos(2 * X), rtol=1e-13, atol=1e-15)


def recomputing_program(seed: int, steps: int = 16):
    """Random steps over a pool of 2x3 tensors, a third of them recomputing an earlier step
    exactly (the same op on the same pool entries): twins, by value and by view."""
    rng = np.random.default_rng(seed)
    program = []
    for _ in range(steps):
        if program and rng.random() < 0.35:
            program.append(program[rng.integers(len(program))])
        else:
            program.append((int(rng.integers(7)), int(rng.integers(1 << 20)),
                            int(rng.integers(1 << 20))))
    weights = rng.standard_normal(steps + 1)
    return program, weights


def run_recomputing(program, weights, x):
    pool = [x]
    for kind, i, j in program:
        a, b = pool[i % len(pool)], pool[j % len(pool)]
        if kind == 0:
            y = sg.sin(a)
        elif kind == 1:
            y = a * b
        elif kind == 2:
            y = a + 0.5 * b
        elif kind == 3:     # a view of a: the columns rolled by one (slices and cat)
            y = sg.cat([a[:, 1:], a[:, :1]], dim=1)
        elif kind == 4:     # the same values as a, cut another way
            y = sg.cat([a[:, :2], a[:, 2:]], dim=1)
        elif kind == 5:
            y = sg.exp(0.1 * a)
        else:
            y = (a.transpose(0, 1) * 2.0).transpose(0, 1)
        pool.append(y)
    return sum(w * t.sum() for w, t in zip(weights, pool))


@pytest.mark.parametrize("seed", range(12))
def test_recomputing_programs_match_eager_gradients(seed):
    program, weights = recomputing_program(seed)
    x = np.random.default_rng(seed).uniform(-1, 1, (2, 3))
    value, grad = sg.value_and_grad(lambda t: run_recomputing(program, weights, t))(x)
    eager = sg.tensor(x, requires_grad=True)
    loss = run_recomputing(program, weights, eager)
    loss.backward()
    np.testing.assert_allclose(value, loss.item(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(grad, eager.grad.numpy(), rtol=1e-11, atol=1e-12)
    # and against central differences of the eager value (independent of any backward)
    numeric = central_differences(lambda t: run_recomputing(program, weights, t), x)
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-6)


def test_twins_that_saved_a_python_number_share_one_adjoint():
    def f(x):
        return (3.0 * sg.sin(x * 2.0) + 5.0 * sg.sin(x * 2.0)).sum()

    g = sg.grad(f)
    np.testing.assert_allclose(g(X), 16 * np.cos(2 * X), rtol=1e-14)
    nodes = g.trace(X).graph.nodes()
    by_two = [n for n in nodes if n.op == "mul" and any(
        i.op == "const" and i.attr("value") == 2.0 for i in n.inputs)]
    # x * 2.0 once forward, once backward: (3 cos + 5 cos) * 2.0, not 3 cos * 2.0 + 5 cos * 2.0
    assert len(by_two) == 2, by_two
