"""torch.optim: SGD, Adam and AdamW against torch's own updates (100 steps on the same
gradients), against hand-written NumPy updates, and the Optimizer machinery (parameter groups,
state, state_dict, zero_grad, closures, errors, repr); the learning-rate schedulers' sequences.

Rounding: SGD follows torch's single-tensor implementation with its fused multiply-adds and
agrees bit for bit (float32 and float64). Adam and AdamW agree bit for bit when torch's square
root is substituted for NumPy's (torch takes it from MKL's vector math, which is not always
correctly rounded), and within 1e-6 (float32) / 1e-14 (float64) of torch with NumPy's.
"""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
from symgrad import nn, optim
from symgrad.errors import TracerValueError

SHAPES = [(64, 20), (64,), (5, 64), (5,), (7, 3, 3)]


def _pair(dtype, seed=0):
    """The same parameters as symgrad and torch Parameters, and gradients for 100 steps."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(seed)
    init = [rng.standard_normal(s).astype(dtype) for s in SHAPES]
    grads = [[rng.standard_normal(s).astype(dtype) for s in SHAPES] for _ in range(100)]
    mine = [nn.Parameter(sg.tensor(a)) for a in init]
    theirs = [torch.nn.Parameter(torch.tensor(a)) for a in init]
    return torch, mine, theirs, grads


def _run(make, dtype, steps=100):
    """Max |symgrad - torch| over every parameter after every step."""
    torch, mine, theirs, grads = _pair(dtype)
    opt_s, opt_t = make(sg, mine), make(torch, theirs)
    worst = 0.0
    for gs in grads[:steps]:
        for p, q, g in zip(mine, theirs, gs):
            p.grad, q.grad = sg.tensor(g), torch.tensor(g)
        opt_s.step()
        opt_t.step()
        for p, q in zip(mine, theirs):
            worst = max(worst, float(np.max(np.abs(p.detach().numpy() - q.detach().numpy()))))
    return worst


SGDS = {
    "plain": lambda m, ps: m.optim.SGD(ps, lr=0.1),
    "momentum": lambda m, ps: m.optim.SGD(ps, lr=0.1, momentum=0.9),
    "nesterov_wd": lambda m, ps: m.optim.SGD(ps, lr=0.05, momentum=0.9, nesterov=True,
                                             weight_decay=1e-2),
    "dampening_maximize": lambda m, ps: m.optim.SGD(ps, lr=0.05, momentum=0.8, dampening=0.3,
                                                    maximize=True),
}
ADAMS = {
    "adam": lambda m, ps: m.optim.Adam(ps, lr=1e-2),
    "adam_wd_amsgrad_maximize": lambda m, ps: m.optim.Adam(ps, lr=1e-2, weight_decay=0.1,
                                                           amsgrad=True, maximize=True),
    "adamw_betas": lambda m, ps: m.optim.AdamW(ps, lr=1e-2, betas=(0.8, 0.99)),
}
DTYPES = pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])


@DTYPES
@pytest.mark.parametrize("name", sorted(SGDS))
def test_sgd_matches_torch_bit_for_bit_over_100_steps(name, dtype):
    assert _run(SGDS[name], dtype) == 0.0


@DTYPES
@pytest.mark.parametrize("name", sorted(ADAMS))
def test_adam_matches_torch_over_100_steps(name, dtype):
    assert _run(ADAMS[name], dtype) <= (1e-6 if dtype is np.float32 else 1e-14)


class _TorchSqrt:
    """NumPy, but for a square root taken by torch (for the test below)."""

    def __init__(self, torch):
        self._torch = torch

    def __getattr__(self, name):
        return getattr(np, name)

    def sqrt(self, x):
        return self._torch.from_numpy(np.ascontiguousarray(x)).sqrt().numpy()


@pytest.mark.parametrize("name", sorted(ADAMS))
def test_adam_matches_torch_bit_for_bit_given_torchs_square_roots(name, monkeypatch):
    """Every other operation is torch's, in torch's order, with torch's rounding."""
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(optim.adam, "np", _TorchSqrt(torch))
    assert _run(ADAMS[name], np.float32) == 0.0


