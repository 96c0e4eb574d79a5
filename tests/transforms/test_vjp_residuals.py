"""``sg.vjp`` on arrays as two programs (transforms/residuals.py): the forward call keeps the
residuals, ``vjp_fn`` computes the backward pass from them alone.

Every pullback is checked against float64 central differences of a NumPy twin of the function
(``<c, f(x + e) - f(x - e)> / 2e``, per element of each primal); the split against the
compiled C (the backward program runs none of the forward products); the semantics against
the values at the forward call (mutated arguments and captured state do not leak in).
"""

import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import symgrad as sg
from symgrad.api.derivatives import _CACHE
from symgrad.transforms.residuals import residual_frontier

RNG = np.random.default_rng(11)


def pullback_fd(f_np, primals, c, eps=1e-6):
    """``J^T c`` of the NumPy function ``f_np`` at ``primals``, by central differences."""
    out = []
    for k, p in enumerate(primals):
        g = np.zeros_like(p)
        for i in np.ndindex(p.shape):
            d = np.zeros_like(p)
            d[i] = eps
            hi = [q + d if j == k else q for j, q in enumerate(primals)]
            lo = [q - d if j == k else q for j, q in enumerate(primals)]
            g[i] = np.sum(c * (np.asarray(f_np(*hi)) - np.asarray(f_np(*lo)))) / (2 * eps)
        out.append(g)
    return out


def mlp(x, w1, w2):
    h = sg.tanh(x @ w1)
    return sg.log(sg.exp(h @ w2).sum(1))


def mlp_np(x, w1, w2):
    h = np.tanh(x @ w1)
    return np.log(np.exp(h @ w2).sum(1))


def softmax_max(x, w):
    z = x * w
    return z.max(1).values + sg.softmax(z, 1)[:, 0] * z.sum(1)


def softmax_max_np(x, w):
    z = x * w
    e = np.exp(z - z.max(1, keepdims=True))
    return z.max(1) + (e / e.sum(1, keepdims=True))[:, 0] * z.sum(1)


def gathered(x, w):
    idx = np.array([2, 0, 1, 2, 3])
    return sg.relu(x[idx] @ w) * x[idx].sum(1, keepdim=True)


def gathered_np(x, w):
    idx = np.array([2, 0, 1, 2, 3])
    return np.maximum(x[idx] @ w, 0) * x[idx].sum(1, keepdims=True)


def looped(x, w):
    return sg.lax.fori_loop(0, 4, lambda i, h: sg.sin(h @ w) + x, x)


def looped_np(x, w):
    h = x
    for _ in range(4):
        h = np.sin(h @ w) + x
    return h


CASES = [
    (mlp, mlp_np, [(6, 5), (5, 4), (4, 3)]),
    (softmax_max, softmax_max_np, [(4, 5), (4, 5)]),
    (gathered, gathered_np, [(4, 3), (3, 2)]),
    (looped, looped_np, [(3, 3), (3, 3)]),
]


@pytest.mark.parametrize("f, f_np, shapes", CASES, ids=[c[0].__name__ for c in CASES])
def test_the_pullback_matches_central_differences(f, f_np, shapes):
    primals = [RNG.normal(size=s) * 0.5 for s in shapes]
    value, pullback = sg.vjp(f, *primals)
    np.testing.assert_allclose(value, f_np(*primals), rtol=1e-12, atol=1e-12)
    c = RNG.normal(size=np.shape(value))
    got = pullback(c)
    for g, want in zip(got, pullback_fd(f_np, primals, c)):
        np.testing.assert_allclose(g, want, rtol=1e-6, atol=1e-8)
    again = pullback(2 * c)                                # linear, and reusable
    for a, g in zip(again, got):
        np.testing.assert_allclose(a, 2 * g, rtol=1e-12, atol=1e-14)


def test_the_backward_program_runs_no_forward_product():
    """The joint graph has the forward's 2 products and the backward's 4; the backward
    program keeps the 4 and reads the forward's results as residuals."""
    # (contractions past small_products.SMALL_K: each product a kernel of its own)
    x, w1, w2 = (RNG.normal(size=s) for s in [(64, 48), (48, 32), (32, 16)])
    value, pullback = sg.vjp(mlp, x, w1, w2)
    pullback(np.ones_like(value))
    table = _CACHE[mlp]
    forward = table[("vjp forward", False)]
    fwd = forward.last_specialization.source.text
    digest = forward(x, w1, w2)[2].tobytes()     # (names the backward program of its trace)
    back = table[("vjp backward", False, digest)].last_specialization.source.text
    assert fwd.count(": matmul [") == 2
    assert back.count(": matmul [") == 4      # g @ w2.T, h.T @ g, x.T @ d, d @ w1.T
    assert "exp(" in back or "tanh(" in back   # elementwise values computed again, not stored


