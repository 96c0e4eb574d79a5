"""Second (and third) derivatives through ``while_loop`` and ``fori_loop`` with a traced trip
count, ``vmap`` of their gradients with per-example trip counts, and what ``export_c`` says
about a while loop's gradient.

Oracles: central differences of the compiled gradient in float64 (no torch needed), the same
loop written as a ``fori_loop`` with the trip count as a Python int (a ``scan``, whose second
derivatives are its own rules), and, when torch is installed, torch's autograd through the
unrolled Python loop."""

import numpy as np
import pytest

import symgrad as sg

RNG = np.random.default_rng(11)


def fd_jacobian(f, x, eps=1e-6):
    """Central differences of the array function ``f`` (NumPy in, NumPy out) at ``x``."""
    x = np.asarray(x, dtype=np.float64)
    cols = []
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        cols.append((np.asarray(f(x + d)) - np.asarray(f(x - d))) / (2 * eps))
    return np.stack(cols, axis=-1).reshape(np.shape(f(x)) + x.shape)


def grow(y, w):
    """One step of the loops below (y and w of the same shape)."""
    return y * 1.3 + sg.sin(y * w) * 0.25


def until_large(x, w):
    """A while loop whose trip count depends on the values (locally constant in x and w)."""
    y = sg.while_loop(lambda c: c.sum() < 12.0, lambda c: grow(c, w), x)
    return (y * y).sum() + sg.sin(y).sum()


def trips(x, w) -> int:
    """The trip count of ``until_large`` at (x, w), by a Python loop."""
    y, n = sg.tensor(x), 0
    while y.sum().item() < 12.0:
        y, n = grow(y, sg.tensor(w)), n + 1
    return n


def fixed(x, w, n):
    """``until_large`` with its trip count given: a fori_loop with Python int bounds."""
    y = sg.fori_loop(0, n, lambda i, c: grow(c, w), x)
    return (y * y).sum() + sg.sin(y).sum()


X0, W0 = np.array([0.7, 1.1, 0.4]), np.array([0.3, -0.8, 1.2])


def test_the_test_points_are_away_from_a_change_of_trip_count():
    n = trips(X0, W0)
    assert n >= 3
    for k in range(3):
        for sign in (1e-4, -1e-4):
            d = np.zeros(3)
            d[k] = sign
            assert trips(X0 + d, W0) == n and trips(X0, W0 + d) == n