def test_updates_follow_the_textbook_formulas():
    """Two steps of each optimizer on one parameter, written out in float64 by hand."""
    p0, g1, g2 = np.array([1.0, -2.0]), np.array([0.5, 0.25]), np.array([-1.0, 0.5])
    p = nn.Parameter(sg.tensor(p0))
    opt = optim.SGD([p], lr=0.1, momentum=0.9, dampening=0.5, weight_decay=0.01)
    for g in (g1, g2):
        p.grad = sg.tensor(g)
        opt.step()
    d1 = g1 + 0.01 * p0
    x1 = p0 - 0.1 * d1                                  # the first buffer is the gradient
    buf = 0.9 * d1 + 0.5 * (g2 + 0.01 * x1)
    np.testing.assert_allclose(p.detach().numpy(), x1 - 0.1 * buf, rtol=1e-15)
    q = nn.Parameter(sg.tensor(p0))
    adam = optim.Adam([q], lr=0.01, betas=(0.9, 0.99), eps=1e-6)
    x, m, v = p0.copy(), 0.0, 0.0
    for t, g in enumerate((g1, g2), 1):
        q.grad = sg.tensor(g)
        adam.step()
        m, v = 0.9 * m + 0.1 * g, 0.99 * v + 0.01 * g * g
        x = x - 0.01 * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.99 ** t)) + 1e-6)
    np.testing.assert_allclose(q.detach().numpy(), x, rtol=1e-12)
    assert adam.state[q]["step"].item() == 2.0 and adam.state[q]["step"].dtype is sg.float32


# ---------------------------------------------------------------- the Optimizer machinery

def test_param_groups_defaults_and_per_group_options():
    a, b = nn.Parameter(sg.ones(2)), nn.Parameter(sg.ones(3))
    opt = optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5}], lr=0.1, momentum=0.9)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5]
    assert opt.param_groups[1]["params"] == [b] and opt.param_groups[1]["momentum"] == 0.9
    a.grad, b.grad = sg.ones(2), sg.ones(3)
    opt.step()
    assert a.tolist() == pytest.approx([0.9, 0.9]) and b.tolist() == [0.5, 0.5, 0.5]
    c = nn.Parameter(sg.zeros(1))
    opt.add_param_group({"params": [c], "lr": 1.0})
    assert opt.param_groups[2]["dampening"] == 0 and len(opt.param_groups) == 2 + 1
    with pytest.raises(ValueError, match="some parameters appear in more than one"):
        opt.add_param_group({"params": [a]})


def test_step_skips_parameters_without_gradients_and_bumps_versions():
    a, b = nn.Parameter(sg.ones(2)), nn.Parameter(sg.ones(2))
    opt = optim.Adam([a, b], lr=0.1)
    a.grad = sg.ones(2)
    version = a._version
    opt.step()
    assert b.tolist() == [1.0, 1.0] and b not in opt.state and a in opt.state
    assert a._version > version                 # an in-place update, as torch counts it


def test_zero_grad_and_closure():
    p = nn.Parameter(sg.tensor([1.0, 2.0]))
    opt = optim.SGD([p], lr=0.1)

    def closure():
        opt.zero_grad()
        assert sg.is_grad_enabled()
        loss = (p * p).sum()
        loss.backward()
        return loss
    with sg.no_grad():
        loss = opt.step(closure)
    assert loss.item() == 5.0 and p.tolist() == pytest.approx([0.8, 1.6])
    opt.zero_grad(set_to_none=False)
    assert p.grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert p.grad is None


