"""Learning-rate schedulers: the learning rates each one sets, step after step, equal torch's
exactly (the same recursive formulas in Python floats), in every parameter group; and the
closed forms they approximate (a schedule written out by hand)."""

from __future__ import annotations

import math

import pytest

import symgrad as sg
from symgrad import nn, optim

SCHEDULES = {
    "step": lambda m, opt: m.optim.lr_scheduler.StepLR(opt, step_size=7, gamma=0.5),
    "exponential": lambda m, opt: m.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9),
    "cosine": lambda m, opt: m.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10,
                                                                    eta_min=0.01),
}


def _lrs(m, name, steps=35):
    params = [m.nn.Parameter(m.ones(2)), m.nn.Parameter(m.ones(3))]
    opt = m.optim.SGD([{"params": params[:1]}, {"params": params[1:], "lr": 0.3}], lr=0.1,
                      momentum=0.9)
    sched = SCHEDULES[name](m, opt)
    seen = [sched.get_last_lr()]
    for _ in range(steps):
        opt.step()
        sched.step()
        seen.append(sched.get_last_lr())
        assert seen[-1] == [g["lr"] for g in opt.param_groups]
    return seen, opt


@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_schedules_equal_torchs(name):
    torch = pytest.importorskip("torch")
    mine, opt = _lrs(sg, name)
    theirs, _ = _lrs(torch, name)
    assert mine == theirs
    assert [g["initial_lr"] for g in opt.param_groups] == [0.1, 0.3]


def test_schedules_follow_their_closed_forms():
    steps, _ = _lrs(sg, "step", 20)
    assert [lrs[0] for lrs in steps] == pytest.approx([0.1 * 0.5 ** (t // 7) for t in range(21)])
    exp, _ = _lrs(sg, "exponential", 20)
    assert [lrs[1] for lrs in exp] == pytest.approx([0.3 * 0.9 ** t for t in range(21)])
    cos, _ = _lrs(sg, "cosine", 10)
    assert [lrs[0] for lrs in cos] == pytest.approx(
        [0.01 + (0.1 - 0.01) * (1 + math.cos(math.pi * t / 10)) / 2 for t in range(11)])


def test_scheduler_needs_an_optimizer_and_keeps_its_state():
    with pytest.raises(TypeError, match="is not an Optimizer"):
        optim.lr_scheduler.StepLR(object(), 3)
    opt = optim.SGD([nn.Parameter(sg.ones(1))], lr=1.0)
    sched = optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
    with pytest.warns(UserWarning, match="Detected call of `lr_scheduler.step\\(\\)` before"):
        for _ in range(3):                  # no optimizer.step() first: torch warns
            sched.step()
    state = sched.state_dict()
    assert state["last_epoch"] == 3 and "optimizer" not in state
    assert sched.get_last_lr() == [pytest.approx(0.1)]