def test_hessian_through_a_while_loop():
    f = lambda x: until_large(x, sg.tensor(W0))          # noqa: E731
    hess = np.asarray(sg.hessian(f)(X0))
    g = sg.compile(sg.grad(f))
    np.testing.assert_allclose(hess, fd_jacobian(g, X0), rtol=1e-6, atol=1e-7)
    n = trips(X0, W0)
    same = np.asarray(sg.hessian(lambda x: fixed(x, sg.tensor(W0), n))(X0))
    np.testing.assert_allclose(hess, same, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(hess, hess.T, rtol=1e-12, atol=1e-12)
    # reverse over reverse (a vmap of the gradient's VJP over the basis) gives the same
    np.testing.assert_allclose(sg.jacrev(sg.grad(f))(X0), hess, rtol=1e-12, atol=1e-12)


def test_grad_of_grad_with_respect_to_the_loop_and_a_captured_parameter():
    """``w`` is read by the body through a closure: an invariant operand of the loop."""
    n = trips(X0, W0)

    def inner(x, w, loop):
        return sg.grad(lambda v: loop(x, v), argnums=0)(w)

    for argnum in (0, 1):
        outer = sg.grad(lambda x, w: (inner(x, w, until_large) ** 2).sum(), argnums=argnum)
        want = sg.grad(lambda x, w: (inner(x, w, lambda a, b: fixed(a, b, n)) ** 2).sum(),
                       argnums=argnum)
        np.testing.assert_allclose(outer(X0, W0), want(X0, W0), rtol=1e-12, atol=1e-12)
    g = sg.compile(lambda x, w: (inner(x, w, until_large) ** 2).sum())
    fd = fd_jacobian(lambda w: g(X0, w), W0)
    np.testing.assert_allclose(sg.grad(lambda x, w: (inner(x, w, until_large) ** 2).sum(),
                                       argnums=1)(X0, W0), fd, rtol=1e-6, atol=1e-7)


def test_third_derivative_through_a_while_loop():
    def f(x):
        return sg.while_loop(lambda c: c < 5.0, lambda c: c * 1.5 + sg.sin(c) * 0.5, x) ** 2
    d1 = sg.grad(f)
    d2 = sg.grad(lambda x: d1(x))
    d3 = sg.grad(lambda x: d2(x))
    x0 = 0.8
    step = 1e-5
    fd = (float(d2(x0 + step)) - float(d2(x0 - step))) / (2 * step)
    assert float(d3(x0)) == pytest.approx(fd, rel=1e-5)


def test_fori_loop_with_a_traced_trip_count_has_second_derivatives():
    def f(x, n):
        y = sg.fori_loop(0, n, lambda i, c: grow(c, c * 0 + 0.5), x)
        return (y ** 3).sum()
    for n in (0, 1, 4):
        got = np.asarray(sg.hessian(f)(X0, n))
        want = np.asarray(sg.hessian(lambda x: f(x, n))(X0)) if n == 0 else \
            np.asarray(sg.hessian(lambda x: (sg.fori_loop(0, n, lambda i, c: grow(
                c, c * 0 + 0.5), x) ** 3).sum())(X0))
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_vmap_of_the_gradient_with_per_example_trip_counts():
    xs = np.abs(RNG.normal(size=(4, 3))) + np.array([[0.1], [1.0], [2.5], [4.5]])
    counts = [trips(x, W0) for x in xs]
    assert len(set(counts)) > 1                  # the examples stop at different steps
    per = sg.vmap(sg.grad(until_large), in_axes=(0, None))(xs, W0)
    for x, g, n in zip(xs, np.asarray(per), counts):
        want = sg.grad(lambda v: fixed(v, sg.tensor(W0), n))(x)
        np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-12)
    # the gradient of a shared parameter, per example (an unbatched invariant operand)
    per_w = sg.vmap(sg.grad(until_large, argnums=1), in_axes=(0, None))(xs, W0)
    for x, g in zip(xs, np.asarray(per_w)):
        fd = fd_jacobian(lambda w: sg.compile(until_large)(x, w), W0)
        np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-7)


def test_against_torch_through_the_unrolled_loop():
    torch = pytest.importorskip("torch")

    def torch_f(x, w):
        y = x
        while y.sum() < 12.0:
            y = y * 1.3 + torch.sin(y * w) * 0.25
        return (y * y).sum() + torch.sin(y).sum()
    x = torch.tensor(X0, requires_grad=True)
    (g,) = torch.autograd.grad(torch_f(x, torch.tensor(W0)), [x], create_graph=True)
    (gg,) = torch.autograd.grad((g ** 2).sum(), [x])

    def f(x):
        return (sg.grad(lambda v: until_large(v, sg.tensor(W0)))(x) ** 2).sum()
    np.testing.assert_allclose(sg.grad(f)(X0), gg.numpy(), rtol=1e-12, atol=1e-12)


def test_export_of_a_while_loop_gradient_says_what_to_write(tmp_path):
    g = sg.grad(lambda x: until_large(x, sg.tensor(W0)))
    with pytest.raises(NotImplementedError) as info:
        g.export_c(tmp_path, X0)
    text = str(info.value)
    assert "test_while_second_order.py:" in text and "sg.while_loop(" in text
    assert "length=max_steps" in text and "allocates nothing" in text

    def bounded(x, w):                           # what the message says to write instead
        y = sg.scan(lambda c, _: (sg.where(c.sum() < 12.0, grow(c, w), c), None), x,
                    length=20)[0]
        return (y * y).sum() + sg.sin(y).sum()
    bg = sg.grad(lambda x: bounded(x, sg.tensor(W0)))
    bg.export_c(tmp_path, X0)
    assert (tmp_path / "Makefile").exists()
    np.testing.assert_allclose(bg(X0), g(X0), rtol=1e-12)