def test_errors_match_torch():
    torch = pytest.importorskip("torch")
    cases = [
        lambda m, ps: m.optim.SGD(ps, lr=-1.0),
        lambda m, ps: m.optim.SGD(ps, lr=0.1, momentum=-0.5),
        lambda m, ps: m.optim.SGD(ps, lr=0.1, nesterov=True),
        lambda m, ps: m.optim.Adam(ps, betas=(1.0, 0.9)),
        lambda m, ps: m.optim.Adam(ps, eps=-1.0),
        lambda m, ps: m.optim.AdamW(ps, weight_decay=-1.0),
        lambda m, ps: m.optim.SGD([], lr=0.1),
        lambda m, ps: m.optim.SGD(ps[0], lr=0.1),
        lambda m, ps: m.optim.SGD([{"params": ps}, {"params": ps}], lr=0.1),
        lambda m, ps: m.optim.SGD([ps[0] * 2], lr=0.1),
    ]
    for make in cases:
        with pytest.raises(Exception) as theirs:
            make(torch, [torch.nn.Parameter(torch.ones(2))])
        with pytest.raises(type(theirs.value)) as mine:
            make(sg, [nn.Parameter(sg.ones(2))])
        assert str(mine.value) == str(theirs.value)


def test_repr_and_state_dict_layout_match_torch():
    torch = pytest.importorskip("torch")
    for name, make in {**SGDS, **ADAMS}.items():
        _, mine, theirs, grads = _pair(np.float32)
        opt_s = make(sg, [{"params": mine[:2]}, {"params": mine[2:], "lr": 0.5}])
        opt_t = make(torch, [{"params": theirs[:2]}, {"params": theirs[2:], "lr": 0.5}])
        assert repr(opt_s) == repr(opt_t), name
        for p, q, g in zip(mine, theirs, grads[0]):
            p.grad, q.grad = sg.tensor(g), torch.tensor(g)
        opt_s.step()
        opt_t.step()
        sd_s, sd_t = opt_s.state_dict(), opt_t.state_dict()
        assert sd_s["param_groups"] == sd_t["param_groups"], name
        assert list(sd_s["state"]) == list(sd_t["state"])
        for i, st in sd_t["state"].items():
            assert list(sd_s["state"][i]) == list(st), name
            for key, value in st.items():
                np.testing.assert_allclose(sd_s["state"][i][key].numpy(), value.numpy(),
                                           rtol=1e-6, atol=1e-7, err_msg=f"{name} {key}")


@pytest.mark.parametrize("name", ["momentum", "adam"])
def test_load_state_dict_from_torch_continues_torchs_run(name):
    """torch's optimizer state (its tensors are array-likes) resumes here as it would there."""
    make = {**SGDS, **ADAMS}[name]
    torch, mine, theirs, grads = _pair(np.float32)
    opt_t = make(torch, theirs)
    for gs in grads[:5]:
        for q, g in zip(theirs, gs):
            q.grad = torch.tensor(g)
        opt_t.step()
    with torch.no_grad():
        for p, q in zip(mine, theirs):
            p.data = sg.tensor(q.numpy())
    opt_s = make(sg, mine)
    opt_s.load_state_dict(opt_t.state_dict())
    assert opt_s.state[mine[0]]["step" if name == "adam" else "momentum_buffer"] is not None
    for gs in grads[5:15]:
        for p, q, g in zip(mine, theirs, gs):
            p.grad, q.grad = sg.tensor(g), torch.tensor(g)
        opt_s.step()
        opt_t.step()
    for p, q in zip(mine, theirs):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=0,
                                   atol=0 if name == "momentum" else 1e-6)


def test_state_dict_round_trip_resumes_exactly():
    rng = np.random.default_rng(3)
    grads = [rng.standard_normal(4).astype(np.float32) for _ in range(6)]
    runs = []
    for interrupt in (False, True):
        p = nn.Parameter(sg.ones(4))
        opt = optim.Adam([p], lr=0.1, amsgrad=True)
        for i, g in enumerate(grads):
            if interrupt and i == 3:
                saved = opt.state_dict()
                opt = optim.Adam([p], lr=0.1, amsgrad=True)
                opt.load_state_dict(saved)
            p.grad = sg.tensor(g)
            opt.step()
        runs.append(p.detach().numpy().copy())
    np.testing.assert_array_equal(runs[0], runs[1])


def test_stepping_traced_parameters_is_refused():
    @sg.compile
    def f(x):
        p = nn.Parameter(x)
        p.grad = x
        optim.SGD([p], lr=0.1).step()
        return p
    with pytest.raises(TracerValueError, match="optimizer.step"):
        f(np.ones(3, np.float32))
