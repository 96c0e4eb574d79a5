"""LBFGS: the Rosenbrock function minimized as torch minimizes it (same iterates, same counts
of function evaluations and iterations), with a fixed step and with the strong-Wolfe line
search; stored torch iterates (no torch needed); the first iteration and a quadratic by
hand; state_dict, errors.

Rounding: in two dimensions (float32) every iterate equals torch's bit for bit (the L-BFGS
arithmetic, the line search's float32 scalar rules and its reciprocal-times-number division
follow torch's). torch's dot products and sums are MKL's and vectorized, which may add in
another order than NumPy's: in float64 (where MKL's dot rounds differently already for two
elements) and in more dimensions, iterates agree to rounding, amplified along the way: 1e-12
after the first step, 1e-5 after four fixed-step ones on the Rosenbrock valley.

The strong-Wolfe line search's cubic interpolation takes a square root of a 0-d tensor in torch,
NumPy's correctly rounded one in symgrad. torch's CPU square root is not always correctly
rounded, and which ones it misses depends on the CPU (see tests/optim/test_adaptive.py): on an
AMD EPYC 2 of the 8 square roots of the float32 "wolfe" run are an ulp off, and the iterates
drift by 1e-5. So the bit-for-bit comparisons with live torch substitute torch's square root
there (``torchs_line_search_sqrt``), as they substitute its dot products and sums.
"""

from __future__ import annotations

import types

import numpy as np
import pytest

import symgrad as sg
from symgrad import nn, optim
from symgrad.optim import line_search

CONFIGS = {
    "fixed": {},
    "wolfe": {"line_search_fn": "strong_wolfe"},
    "wolfe_short": {"line_search_fn": "strong_wolfe", "history_size": 3, "max_iter": 10,
                    "tolerance_change": 1e-6},
    "fixed_small": {"lr": 0.5, "max_iter": 15, "max_eval": 18, "history_size": 4},
}
DTYPES = pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])


def rosenbrock(x):
    return ((1 - x[:-1]) ** 2).sum() + 100 * ((x[1:] - x[:-1] ** 2) ** 2).sum()