def test_residuals_are_what_the_forward_call_saw():
    """Arguments changed in place, and captured state replaced, after the forward call: the
    pullback is still the one at that call (JAX's semantics)."""
    scale = {"w": RNG.normal(size=(3, 3))}

    def f(x):
        return sg.tanh(x @ sg.tensor(scale["w"])) * x

    def f_np(x, w):
        return np.tanh(x @ w) * x
    x = RNG.normal(size=(4, 3))
    x0, w0 = x.copy(), scale["w"].copy()
    value, pullback = sg.vjp(f, x)
    c = RNG.normal(size=value.shape)
    (before,) = pullback(c)
    x[:] = 7.0
    scale["w"] = RNG.normal(size=(3, 3))
    (after,) = pullback(c)
    np.testing.assert_array_equal(after, before)
    want = pullback_fd(lambda x: f_np(x, w0), [x0], c)[0]
    np.testing.assert_allclose(before, want, rtol=1e-6, atol=1e-8)


FLAGGED = """
import numpy as np
import symgrad as sg

MODE = {"act": "tanh"}
W = np.random.default_rng(0).normal(size=(3, 3))


def f(x):   # what it computes depends on a global flag, its residuals do not
    h = x @ sg.tensor(W)
    return sg.tanh(h).sum() if MODE["act"] == "tanh" else sg.sigmoid(h).sum()
"""


def test_the_pullback_is_the_traced_function_s_after_its_state_changed():
    """A flag choosing tanh or sigmoid flipped between ``vjp`` and ``vjp_fn``: the residuals
    (the product and W) have the same count and shapes either way, and the pullback is still
    tanh's, the function the forward call ran (it was sigmoid's, a stale result)."""
    space: dict = {}
    exec(FLAGGED, space)
    f, w = space["f"], space["W"]
    x = RNG.normal(size=(4, 3))
    _, pullback = sg.vjp(f, x)
    space["MODE"]["act"] = "sigmoid"
    (g,) = pullback(1.0)
    want = pullback_fd(lambda x: np.tanh(x @ w).sum(), [x], 1.0)[0]
    np.testing.assert_allclose(g, want, rtol=1e-6, atol=1e-8)
    value, pullback = sg.vjp(f, x)       # and a new vjp follows the flag
    assert value == pytest.approx((1 / (1 + np.exp(-(x @ w)))).sum(), rel=1e-12)
    want = pullback_fd(lambda x: (1 / (1 + np.exp(-(x @ w)))).sum(), [x], 1.0)[0]
    np.testing.assert_allclose(pullback(1.0)[0], want, rtol=1e-6, atol=1e-8)


def test_random_constants_of_the_trace_are_the_pullback_s_too():
    """Numbers drawn while tracing are constants of the forward's code; the pullback's are
    the same ones (a second trace would draw others): f(x) = r . x, so f(x) = x . grad."""
    def f(x):
        return (x * sg.rand(5, dtype=sg.float64)).sum()
    x = RNG.normal(size=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)   # (symgrad's "drawn once" warning)
        value, pullback = sg.vjp(f, x)
        (g,) = pullback(1.0)
    assert np.all((g >= 0) & (g < 1))
    assert value == pytest.approx(x @ g, rel=1e-12)


def test_a_warm_started_forward_program_pairs_with_its_pullback(tmp_path):
    """A second process loads the forward program from the cache (not traced); its
    pullback is made from a trace at the forward call, before the flag flips."""
    (tmp_path / "prog.py").write_text(FLAGGED + """
x = np.random.default_rng(1).normal(size=(4, 3))
_, pullback = sg.vjp(f, x)
MODE["act"] = "sigmoid"
print("RESULT", repr(pullback(1.0)[0].tolist()))
""")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYMGRAD_")}
    env.update(SYMGRAD_CACHE_DIR=str(tmp_path / "cache"), SYMGRAD_DEBUG="1")
    x = np.random.default_rng(1).normal(size=(4, 3))
    w = np.random.default_rng(0).normal(size=(3, 3))
    want = pullback_fd(lambda x: np.tanh(x @ w).sum(), [x], 1.0)[0]
    for run in range(2):
        done = subprocess.run([sys.executable, str(tmp_path / "prog.py")], cwd=tmp_path,
                              capture_output=True, text=True, env=env, timeout=300)
        assert done.returncode == 0, done.stderr
        assert ("vjp_forward_f: warm start from disk" in done.stdout) == (run == 1)
        got = np.array(eval(done.stdout.split("RESULT ", 1)[1].splitlines()[0]))
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


