"""The two examples of the project brief, end to end, against independent NumPy formulas."""

import numpy as np

import symgrad as sg
import symgrad.nn.functional as F


def test_torch_style_backward_inside_compiled_function():
    @sg.compile
    def f(x):
        x.requires_grad_()
        out = (3 * (x + 2) ** 2).mean()
        out.backward()
        return out, x.grad

    out, g = f(np.ones((2, 2), np.float32))
    # d/dx mean(3 (x+2)^2) = 6 (x+2) / 4 = 4.5 at x = 1; value 3 * 9 = 27
    assert out.shape == () and out.dtype == np.float32 and out == 27.0
    np.testing.assert_array_equal(g, np.full((2, 2), 4.5, np.float32))


def _bce_logits_reference(w, b, x, y):
    z = (x @ w + b).astype(np.float64)
    loss = np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z))))
    g = (1 / (1 + np.exp(-z)) - y) / z.size
    return loss, x.T.astype(np.float64) @ g, g.sum(0)


def test_logistic_regression_value_and_grad_loop(rng):
    @sg.compile
    def loss(w, b, x, y):
        z = sg.matmul(x, w) + b
        return F.binary_cross_entropy_with_logits(z, y)

    x = np.ones((1, 5), np.float32)
    y = np.zeros((1, 3), np.float32)
    w = rng.standard_normal((5, 3)).astype(np.float32)
    b = rng.standard_normal(3).astype(np.float32)
    v = loss(w, b, x, y)
    assert isinstance(v, np.ndarray) and v.shape == () and v.dtype == np.float32
    np.testing.assert_allclose(v, _bce_logits_reference(w, b, x, y)[0], rtol=1e-6)

    step = sg.value_and_grad(loss, argnums=(0, 1))
    for _ in range(50):
        val, (dw, db) = step(w, b, x, y)
        ref_val, ref_dw, ref_db = _bce_logits_reference(w, b, x, y)
        np.testing.assert_allclose(val, ref_val, rtol=1e-5)
        np.testing.assert_allclose(dw, ref_dw, rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(db, ref_db, rtol=1e-5, atol=1e-7)
        w -= 0.1 * dw
        b -= 0.1 * db
    assert "int sg_value_and_grad_loss(" in step.c_source
    report = sg.inspect(step, w, b, x, y, print_=False)
    assert "matmul" in report.traced_ir and "sigmoid" in report.adjoint_ir
    assert report.c_source == step.c_source


def test_second_derivative_of_scalar_function():
    f = lambda x: sg.sin(x) * x ** 3  # noqa: E731
    d2 = sg.grad(sg.grad(f))
    for x in (0.3, 0.7, -1.9):
        exact = -np.sin(x) * x**3 + 6 * x**2 * np.cos(x) + 6 * x * np.sin(x)
        np.testing.assert_allclose(d2(x), exact, rtol=1e-12)


def test_long_fused_chain_does_not_hit_the_recursion_limit():
    # 3000 chained scalar updates fuse into one expression far deeper than Python's recursion
    # limit; lowering must not recurse per node.
    def f(x):
        for _ in range(3000):
            x = x * 0.999 + 0.001
        return x

    x = np.array(2.0)
    expected = 2.0
    for _ in range(3000):
        expected = expected * 0.999 + 0.001
    np.testing.assert_allclose(sg.compile(f)(x), expected, rtol=1e-12)


def test_split_program_matches_unsplit(monkeypatch):
    """Large programs are emitted as several C functions ("parts"); force tiny parts on a
    gradient with reductions, broadcasting and matmuls and compare with the unsplit build."""
    from symgrad import codegen

    def loss(w, x, t):
        h = sg.tanh(x @ w)
        return F.cross_entropy(h, t) + (h * h).sum(1).mean() * w.abs().max()

    rng = np.random.default_rng(3)
    args = (rng.standard_normal((5, 4)), rng.standard_normal((6, 5)), np.array([0, 3, 1, 2, 0, 1]))
    whole = sg.value_and_grad(loss)(*args)
    monkeypatch.setattr(codegen, "PART_WEIGHT", 3)
    f = sg.value_and_grad(loss)
    split = f(*args)
    assert f.c_source.count("static int part") > 10
    np.testing.assert_allclose(split[0], whole[0], rtol=1e-12)
    np.testing.assert_allclose(split[1], whole[1], rtol=1e-12)
