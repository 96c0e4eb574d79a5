"""Shape-generic compilation (api/dynamic.py, dims.py, runtime/generic.py): one compile serves
every size of the marked dimensions, and every size gets the right answer.

Oracles: hand-derived NumPy values and gradients (logistic regression, a tanh MLP with softmax
cross-entropy), NumPy reductions; compile counts come from counting the pipeline's builds.
"""

from __future__ import annotations

import functools
import logging
import pickle

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F


def _logreg(w, X, y):
    z = X @ w
    return (F.softplus(z) - y * z).mean()


def _logreg_numpy(w, X, y):
    z = X @ w
    p = 1 / (1 + np.exp(-z))
    return np.mean(np.logaddexp(0, z) - y * z), X.T @ (p - y) / len(y)


def _data(n, d=5, seed=0):
    rng = np.random.default_rng(seed + n)
    return rng.standard_normal(d), rng.standard_normal((n, d)), \
        (rng.random(n) < 0.5).astype(float)


def test_logreg_one_compile_for_every_batch_size(builds):
    f = sg.compile(sg.value_and_grad(_logreg), dynamic_dims={"X": 0, "y": 0})
    for n in (1000, 7, 1, 256, 3, 1000):
        w, X, y = _data(n)
        v, g = f(w, X, y)
        rv, rg = _logreg_numpy(w, X, y)
        assert v == pytest.approx(rv, rel=1e-13, abs=1e-15)
        np.testing.assert_allclose(g, rg, rtol=1e-12, atol=1e-15)
    assert builds[0] == 1
    assert len(f.shape_generic) == 1 and "X_size0" in f.shape_generic[0]
    assert "int64_t X_size0" in f.c_source


def _mlp(w1, b1, w2, b2, X, t):
    return F.cross_entropy(sg.tanh(X @ w1 + b1) @ w2 + b2, t)


def _mlp_numpy(w1, b1, w2, b2, X, t):
    h = np.tanh(X @ w1 + b1)
    z = h @ w2 + b2
    z = z - z.max(1, keepdims=True)
    p = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    n = len(t)
    value = -np.mean(np.log(p[np.arange(n), t]))
    dz = p.copy()
    dz[np.arange(n), t] -= 1
    dz /= n
    dh = dz @ w2.T * (1 - h ** 2)
    return value, (X.T @ dh, dh.sum(0), h.T @ dz, dz.sum(0))


def test_mlp_one_compile_matches_hand_derived_gradients(builds):
    rng = np.random.default_rng(3)
    params = [rng.standard_normal((40, 16)) * 0.2, rng.standard_normal(16) * 0.1,
              rng.standard_normal((16, 10)) * 0.2, rng.standard_normal(10) * 0.1]
    f = sg.compile(sg.value_and_grad(_mlp, argnums=(0, 1, 2, 3)),
                   dynamic_dims={"X": (0,), "t": (0,)})
    for n in (1, 7, 256, 1000):
        X, t = rng.standard_normal((n, 40)), rng.integers(0, 10, n)
        v, g = f(*params, X, t)
        rv, rg = _mlp_numpy(*params, X, t)
        assert v == pytest.approx(rv, rel=1e-12)
        for a, b in zip(g, rg):
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-13)
    assert builds[0] == 1


def test_a_size_used_as_a_number_is_read_at_call_time(builds):
    @sg.compile(dynamic=True)
    def f(x):
        return x.sum() / x.shape[0] + x.shape[1] * 3
    for shape in ((3, 4), (10, 7), (1, 1), (6, 2)):
        x = np.arange(np.prod(shape), dtype=float).reshape(shape)
        assert f(x) == pytest.approx(x.sum() / shape[0] + shape[1] * 3, rel=1e-14)
    assert builds[0] == 1


