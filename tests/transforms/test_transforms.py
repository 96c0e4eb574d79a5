"""The compiled transforms: vmap, jvp, vjp, jacrev, jacfwd, jacobian, hessian, hvp, and how
they compose, against Python loops, float64 central differences and hand-derived formulas.
"""

import numpy as np
import pytest

import symgrad as sg

RNG = np.random.default_rng(7)


def fd_jacobian(f, x, eps=1e-6):
    """Central differences of the array function ``f`` (NumPy in, NumPy out) at ``x``."""
    x = np.asarray(x, dtype=np.float64)
    cols = []
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        cols.append((np.asarray(f(x + d)) - np.asarray(f(x - d))) / (2 * eps))
    out = np.stack(cols, axis=-1)
    return out.reshape(np.shape(f(x)) + x.shape)


def mlp(params, x):
    h = sg.tanh(x @ params["w1"] + params["b1"])
    return (h @ params["w2"]).sum() ** 2 / 10


def mlp_numpy(params, x):
    h = np.tanh(x @ params["w1"] + params["b1"])
    return (h @ params["w2"]).sum() ** 2 / 10


PARAMS = {"w1": RNG.normal(size=(4, 5)) / 2, "b1": RNG.normal(size=5),
          "w2": RNG.normal(size=(5, 2))}
XS = RNG.normal(size=(6, 4))


def test_vmap_maps_over_the_examples():
    got = sg.vmap(mlp, in_axes=(None, 0))(PARAMS, XS)
    want = [mlp_numpy(PARAMS, x) for x in XS]
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_per_example_gradients_are_vmap_of_grad():
    per_example = sg.vmap(sg.grad(mlp), in_axes=(None, 0))(PARAMS, XS)
    one = sg.grad(mlp)
    for i, x in enumerate(XS):
        g = one(PARAMS, x)
        for k in PARAMS:
            np.testing.assert_allclose(per_example[k][i], g[k], rtol=1e-10, atol=1e-12)
    w1 = PARAMS["w1"]
    fd = fd_jacobian(lambda w: mlp_numpy({**PARAMS, "w1": w}, XS[2]), w1)
    np.testing.assert_allclose(per_example["w1"][2], fd, rtol=1e-6, atol=1e-8)


def test_grad_of_vmap_matches_finite_differences():
    def total(w1, xs):
        return sg.vmap(lambda x: mlp({**PARAMS, "w1": w1}, x))(xs).sum()
    g = sg.grad(total)(PARAMS["w1"], XS)
    fd = fd_jacobian(lambda w: sum(mlp_numpy({**PARAMS, "w1": w}, x) for x in XS),
                     PARAMS["w1"])
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)


def test_in_axes_out_axes_and_nesting():
    a = RNG.normal(size=(3, 4))
    b = RNG.normal(size=(4, 5))
    # b mapped over its axis 1, the results stacked along axis 1
    got = sg.vmap(lambda u, v: sg.sin(u) @ v, in_axes=(None, 1), out_axes=1)(a, b)
    np.testing.assert_allclose(got, np.sin(a) @ b, rtol=1e-12)
    # vmap of vmap: an outer product
    outer = sg.vmap(sg.vmap(lambda s, t: s * t, in_axes=(None, 0)), in_axes=(0, None))
    x, y = RNG.normal(size=3), RNG.normal(size=4)
    np.testing.assert_allclose(outer(x, y), np.outer(x, y), rtol=1e-12)
    # dict in_axes, an unmapped output
    got = sg.vmap(lambda d: (d["u"] * d["v"], d["v"].sum()), in_axes=({"u": 0, "v": None},),
                  out_axes=(0, None))({"u": a, "v": a[0]})
    np.testing.assert_allclose(got[0], a * a[0], rtol=1e-12)
    np.testing.assert_allclose(got[1], a[0].sum(), rtol=1e-12)


def test_vmap_errors_name_the_problem():
    with pytest.raises(ValueError, match="different sizes"):
        sg.vmap(lambda u, v: u + v)(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="out_axes=None"):
        sg.vmap(lambda u: u * 2, out_axes=None)(np.ones(3))
    with pytest.raises(ValueError, match="in_axes"):
        sg.vmap(lambda u, v: u + v, in_axes=(0,))(np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="axis 2"):
        sg.vmap(lambda u: u, in_axes=2)(np.ones((3, 2)))
    with pytest.raises(ValueError, match="axis_size"):
        sg.vmap(lambda u: u, in_axes=None)(np.ones(3))
    got = sg.vmap(lambda u: u * 2, in_axes=None, axis_size=4)(np.ones(3))
    np.testing.assert_array_equal(got, np.full((4, 3), 2.0))


def vector_fn(x, y):
    return sg.stack([sg.sin(x[0]) * y, x[1] ** 3 - x[0] * y, sg.exp(x[2] * y / 4)])


def vector_numpy(x, y):
    return np.stack([np.sin(x[0]) * y, x[1] ** 3 - x[0] * y, np.exp(x[2] * y / 4)])


X3, Y = RNG.normal(size=3), 0.7