def run(m, dtype, options, n=2, steps=4):
    """``steps`` calls of ``step(closure)`` from (-1.5, 2, -1.5, 2...): after each, the loss
    it returned, the point, and the counts of evaluations and iterations."""
    x = m.nn.Parameter(m.tensor(np.array([-1.5, 2.0] * (n // 2), dtype)))
    opt = m.optim.LBFGS([x], **options)

    def closure():
        opt.zero_grad()
        loss = rosenbrock(x)
        loss.backward()
        return loss
    seen = []
    for _ in range(steps):
        loss = opt.step(closure)
        state = opt.state[x]
        seen.append((loss.item(), x.detach().numpy().tolist(), state["func_evals"],
                     state["n_iter"]))
    return seen


def torchs_line_search_sqrt(monkeypatch, torch) -> None:
    """Make the line search's ``np.sqrt`` of a NumPy scalar torch's square root of a 0-d
    tensor (what torch's ``_cubic_interpolate`` computes); everything else stays NumPy's. The
    line search calls ``np.sqrt`` directly, so its module's ``np`` is replaced by a namespace
    that differs from NumPy only there."""
    def sqrt(x):
        if isinstance(x, np.generic):
            return torch.from_numpy(np.ascontiguousarray(x)).sqrt().numpy()[()]
        return np.sqrt(x)
    numpy = types.SimpleNamespace(**{k: getattr(np, k) for k in dir(np)
                                     if not k.startswith("__")})
    numpy.sqrt = sqrt
    monkeypatch.setattr(line_search, "np", numpy)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_rosenbrock_float32_matches_torch_bit_for_bit(name, monkeypatch):
    """Given torch's square root in the line search (only "wolfe" depends on it on an AMD
    EPYC; none did on the CPU this was written on)."""
    torch = pytest.importorskip("torch")
    torchs_line_search_sqrt(monkeypatch, torch)
    assert run(sg, np.float32, CONFIGS[name]) == run(torch, np.float32, CONFIGS[name])


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_rosenbrock_float64_matches_torch(name):
    """MKL's float64 dot rounds otherwise than NumPy's even for two elements; 80 fixed
    steps along the valley amplify that to 1e-5 (measured: 1e-15, 4e-12, 5e-8, 1e-5)."""
    torch = pytest.importorskip("torch")
    mine, theirs = run(sg, np.float64, CONFIGS[name]), run(torch, np.float64, CONFIGS[name])
    assert [s[2:] for s in mine] == [s[2:] for s in theirs]      # evaluations, iterations
    np.testing.assert_allclose(mine[0][1], theirs[0][1], rtol=1e-12)
    for a, b in zip(mine, theirs):
        np.testing.assert_allclose(a[1], b[1], rtol=0, atol=1e-4)
        np.testing.assert_allclose(a[0], b[0], rtol=1e-4, atol=1e-9)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_rosenbrock_float64_bit_for_bit_given_torchs_dot_and_sum(name, monkeypatch):
    """Everything else is torch's arithmetic, in torch's order. (torch's float64 square root
    in the line search, substituted too, happens to be correctly rounded on an AMD EPYC
    here, but need not be on another CPU.)"""
    torch = pytest.importorskip("torch")
    torchs_line_search_sqrt(monkeypatch, torch)
    as_t = lambda a: torch.from_numpy(np.ascontiguousarray(a))
    monkeypatch.setattr(optim.kernels, "dot", lambda a, b: as_t(a).dot(as_t(b)).numpy()[()])
    monkeypatch.setattr(optim.kernels, "abs_sum", lambda a: as_t(a).abs().sum().numpy()[()])
    assert run(sg, np.float64, CONFIGS[name]) == run(torch, np.float64, CONFIGS[name])


@DTYPES
def test_rosenbrock_in_ten_dimensions_converges_as_torch(dtype):
    torch = pytest.importorskip("torch")
    options = {"line_search_fn": "strong_wolfe", "max_iter": 100}
    mine, theirs = (run(m, dtype, options, n=10, steps=2) for m in (sg, torch))
    np.testing.assert_allclose(mine[-1][1], theirs[-1][1], atol=1e-4)
    np.testing.assert_allclose(mine[-1][1], np.ones(10), atol=1e-4)
    assert abs(mine[-1][2] - theirs[-1][2]) <= 0.1 * theirs[-1][2]   # evaluations


# ---------------------------------------------------------------- without torch

# Produced by torch 2.13.0 (CPU): run(torch, dtype, CONFIGS[name]) as above, printed.
STORED = {
    ("wolfe", np.float32): [
        (12.5, [-0.08535026758909225, -0.028851868584752083], 25, 19),
        (1.308570146560669, [0.9999943971633911, 0.9999887347221375], 50, 39),
        (3.1747049433761276e-11, [0.9999943971633911, 0.9999887347221375], 51, 40),
        (3.1747049433761276e-11, [0.9999943971633911, 0.9999887347221375], 52, 41)],
    ("wolfe", np.float64): [
        (12.5, [-0.08511855589860293, -0.028757058413769698], 25, 19),
        (1.3070983150500495, [0.9995835472529905, 0.9991550319577943], 50, 38),
        (1.884048137837783e-07, [0.9999979943196398, 0.9999973438921637], 53, 41),
        (1.8769270132829514e-10, [0.9999979943196398, 0.9999973438921637], 54, 42)],
    ("fixed_small", np.float32): [
        (12.5, [-1.3915985822677612, 1.9169539213180542], 15, 15),
        (5.758131504058838, [-0.1207609698176384, -0.023535404354333878], 30, 30),
        (1.4014079570770264, [0.7501932382583618, 0.5528558492660522], 45, 45),
        (0.07227198779582977, [1.0005661249160767, 1.0017658472061157], 60, 60)],
    ("fixed_small", np.float64): [
        (12.5, [-1.391599250201097, 1.9169560387482252], 15, 15),
        (5.758133322181419, [-0.12075098440692236, -0.023543293152688126], 30, 30),
        (1.4014274187142381, [0.7503612115284741, 0.5530077534684592], 45, 45),
        (0.07238803023057361, [1.2142294819952988, 1.4647266971798438], 60, 60)],
}


@pytest.mark.parametrize("key", sorted(STORED, key=str), ids=lambda k: f"{k[0]}-{k[1].__name__}")
def test_stored_torch_iterates(key):
    """The same counts; the same points to 1e-5 (bit for bit in float32 where NumPy's dot of
    two elements rounds as MKL's does, as it does here)."""
    name, dtype = key
    got = run(sg, dtype, CONFIGS[name])
    want = STORED[key]
    assert [g[2:] for g in got] == [w[2:] for w in want]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g[1], w[1], rtol=1e-5)
        np.testing.assert_allclose(g[0], w[0], rtol=1e-4, atol=1e-9)


def test_the_first_iteration_by_hand():
    """One iteration without line search: x1 = x0 - min(1, 1 / |g0|_1) * lr * g0."""
    x0 = np.array([-1.5, 2.0])
    g0 = np.array([-2 * (1 - x0[0]) - 400 * x0[0] * (x0[1] - x0[0] ** 2),
                   200 * (x0[1] - x0[0] ** 2)])
    x = nn.Parameter(sg.tensor(x0))
    opt = optim.LBFGS([x], lr=0.7, max_iter=1)

    def closure():
        opt.zero_grad()
        loss = rosenbrock(x)
        loss.backward()
        return loss
    loss = opt.step(closure)
    assert loss.item() == pytest.approx(2.5 ** 2 + 100 * (2.0 - 2.25) ** 2)
    want = x0 - min(1.0, 1.0 / np.abs(g0).sum()) * 0.7 * g0
    np.testing.assert_allclose(x.detach().numpy(), want, rtol=1e-15)
    state = opt.state[x]
    assert state["func_evals"] == 1 and state["n_iter"] == 1     # the last is not evaluated


@pytest.mark.parametrize("line_search", [None, "strong_wolfe"])
def test_a_quadratic_reaches_its_solution(line_search):
    """0.5 x'Ax - b'x over two parameters (a matrix and a vector): the minimizer solves
    A x = b (to 1e-7: L-BFGS stops once the loss changes by less than tolerance_change,
    1e-15, which it does within about sqrt(1e-15 / 6) of the minimizer)."""
    rng = np.random.default_rng(2)
    m = rng.standard_normal((6, 6))
    a = m @ m.T + 6 * np.eye(6)
    b = rng.standard_normal(6)
    u, v = nn.Parameter(sg.zeros(4, dtype=sg.float64)), nn.Parameter(sg.zeros(2, dtype=sg.float64))
    opt = optim.LBFGS([u, v], lr=1 if line_search else 0.2, max_iter=200,
                      line_search_fn=line_search, tolerance_grad=1e-12,
                      tolerance_change=1e-15)
    at, bt = sg.tensor(a), sg.tensor(b)

    def closure():
        opt.zero_grad()
        x = sg.cat([u, v])
        loss = 0.5 * (x @ (at @ x)) - bt @ x
        loss.backward()
        return loss
    opt.step(closure)
    x = np.concatenate([u.detach().numpy(), v.detach().numpy()])
    np.testing.assert_allclose(x, np.linalg.solve(a, b), rtol=0, atol=1e-7)


def test_cubic_interpolation_by_hand():
    """The minimizer of the cubic through two points with slopes (here of x**3 - 3x, whose
    minimum is at 1), and the midpoint when the cubic has none."""
    from symgrad.optim.line_search import cubic_interpolate
    f = lambda x: x ** 3 - 3 * x
    df = lambda x: 3 * x ** 2 - 3
    assert cubic_interpolate(0.0, f(0.0), df(0.0), 2.0, f(2.0), df(2.0)) == pytest.approx(1.0)
    assert cubic_interpolate(2.0, f(2.0), df(2.0), 0.0, f(0.0), df(0.0)) == pytest.approx(1.0)
    assert cubic_interpolate(0.0, 0.0, 2.0, 1.0, 1.0, 2.0, bounds=(0.2, 0.6)) == 0.4


# ---------------------------------------------------------------- state, errors

def _closure(opt, x):
    def closure():
        opt.zero_grad()
        loss = rosenbrock(x)
        loss.backward()
        return loss
    return closure


def test_state_dict_layout_matches_torch_and_resumes():
    torch = pytest.importorskip("torch")
    options = {"line_search_fn": "strong_wolfe", "max_iter": 5, "history_size": 3}
    x = nn.Parameter(sg.tensor(np.array([-1.5, 2.0], np.float32)))
    y = torch.nn.Parameter(torch.tensor(np.array([-1.5, 2.0], np.float32)))
    opt_s, opt_t = optim.LBFGS([x], **options), torch.optim.LBFGS([y], **options)
    opt_s.step(_closure(opt_s, x))
    opt_t.step(_closure(opt_t, y))
    sd_s, sd_t = opt_s.state_dict(), opt_t.state_dict()
    assert sd_s["param_groups"] == sd_t["param_groups"]
    assert list(sd_s["state"][0]) == list(sd_t["state"][0])
    for key, value in sd_t["state"][0].items():
        got = sd_s["state"][0][key]
        if isinstance(value, list):
            assert len(got) == len(value), key
            got, value = [g for g in got if g is not None], [v for v in value if v is not None]
            np.testing.assert_array_equal(np.array([np.asarray(g) for g in got]),
                                          np.array([v.numpy() for v in value]), err_msg=key)
        else:
            np.testing.assert_array_equal(np.asarray(got), np.asarray(value), err_msg=key)
    # torch's state resumes here as it resumes there
    x2 = nn.Parameter(sg.tensor(y.detach().numpy().copy()))
    opt_s2 = optim.LBFGS([x2], **options)
    opt_s2.load_state_dict(sd_t)
    opt_s2.step(_closure(opt_s2, x2))
    opt_t.step(_closure(opt_t, y))
    np.testing.assert_array_equal(x2.detach().numpy(), y.detach().numpy())


def test_state_dict_round_trip_resumes_exactly():
    runs = []
    for interrupt in (False, True):
        x = nn.Parameter(sg.tensor(np.array([-1.5, 2.0])))
        opt = optim.LBFGS([x], max_iter=4, line_search_fn="strong_wolfe")
        for i in range(4):
            if interrupt and i == 2:
                saved = opt.state_dict()
                opt = optim.LBFGS([x], max_iter=4, line_search_fn="strong_wolfe")
                opt.load_state_dict(saved)
            opt.step(_closure(opt, x))
        runs.append(x.detach().numpy().copy())
    np.testing.assert_array_equal(runs[0], runs[1])


def test_an_optimal_start_returns_at_once():
    x = nn.Parameter(sg.ones(2))
    opt = optim.LBFGS([x])
    loss = opt.step(_closure(opt, x))
    assert loss.item() == 0.0 and x.tolist() == [1.0, 1.0]
    assert opt.state[x]["func_evals"] == 1 and opt.state[x]["n_iter"] == 0


def test_errors_match_torch():
    torch = pytest.importorskip("torch")
    for m, x in ((torch, torch.nn.Parameter(torch.zeros(2))), (sg, nn.Parameter(sg.zeros(2)))):
        with pytest.raises(ValueError, match="doesn't support per-parameter options"):
            m.optim.LBFGS([{"params": [x]}, {"params": [m.nn.Parameter(m.ones(1))]}])
        with pytest.raises(ValueError, match="Invalid learning rate: -1"):
            m.optim.LBFGS([x], lr=-1)
        opt = m.optim.LBFGS([x], line_search_fn="armijo")
        with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
            opt.step(_closure(opt, x))