def test_a_size_times_a_float_is_not_generic_but_right(builds):
    # ``n * 1.5`` is a Python float: its value would be the traced size's, so the generic
    # compile gives up and each size compiles on its own
    f = sg.compile(lambda x: x.sum() + x.shape[0] * 1.5, dynamic=True)
    for n in (3, 8):
        assert f(np.ones(n)) == pytest.approx(n + n * 1.5)
    assert builds[0] == 2 and f.shape_generic == []


def test_large_sizes_run_on_threads_and_sum_like_numpy(builds):
    f = sg.compile(lambda x: (sg.sin(x) ** 2).mean(), dynamic=True)
    rng = np.random.default_rng(5)
    for n in (1, 300, 400_000):
        x = rng.standard_normal(n)
        assert f(x) == pytest.approx(np.mean(np.sin(x) ** 2), rel=1e-12)
    assert builds[0] == 1
    with _threads(2):
        x = rng.standard_normal(400_000)
        assert f(x) == pytest.approx(np.mean(np.sin(x) ** 2), rel=1e-12)


class _threads:
    def __init__(self, n):
        self.n = n

    def __enter__(self):
        self.old = sg.get_num_threads()
        sg.set_num_threads(self.n)

    def __exit__(self, *exc):
        sg.set_num_threads(self.old)


def test_second_size_makes_a_dimension_dynamic_by_default(builds, caplog):
    f = sg.compile(sg.grad(lambda x, y: ((x - y) ** 2).sum()))
    with caplog.at_level(logging.DEBUG, logger="symgrad"):
        for n in (5, 9, 13, 2):
            x, y = np.arange(n, dtype=float), np.ones(n)
            np.testing.assert_allclose(f(x, y), 2 * (x - y))
    assert builds[0] == 2          # 5 on its own, then one shape-generic module for the rest
    assert len(f.shape_generic) == 1
    assert "changed size: compiling shape-generic" in caplog.text


def test_dynamic_false_compiles_each_size(builds):
    f = sg.compile(lambda x: (x * x).sum(), dynamic=False)
    for n in (5, 9, 13):
        assert f(np.ones(n)) == n
    assert builds[0] == 3 and f.shape_generic == []


def test_python_loop_over_a_size_falls_back_to_one_compile_per_size(builds, caplog):
    def f(x):
        total = x[0] * 0
        for i in range(x.shape[0]):       # unrolled: the code depends on the size
            total = total + x[i] * i
        return total
    g = sg.compile(f, dynamic=True)
    with caplog.at_level(logging.DEBUG, logger="symgrad"):
        for n in (3, 4):
            x = np.arange(1.0, n + 1)
            assert g(x) == pytest.approx(float(np.sum(x * np.arange(n))))
    assert "not shape-generic" in caplog.text or "shape-generic compile failed" in caplog.text
    assert g.shape_generic == []


def test_a_users_size_test_is_guarded(builds):
    @sg.compile(dynamic_dims={"x": 0})
    def f(x):
        if x.shape[0] == 3:               # a special case for one size
            return x.sum() * 100
        return x.sum()
    assert f(np.ones(5)) == 5
    assert f(np.ones(8)) == 8             # bound: no compile
    assert f(np.ones(3)) == 300           # the guard fails: this size compiles on its own
    assert builds[0] == 2
    assert "== 0 is False" in f.shape_generic[0]


def test_mismatched_call_time_sizes_get_the_shape_error(builds):
    f = sg.compile(lambda x, y: (x - y).sum(), dynamic_dims={"x": 0, "y": 0})
    assert f(np.ones(4), np.ones(4)) == 0
    with pytest.raises(Exception, match=r"broadcast|shape"):
        f(np.ones(4), np.ones(5))          # x and y share a size symbol: this call does not fit
    with pytest.raises(Exception, match=r"broadcast|shape"):
        f(np.ones(6), np.ones(7))