def test_jvp_matches_finite_differences():
    u = RNG.normal(size=3)
    out, tangent = sg.jvp(lambda x: vector_fn(x, Y), (X3,), (u,))
    np.testing.assert_allclose(out, vector_numpy(X3, Y), rtol=1e-12)
    fd = fd_jacobian(lambda x: vector_numpy(x, Y), X3) @ u
    np.testing.assert_allclose(tangent, fd, rtol=1e-7, atol=1e-9)
    # has_aux, two primals, inside a compiled function
    out, tangent, aux = sg.jvp(lambda x, y: (vector_fn(x, y), y * 2), (X3, Y), (u, 1.0),
                               has_aux=True)
    fd_y = (vector_numpy(X3, Y + 1e-6) - vector_numpy(X3, Y - 1e-6)) / 2e-6
    np.testing.assert_allclose(tangent, fd + fd_y, rtol=1e-7, atol=1e-9)
    assert float(aux) == pytest.approx(2 * Y)

    @sg.compile
    def inside(x, u):
        return sg.jvp(lambda z: vector_fn(z, Y), (x,), (u,))[1]
    np.testing.assert_allclose(inside(X3, u), fd, rtol=1e-7, atol=1e-9)


def test_vjp_returns_a_compiled_pullback():
    out, pullback = sg.vjp(vector_fn, X3, Y)
    np.testing.assert_allclose(out, vector_numpy(X3, Y), rtol=1e-12)
    v = RNG.normal(size=3)
    gx, gy = pullback(v)
    np.testing.assert_allclose(gx, v @ fd_jacobian(lambda x: vector_numpy(x, Y), X3),
                               rtol=1e-7, atol=1e-9)
    fd_y = (vector_numpy(X3, Y + 1e-6) - vector_numpy(X3, Y - 1e-6)) / 2e-6
    assert float(gy) == pytest.approx(float(v @ fd_y), rel=1e-7)


@pytest.mark.parametrize("transform", [sg.jacrev, sg.jacfwd, sg.jacobian])
def test_jacobians_match_finite_differences(transform):
    jac = transform(vector_fn)(X3, Y)
    np.testing.assert_allclose(jac, fd_jacobian(lambda x: vector_numpy(x, Y), X3),
                               rtol=1e-7, atol=1e-9)
    jx, jy = transform(vector_fn, argnums=(0, 1))(X3, Y)
    fd_y = (vector_numpy(X3, Y + 1e-6) - vector_numpy(X3, Y - 1e-6)) / 2e-6
    np.testing.assert_allclose(jy, fd_y, rtol=1e-7)
    assert jx.shape == (3, 3) and jy.shape == (3,)


def test_jacobian_structure_of_pytrees():
    def f(p):
        return {"a": p["u"] * 2, "b": (p["u"] * p["v"]).sum()}
    p = {"u": RNG.normal(size=(2, 3)), "v": RNG.normal(size=(2, 3))}
    for transform in (sg.jacrev, sg.jacfwd):
        jac = transform(f)(p)
        assert jac["a"]["u"].shape == (2, 3, 2, 3) and jac["b"]["v"].shape == (2, 3)
        np.testing.assert_allclose(jac["a"]["u"].reshape(6, 6), 2 * np.eye(6))
        np.testing.assert_allclose(jac["a"]["v"], 0)
        np.testing.assert_allclose(jac["b"]["u"], p["v"])


def rosenbrock(x):
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


def rosenbrock_hessian(x):
    """Hand-derived: tridiagonal."""
    n = len(x)
    h = np.zeros((n, n))
    for i in range(n - 1):
        h[i, i] += 1200 * x[i] ** 2 - 400 * x[i + 1] + 2
        h[i + 1, i + 1] += 200
        h[i, i + 1] = h[i + 1, i] = -400 * x[i]
    return h


def test_hessian_and_hvp_of_rosenbrock():
    x = RNG.normal(size=6)
    h = sg.hessian(rosenbrock)(x)
    np.testing.assert_allclose(h, rosenbrock_hessian(x), rtol=1e-12, atol=1e-10)
    v = RNG.normal(size=6)
    value, hv = sg.hvp(rosenbrock, (x,), (v,))
    np.testing.assert_allclose(hv, rosenbrock_hessian(x) @ v, rtol=1e-12, atol=1e-10)
    assert float(value) == pytest.approx(float(np.sum(100 * (x[1:] - x[:-1] ** 2) ** 2
                                                      + (1 - x[:-1]) ** 2)))
    # reverse over reverse and forward over forward agree
    np.testing.assert_allclose(sg.jacrev(sg.grad(rosenbrock))(x), h, rtol=1e-12, atol=1e-10)
    np.testing.assert_allclose(sg.jacfwd(sg.jacfwd(rosenbrock))(x), h, rtol=1e-12, atol=1e-10)


def test_one_compiled_function_per_signature():
    h = sg.hessian(rosenbrock)
    h(np.ones(5))
    h(np.zeros(5))
    assert len(h.specializations) == 1
    assert h.c_source.count("\nint sg_") == 1