def test_python_branches_pair_each_pullback_with_its_residuals():
    def f(x):
        if x.sum() > 0:
            return (x * x).exp().sum()
        return (x @ x.T).sum()

    def f_np(x):
        return np.exp(x * x).sum() if x.sum() > 0 else (x @ x.T).sum()
    a = np.abs(RNG.normal(size=(3, 3)))
    b = -a
    _, pull_a = sg.vjp(f, a)
    _, pull_b = sg.vjp(f, b)
    for x, pull in ((a, pull_a), (b, pull_b), (a, pull_a)):
        np.testing.assert_allclose(pull(1.0)[0], pullback_fd(f_np, [x], 1.0)[0],
                                   rtol=1e-6, atol=1e-7)


def test_structures_aux_unused_primals_and_no_residuals():
    def f(p, y):
        out = {"a": p["u"] * 3.0, "b": (p["u"] * p["v"]).sum()}
        return out, y.shape[0]
    p = {"u": RNG.normal(size=(2, 3)), "v": RNG.normal(size=(2, 3))}
    y = RNG.normal(size=4)
    value, pullback, aux = sg.vjp(f, p, y, has_aux=True)
    assert aux == 4
    ca, cb = RNG.normal(size=(2, 3)), 1.5
    gp, gy = pullback({"a": ca, "b": cb})
    np.testing.assert_allclose(gp["u"], 3 * ca + cb * p["v"], rtol=1e-14)
    np.testing.assert_allclose(gp["v"], cb * p["u"], rtol=1e-14)
    np.testing.assert_array_equal(gy, np.zeros(4))
    # a linear function keeps nothing
    value, pullback = sg.vjp(lambda x: 2.0 * x, y)
    np.testing.assert_array_equal(pullback(np.ones(4))[0], np.full(4, 2.0))
    with pytest.raises(ValueError, match="cotangent leaf 0 has shape"):
        pullback(np.ones(5))


def test_float32_and_a_reduction_index_residual():
    x = RNG.normal(size=(5, 4)).astype(np.float32)
    value, pullback = sg.vjp(lambda x: x.max(0).values * x.sum(0), x)
    assert value.dtype == np.float32
    (g,) = pullback(np.ones(4, np.float32))
    assert g.dtype == np.float32
    want = pullback_fd(lambda x: x.max(0) * x.sum(0), [x.astype(np.float64)], np.ones(4))[0]
    np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-4)


def test_the_frontier_stores_products_and_recomputes_elementwise():
    """On the IR: a product and a reduction read by the backward pass are residuals; a tanh
    of a product is computed again from the product; constants are no residuals."""
    from symgrad.ir import Node
    from symgrad import dtypes
    x = Node("input", (("index", 0), ("name", "x")), (), dtypes.float64, (4, 3))
    w = Node("input", (("index", 1), ("name", "w")), (), dtypes.float64, (3, 2))
    seed = Node("input", (("index", -1), ("name", "g")), (), dtypes.float64, (4, 2))
    xw = Node("matmul", (), (x, w), dtypes.float64, (4, 2))
    h = Node("tanh", (), (xw,), dtypes.float64, (4, 2))
    one = Node("const", (("value", 1.0),), (), dtypes.float64, ())
    d = Node("mul", (), (seed, Node("sub", (), (one, Node("mul", (), (h, h), dtypes.float64,
                                                                     (4, 2))),
                                          dtypes.float64, (4, 2))), dtypes.float64, (4, 2))
    gx = Node("matmul", (), (d, Node("permute", (("perm", (1, 0)),), (w,), dtypes.float64,
                                     (2, 3))), dtypes.float64, (4, 3))
    assert residual_frontier([gx], {seed}) == [xw, w]