def test_out_and_pickling_of_bound_sizes(builds):
    f = sg.compile(sg.value_and_grad(_logreg), dynamic_dims={"X": 0, "y": 0})
    w, X, y = _data(12)
    f(w, X, y)
    w, X, y = _data(30)
    out = (np.empty(()), np.empty(5))
    assert f(w, X, y, out=out) is out
    rv, rg = _logreg_numpy(w, X, y)
    np.testing.assert_allclose(out[1], rg, rtol=1e-12)
    again = pickle.loads(pickle.dumps(f))
    np.testing.assert_allclose(again(w, X, y)[1], rg, rtol=1e-12)


def test_options_are_checked():
    with pytest.raises(TypeError, match="dynamic must be"):
        sg.compile(lambda x: x, dynamic="yes")
    with pytest.raises(ValueError, match="contradicts"):
        sg.compile(lambda x: x, dynamic=False, dynamic_dims={"x": 0})
    f = sg.compile(lambda x: x.sum(), dynamic_dims={"z": 0})
    with pytest.raises(ValueError, match=r"names \['z'\]"):
        f(np.ones(3))
    g = sg.compile(lambda x: x.sum(), dynamic_dims={"x": 2})
    with pytest.raises(ValueError, match="axis 2"):
        g(np.ones(3))


def _softplus(z):
    return np.logaddexp(0, z)