def scan_fn(x):
    def step(c, xt):
        return c * sg.tanh(xt) + xt, c * xt
    c, ys = sg.scan(step, x[0], x)
    return c + ys.sum()


def cond_fn(x):
    return sg.cond(x.sum() > 0, lambda a: sg.sin(a) * 2, lambda a: a ** 2, (x,))


def while_fn(x):
    def body(c):
        return c[0] * 1.5 + 0.25, c[1] + 1
    return sg.while_loop(lambda c: c[0] < 4.0, body, (x, 0))


def test_vmap_of_loops_and_branches_matches_a_loop():
    xs = RNG.normal(size=(5, 4))
    np.testing.assert_allclose(sg.vmap(scan_fn)(xs), [sg.compile(scan_fn)(x) for x in xs],
                               rtol=1e-12)
    np.testing.assert_allclose(sg.vmap(cond_fn)(xs), [sg.compile(cond_fn)(x) for x in xs],
                               rtol=1e-12)
    starts = np.array([0.1, 1.0, 3.9, 7.0])      # 5, 3, 1 and 0 steps
    value, steps = sg.vmap(while_fn)(starts)
    want = [sg.compile(while_fn)(np.float64(s)) for s in starts]
    np.testing.assert_allclose(value, [w[0] for w in want], rtol=1e-12)
    np.testing.assert_array_equal(steps, [w[1] for w in want])
    assert list(steps) == [5, 3, 1, 0]


def test_derivatives_through_loops():
    xs = RNG.normal(size=(3, 4))
    per_example = sg.vmap(sg.grad(scan_fn))(xs)
    for x, g in zip(xs, per_example):
        fd = fd_jacobian(lambda z: sg.compile(scan_fn)(z), x)
        np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)
    x = xs[0]
    fd = fd_jacobian(lambda z: sg.compile(scan_fn)(z), x)
    np.testing.assert_allclose(sg.jacfwd(scan_fn)(x), fd, rtol=1e-6, atol=1e-8)
    h = sg.hessian(scan_fn)(x)
    fd_h = fd_jacobian(lambda z: sg.grad(scan_fn)(z), x)
    np.testing.assert_allclose(h, fd_h, rtol=1e-5, atol=1e-7)


def newton_root(a, b):
    """The real root of x^3 + a x - b by Newton's method in a while_loop."""
    def f(x):
        return x ** 3 + a * x - b
    state = sg.while_loop(lambda s: (sg.abs(f(s[0])) > 1e-12) & (s[1] < 100),
                          lambda s: (s[0] - f(s[0]) / (3 * s[0] ** 2 + a), s[1] + 1),
                          (b * 0.0, 0))
    return state[0]


def test_forward_mode_through_while_loop():
    a, b = 3.0, -7.5
    x = float(sg.compile(newton_root)(a, b))
    slope = 3 * x * x + a                    # the implicit function theorem
    _, t = sg.jvp(newton_root, (a, b), (1.0, 0.5))
    assert float(t) == pytest.approx(-x / slope + 0.5 / slope, rel=1e-9)
    for transform in (sg.jacfwd, sg.jacrev):
        da, db = transform(newton_root, argnums=(0, 1))(a, b)
        assert float(da) == pytest.approx(-x / slope, rel=1e-9)
        assert float(db) == pytest.approx(1 / slope, rel=1e-9)

    def powers(v):
        return sg.while_loop(lambda s: s[1] < 4, lambda s: (sg.sin(s[0]) * s[0] + 1, s[1] + 1),
                             (v, 0))[0]
    v = RNG.normal(size=3)
    fd = fd_jacobian(lambda z: sg.compile(powers)(z), v)
    np.testing.assert_allclose(sg.jacfwd(powers)(v), fd, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(sg.jacrev(powers)(v), fd, rtol=1e-6, atol=1e-8)
    hess = sg.hessian(lambda z: powers(z).sum())(v)    # (once refused)
    fd = fd_jacobian(lambda z: sg.compile(sg.grad(lambda y: powers(y).sum()))(z), v)
    np.testing.assert_allclose(hess, fd, rtol=1e-6, atol=1e-8)


def test_transforms_pickle_with_their_specializations():
    import pickle

    from references import elementwise, elementwise_numpy
    x, y = RNG.normal(size=(2, 5)), RNG.normal(size=(2, 5))
    for f, args in ((sg.vmap(elementwise), (x, y)),
                    (sg.jacrev(elementwise, argnums=(0, 1)), (x[0], y[0])),
                    (sg.hessian(elementwise), (x[0], y[0]))):
        want = f(*args)
        again = pickle.loads(pickle.dumps(f))
        assert again.name == f.name and len(again.specializations) == 1
        got = again(*args)
        for g, w in zip(np.atleast_1d(got) if not isinstance(got, tuple) else got,
                        np.atleast_1d(want) if not isinstance(want, tuple) else want):
            np.testing.assert_array_equal(g, w)
    np.testing.assert_allclose(sg.vmap(elementwise)(x, y),
                               [elementwise_numpy(a, b)[0] for a, b in zip(x, y)], rtol=1e-12)