# (function, NumPy reference, arguments for batch n): each compiled once, shape-generic in
# the batch dimension of every argument, and checked at four sizes.
_RNG = np.random.default_rng(11)
CASES = {
    "mse": (lambda x, y: F.mse_loss(x, y), lambda x, y: np.mean((x - y) ** 2),
            lambda n: (_RNG.standard_normal((n, 4)), _RNG.standard_normal((n, 4)))),
    "log_softmax": (lambda x: F.log_softmax(x, dim=1).sum(),
                    lambda x: np.sum(x - x.max(1, keepdims=True) - np.log(np.exp(
                        x - x.max(1, keepdims=True)).sum(1, keepdims=True))),
                    lambda n: (_RNG.standard_normal((n, 5)),)),
    "column sums": (lambda x: (x.sum(0) ** 2).sum(), lambda x: np.sum(x.sum(0) ** 2),
                    lambda n: (_RNG.standard_normal((n, 7)),)),
    "view -1": (lambda x: x.view(x.shape[0], -1).sum(1).mean() + x.reshape(-1).tanh().sum(),
                lambda x: x.reshape(len(x), -1).sum(1).mean() + np.tanh(x).sum(),
                lambda n: (_RNG.standard_normal((n, 2, 3)),)),
    "gram": (lambda x: (x.T @ x).sum(), lambda x: np.sum(x.T @ x),
             lambda n: (_RNG.standard_normal((n, 4)),)),
    "slices": (lambda x: x[:, 0].sum() * 3 + x[1:].sum() - x[-1].sum(),
               lambda x: x[:, 0].sum() * 3 + x[1:].sum() - x[-1].sum(),
               lambda n: (_RNG.standard_normal((n, 3)),)),
    "std over the batch": (lambda x: ((x - x.mean(0)) / (x.std(0) + 1)).sum(),
                           lambda x: np.sum((x - x.mean(0)) / (x.std(0, ddof=1) + 1)),
                           lambda n: (_RNG.standard_normal((n, 5)),)),
    "cat": (lambda x: (sg.cat([x, x * 2], 0).sum(0) ** 2).sum(),
            lambda x: np.sum(np.concatenate([x, 2 * x]).sum(0) ** 2),
            lambda n: (_RNG.standard_normal((n, 3)),)),
    "cumsum, max": (lambda x: x.cumsum(0).sum() + x.max(1).values.sum(),
                    lambda x: x.cumsum(0).sum() + x.max(1).sum(),
                    lambda n: (_RNG.standard_normal((n, 3)),)),
    "arange, zeros": (lambda x: (x * sg.arange(x.shape[0])).sum() + sg.zeros(x.shape[0]).sum(),
                      lambda x: np.sum(x * np.arange(len(x))),
                      lambda n: (_RNG.standard_normal(n),)),
    "softplus": (lambda x: F.softplus(x).mean(), lambda x: _softplus(x).mean(),
                 lambda n: (_RNG.standard_normal(n),)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_common_programs_compile_once_for_every_size(name, builds):
    fn, ref, make = CASES[name]
    f = sg.compile(fn, dynamic=True)
    for n in (6, 2, 9, 40):          # (no first size equal to a feature size: see below)
        args = make(n)
        assert f(*args) == pytest.approx(ref(*args), rel=1e-12, abs=1e-12), n
    assert builds[0] == 1, f.shape_generic


@pytest.mark.parametrize("name", ["mse", "gram", "std over the batch", "slices", "column sums"])
def test_gradients_of_common_programs_match_finite_differences(name, builds):
    fn, ref, make = CASES[name]
    g = sg.compile(sg.grad(fn), dynamic=True)
    for n in (6, 9):
        args = make(n)
        x = args[0]
        got = g(*args)
        fd = np.zeros_like(x)
        h = 1e-6
        for i in np.ndindex(x.shape):
            e = np.zeros_like(x)
            e[i] = h
            fd[i] = (ref(x + e, *args[1:]) - ref(x - e, *args[1:])) / (2 * h)
        np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-7)
    assert builds[0] == 1


def test_sizes_equal_by_chance_share_a_symbol_until_a_call_splits_them(builds):
    # dynamic=True: the first call's 5 x 5 makes both dims one size; a 3 x 5 call then
    # compiles a second module with two sizes, which serves every shape after it
    f = sg.compile(lambda x: (x.sum(0) ** 2).sum() + x.mean(), dynamic=True)
    for shape in ((5, 5), (3, 5), (4, 4), (7, 2), (1, 9), (5, 5)):
        x = np.random.default_rng(sum(shape)).standard_normal(shape)
        assert f(x) == pytest.approx(np.sum(x.sum(0) ** 2) + x.mean(), rel=1e-12)
    assert builds[0] == 2
    assert [g.split(";")[0] for g in f.shape_generic] == ["x[x_size0, x_size0]",
                                                          "x[x_size0, x_size1]"]


WARM_PROGRAM = '''
import json, sys
import numpy as np
import symgrad as sg

SCALE = float(sys.argv[1])


def loss(w, X):
    return (sg.tanh(X @ w) * SCALE).mean()


f = sg.compile(sg.grad(loss), dynamic_dims={"X": 0})
w = np.array([0.5, -1.0, 2.0])
out = {}
for n in map(int, sys.argv[2:]):
    X = np.linspace(-1, 1, 3 * n).reshape(n, 3)
    out[n] = list(map(float, f(w, X)))
print("RESULT", json.dumps(out))
'''


def _warm_run(tmp_path, scale: str, *sizes: int) -> tuple:
    import json
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYMGRAD_")}
    env.update(SYMGRAD_CACHE_DIR=str(tmp_path / "cache"), SYMGRAD_DEBUG="1")
    done = subprocess.run([sys.executable, str(tmp_path / "prog.py"), scale,
                           *map(str, sizes)], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.split("RESULT ", 1)[1].splitlines()[0])
    return {int(k): np.array(v) for k, v in result.items()}, done.stdout


def _warm_reference(scale: float, n: int) -> np.ndarray:
    w = np.array([0.5, -1.0, 2.0])
    X = np.linspace(-1, 1, 3 * n).reshape(n, 3)
    return X.T @ ((1 - np.tanh(X @ w) ** 2) * scale) / n


def test_a_fresh_process_loads_the_shape_generic_module_without_tracing(tmp_path):
    (tmp_path / "prog.py").write_text(WARM_PROGRAM)
    got, log = _warm_run(tmp_path, "2.0", 10)
    assert "nodes; trace" in log and "compiled shape-generic" in log
    got, log = _warm_run(tmp_path, "2.0", 4, 33)       # other sizes: from disk, bound
    assert "nodes; trace" not in log and "shape-generic module from disk" in log
    for n in (4, 33):
        np.testing.assert_allclose(got[n], _warm_reference(2.0, n), rtol=1e-12)
    got, log = _warm_run(tmp_path, "3.0", 4)           # a changed global: traced again
    assert "nodes; trace" in log
    np.testing.assert_allclose(got[4], _warm_reference(3.0, 4), rtol=1e-12)


def _conv_pool_numpy(x, k, b):
    """conv2d (padding 1) + bias, then 2 x 2 max pooling, by hand."""
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((n, k.shape[0], h, w))
    for i in range(h):
        for j in range(w):
            y[:, :, i, j] = np.einsum("ncij,ocij->no", xp[:, :, i:i + 3, j:j + 3], k) + b
    return y.reshape(n, k.shape[0], h // 2, 2, w // 2, 2).max(axis=(3, 5))


def test_conv_bias_padding_max_pool(builds):
    # gcc 12.2 -O3 -fopenmp once miscompiled this shape-generic module (codegen.c.loops.OPAQUE)
    rng = np.random.default_rng(2)
    k, b = rng.standard_normal((4, 3, 3, 3)), rng.standard_normal(4)
    f = sg.compile(lambda x: F.max_pool2d(F.conv2d(x, k, b, padding=1), 2),
                   dynamic_dims={"x": 0})
    for n in (3, 2, 5, 1):
        x = rng.standard_normal((n, 3, 8, 8))
        np.testing.assert_allclose(f(x), _conv_pool_numpy(x, k, b), rtol=1e-12, atol=1e-12)
    assert builds[0] == 1


def test_sizes_read_where_no_hook_sees_them_are_not_baked_in(builds):
    # len() must return an int (the traced size): generic traces refuse it; a test on the
    # traced value that only parity shows is caught by the two traces' sizes (api.dynamic.
    # HINTS: odd, then even)
    f = sg.compile(lambda x: x * 2 if len(x) % 2 else x)
    g = sg.compile(lambda x: x * 2 if int.__int__(x.shape[0]) % 2 else x)
    for n in (3, 4, 5):
        np.testing.assert_array_equal(f(np.ones(n)), np.ones(n) * (2 if n % 2 else 1))
        np.testing.assert_array_equal(g(np.ones(n)), np.ones(n) * (2 if n % 2 else 1))
    assert f.shape_generic == [] and g.shape_generic == []


_ONE_OVER = functools.lru_cache(lambda n: 1.0 / n)


# A size hashed or printed by the user's code: (function, NumPy reference from the size
# written out by hand). Each makes the generic compile fall back: one compile per size.
HASHED_OR_PRINTED = {
    "lru_cache": (lambda x: x.sum() * _ONE_OVER(x.shape[0]), lambda x: np.mean(x)),
    "set member": (lambda x: x.sum() * (2.0 if x.shape[0] in {3, 5} else -1.0),
                   lambda x: np.sum(x) * (2.0 if len(x) == 3 or len(x) == 5 else -1.0)),
    "f-string length": (lambda x: x.sum() * len(f"{x.shape[0]}"),
                        lambda x: np.sum(x) * (np.floor(np.log10(len(x))) + 1)),
    "dict keyed by size": (lambda x: x.sum() * {3: 10.0, 5: 20.0}.get(x.shape[0], 1.0),
                           lambda x: np.sum(x) * np.select([len(x) == 3, len(x) == 5],
                                                           [10.0, 20.0], 1.0)),
    "str": (lambda x: x.sum() * len(str(x.shape[0])),
            lambda x: np.sum(x) * (np.floor(np.log10(len(x))) + 1)),
    "repr": (lambda x: x.sum() * len(repr(x.shape[0])),
             lambda x: np.sum(x) * (np.floor(np.log10(len(x))) + 1)),
    "hash": (lambda x: x.sum() * (hash(x.shape[0]) % 7),    # (a small int hashes to itself)
             lambda x: np.sum(x) * np.remainder(len(x), 7)),
    "str of the shape": (lambda x: x.sum() * len(str(x.shape)),
                         lambda x: np.sum(x) * (len("torch.Size([])") + np.floor(
                             np.log10(len(x))) + 1)),
}


@pytest.mark.parametrize("dynamic", [None, True])
@pytest.mark.parametrize("name", sorted(HASHED_OR_PRINTED))
def test_a_size_hashed_or_printed_compiles_per_size(name, dynamic, builds):
    fn, ref = HASHED_OR_PRINTED[name]
    f = sg.compile(fn, dynamic=dynamic)
    rng = np.random.default_rng(8)
    for n in (3, 5, 12, 3, 100, 5):
        x = rng.standard_normal(n)
        assert f(x) == pytest.approx(ref(x), rel=1e-12), n
    assert builds[0] == 4 and f.shape_generic == []


def test_dict_of_weights_keyed_by_the_batch_size(builds, caplog):
    # the README's old limit: a table looked up by a size used the traced size
    a, b = np.array([1.0, 2.0, 3.0]), np.array([5.0, 4.0, 3.0, 2.0, 1.0])
    f = sg.compile(lambda x: (x * {3: sg.tensor(a), 5: sg.tensor(b)}[x.shape[0]]).sum())
    with caplog.at_level(logging.DEBUG, logger="symgrad"):
        for x in (np.ones(3), np.ones(5), np.arange(3.0), np.arange(5.0)):
            assert f(x) == pytest.approx(np.dot(x, a if len(x) == 3 else b), rel=1e-14)
    assert "not shape-generic (size x_size0 hashed" in caplog.text
    assert builds[0] == 2 and f.shape_generic == []


def test_dynamic_true_makes_sizes_compared_with_weights_static(builds):
    rng = np.random.default_rng(4)
    w, b = rng.standard_normal((3, 5)), rng.standard_normal(3)
    f = sg.compile(lambda x: F.linear(x, sg.tensor(w), sg.tensor(b)).tanh().sum(),
                   dynamic=True)
    for n in (4, 9, 1, 30):
        x = rng.standard_normal((n, 5))
        assert f(x) == pytest.approx(np.tanh(x @ w.T + b).sum(), rel=1e-12)
    assert builds[0] == 1 and f.shape_generic[0].startswith("x[x_size0, 5]")


def test_the_last_row_by_a_call_time_index(builds):
    f = sg.compile(lambda x: x[x.shape[0] - 1].sum() * 2 + x[-1].sum(), dynamic_dims={"x": 0})
    for n in (3, 1, 8):
        x = np.arange(3.0 * n).reshape(n, 3)
        assert f(x) == pytest.approx(3 * x[-1].sum())
    assert builds[0] == 1


def test_a_stream_of_sizes_keeps_a_bounded_number_of_bindings(builds):
    from symgrad.api.signature_cache import MAX_BOUND
    f = sg.compile(lambda x: (x * x).sum(), dynamic_dims={"x": 0})
    for n in range(1, 3 * MAX_BOUND):
        assert f(np.ones(n)) == n
    assert f(np.ones(2)) == 2                   # dropped long ago: bound again, no compile
    assert builds[0] == 1
    assert len(f.specializations) <= MAX_BOUND


@pytest.mark.parametrize("options, error", [
    (dict(dynamic=1), "dynamic must be"),
    (dict(dynamic_dims={"x": True}), "axis or a tuple of axes"),
    (dict(dynamic_dims=["x"]), "must be a dict"),
])
def test_bad_dynamic_options(options, error):
    with pytest.raises(TypeError, match=error):
        sg.compile(lambda x: x, **options)
