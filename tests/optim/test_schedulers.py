"""The learning-rate schedulers beyond StepLR/ExponentialLR/CosineAnnealingLR: the learning
rates (and cycled momentums) each sets over 40 steps, in two parameter groups, with SGD and
with Adam, equal torch's exactly (the same formulas in the same order, in Python floats);
the closed forms they follow, written out by hand (no torch needed); step(epoch);
ReduceLROnPlateau in every mode; torch's warnings, state_dict, errors.
"""

from __future__ import annotations

import math
import warnings

import pytest

import symgrad as sg
from symgrad import nn, optim
from symgrad.optim import lr_scheduler

SCHEDULES = {
    "multistep": lambda m, o: m.optim.lr_scheduler.MultiStepLR(o, milestones=[5, 12, 12, 25],
                                                               gamma=0.5),
    "lambda": lambda m, o: m.optim.lr_scheduler.LambdaLR(o, lambda e: 0.95 ** e),
    "lambda_list": lambda m, o: m.optim.lr_scheduler.LambdaLR(
        o, [lambda e: 1 / (1 + e), lambda e: 0.9 ** e]),
    "multiplicative": lambda m, o: m.optim.lr_scheduler.MultiplicativeLR(o, lambda e: 0.97),
    "constant": lambda m, o: m.optim.lr_scheduler.ConstantLR(o, factor=0.25, total_iters=7),
    "linear": lambda m, o: m.optim.lr_scheduler.LinearLR(o, start_factor=0.1, end_factor=0.9,
                                                         total_iters=10),
    "polynomial": lambda m, o: m.optim.lr_scheduler.PolynomialLR(o, total_iters=20, power=2.0),
    "sequential": lambda m, o: m.optim.lr_scheduler.SequentialLR(o, [
        m.optim.lr_scheduler.LinearLR(o, start_factor=0.01, total_iters=5),
        m.optim.lr_scheduler.CosineAnnealingLR(o, T_max=20, eta_min=1e-4)], milestones=[5]),
    "sequential3": lambda m, o: m.optim.lr_scheduler.SequentialLR(o, [
        m.optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=3),
        m.optim.lr_scheduler.ExponentialLR(o, gamma=0.9),
        m.optim.lr_scheduler.StepLR(o, 4)], milestones=[6, 15]),
    "chained": lambda m, o: m.optim.lr_scheduler.ChainedScheduler([
        m.optim.lr_scheduler.ConstantLR(o, factor=0.1, total_iters=4),
        m.optim.lr_scheduler.ExponentialLR(o, gamma=0.95)]),
    "warm_restarts": lambda m, o: m.optim.lr_scheduler.CosineAnnealingWarmRestarts(
        o, T_0=5, T_mult=2, eta_min=0.001),
    "warm_restarts1": lambda m, o: m.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=7),
    "cyclic": lambda m, o: m.optim.lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1,
                                                         step_size_up=4),
    "cyclic2": lambda m, o: m.optim.lr_scheduler.CyclicLR(
        o, base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=3, step_size_down=5,
        mode="triangular2"),
    "cyclic_exp": lambda m, o: m.optim.lr_scheduler.CyclicLR(
        o, base_lr=0.01, max_lr=0.1, step_size_up=4, mode="exp_range", gamma=0.97),
    "cyclic_fn": lambda m, o: m.optim.lr_scheduler.CyclicLR(
        o, base_lr=0.01, max_lr=0.1, step_size_up=4, scale_fn=lambda x: 1 / (1 + x),
        scale_mode="iterations", cycle_momentum=False),
    "onecycle": lambda m, o: m.optim.lr_scheduler.OneCycleLR(o, max_lr=0.5, total_steps=40),
    "onecycle_linear3": lambda m, o: m.optim.lr_scheduler.OneCycleLR(
        o, max_lr=[0.5, 0.2], epochs=4, steps_per_epoch=10, anneal_strategy="linear",
        three_phase=True, pct_start=0.25),
    "onecycle_nomomentum": lambda m, o: m.optim.lr_scheduler.OneCycleLR(
        o, max_lr=0.5, total_steps=41, cycle_momentum=False, div_factor=10.0,
        final_div_factor=100.0),
}
NAMES = sorted(SCHEDULES)


def _optimizer(m, adam):
    params = [m.nn.Parameter(m.ones(2)), m.nn.Parameter(m.ones(3))]
    groups = [{"params": params[:1]}, {"params": params[1:], "lr": 0.3}]
    return m.optim.Adam(groups, lr=0.1) if adam else m.optim.SGD(groups, lr=0.1, momentum=0.9)


def _momenta(opt):
    return [g["betas"] if "betas" in g else g["momentum"] for g in opt.param_groups]


def schedule(m, name, adam=False, steps=40):
    """Each step's (learning rates, momentums); the scheduler and optimizer."""
    opt = _optimizer(m, adam)
    sched = SCHEDULES[name](m, opt)
    seen = [(sched.get_last_lr(), _momenta(opt))]
    for _ in range(steps):
        opt.step()
        sched.step()
        seen.append((sched.get_last_lr(), _momenta(opt)))
        assert seen[-1][0] == [g["lr"] for g in opt.param_groups]
    return seen, sched, opt


@pytest.mark.parametrize("adam", [False, True], ids=["sgd", "adam"])
@pytest.mark.parametrize("name", NAMES)
def test_schedules_equal_torchs(name, adam):
    torch = pytest.importorskip("torch")
    mine, sched_s, opt_s = schedule(sg, name, adam)
    theirs, sched_t, opt_t = schedule(torch, name, adam)
    assert mine == theirs
    assert [sorted(g) for g in opt_s.param_groups] == [sorted(g) for g in opt_t.param_groups]
    sd_s, sd_t = sched_s.state_dict(), sched_t.state_dict()
    assert sorted(sd_s) == sorted(sd_t)
    for key in sd_t:
        if key not in ("lr_lambdas", "_schedulers"):
            assert sd_s[key] == sd_t[key], key


# ---------------------------------------------------------------- closed forms, by hand

def _cyclic(t, up, down):
    """Where step t is in its cycle: the cycle's number and the rise from 0 to 1 (and back)."""
    cycle, p = t // (up + down) + 1, t % (up + down)
    return cycle, (p / up if p <= up else (up + down - p) / down)


def _restart(t, t0, mult):
    start, length = 0, t0
    while t >= start + length:
        start, length = start + length, length * mult
    return t - start, length


def _one_cycle(t, top, total=40, pct=0.3):
    low, end = top / 25, pct * total - 1
    cos = lambda a, b, f: b + (a - b) / 2 * (math.cos(math.pi * f) + 1)
    if t <= end:
        return cos(low, top, t / end)
    return cos(top, low / 1e4, (t - end) / (total - 1 - end))


FORMULAS = {   # lr of the first group (base 0.1) at epoch t
    "multistep": lambda t: 0.1 * 0.5 ** sum(m <= t for m in (5, 12, 12, 25)),
    "lambda": lambda t: 0.1 * 0.95 ** t,
    "multiplicative": lambda t: 0.1 * 0.97 ** t,
    "constant": lambda t: 0.1 * (0.25 if t < 7 else 1.0),
    "linear": lambda t: 0.1 * (0.1 + 0.8 * min(t, 10) / 10),
    "polynomial": lambda t: 0.1 * (1 - min(t, 20) / 20) ** 2,
    "sequential": lambda t: (0.1 * (0.01 + 0.99 * t / 5) if t < 5 else
                             1e-4 + (0.1 - 1e-4) * (1 + math.cos(math.pi * (t - 5) / 20)) / 2),
    "chained": lambda t: 0.1 * 0.95 ** t * (0.1 if t < 4 else 1.0),
    "warm_restarts": lambda t: 0.001 + (0.1 - 0.001) * (1 + math.cos(
        math.pi * _restart(t, 5, 2)[0] / _restart(t, 5, 2)[1])) / 2,
    "cyclic": lambda t: 0.01 + 0.09 * _cyclic(t, 4, 4)[1],
    "cyclic2": lambda t: 0.01 + 0.09 * _cyclic(t, 3, 5)[1] / 2 ** (_cyclic(t, 3, 5)[0] - 1),
    "cyclic_exp": lambda t: 0.01 + 0.09 * _cyclic(t, 4, 4)[1] * 0.97 ** t,
    "onecycle": lambda t: _one_cycle(t, 0.5),
}


@pytest.mark.parametrize("name", sorted(FORMULAS))
def test_schedules_follow_their_closed_forms(name):
    seen, _, _ = schedule(sg, name, steps=39)
    got = [lrs[0] for lrs, _ in seen]
    want = [FORMULAS[name](t) for t in range(40)]
    assert got == pytest.approx(want, rel=1e-12, abs=1e-15)


def test_cycled_momentums_by_hand():
    seen, _, _ = schedule(sg, "cyclic", adam=False, steps=20)
    assert [m[0] for _, m in seen] == pytest.approx(
        [0.9 - 0.1 * _cyclic(t, 4, 4)[1] for t in range(21)], rel=1e-12)
    seen, _, _ = schedule(sg, "onecycle", adam=True, steps=39)
    end = 0.3 * 40 - 1
    want = [0.85 + 0.05 * (math.cos(math.pi * t / end) + 1) if t <= end else
            0.95 + (0.85 - 0.95) / 2 * (math.cos(math.pi * (t - end) / (39 - end)) + 1)
            for t in range(40)]
    assert [m[0][0] for _, m in seen] == pytest.approx(want, rel=1e-12)
    assert all(m[0][1] == 0.999 for _, m in seen)          # beta2 untouched


def test_three_phase_linear_one_cycle_by_hand():
    seen, _, opt = schedule(sg, "onecycle_linear3", steps=39)
    start, top = 0.02, 0.5                 # max_lr / div_factor, max_lr
    e1, e2 = 0.25 * 40 - 1, 2 * 0.25 * 40 - 2
    want = [start + (top - start) * t / e1 if t <= e1 else
            top + (start - top) * (t - e1) / (e2 - e1) if t <= e2 else
            start + (start / 1e4 - start) * (t - e2) / (39 - e2) for t in range(40)]
    assert [lrs[0] for lrs, _ in seen] == pytest.approx(want, rel=1e-12)
    assert opt.param_groups[1]["max_lr"] == 0.2 and opt.param_groups[1]["initial_lr"] == 0.2 / 25


def test_step_with_an_epoch_uses_the_closed_form_and_warns():
    torch = pytest.importorskip("torch")
    runs = []
    for m in (sg, torch):
        opt = _optimizer(m, False)
        scheds = [m.optim.lr_scheduler.MultiStepLR(opt, [3, 6], gamma=0.5)]
        seen = []
        for epoch in (4, 2, 7, 0):
            opt.step()
            with pytest.warns(UserWarning, match="The epoch parameter in `scheduler.step"):
                scheds[0].step(epoch)
            seen.append(scheds[0].get_last_lr())
        runs.append(seen)
    assert runs[0] == runs[1] == [[0.05, 0.15], [0.1, 0.3], [0.025, 0.075], [0.1, 0.3]]


# ---------------------------------------------------------------- ReduceLROnPlateau

PLATEAUS = {
    "min_rel": {"patience": 2},
    "max_abs_cooldown": {"mode": "max", "threshold_mode": "abs", "threshold": 0.1,
                         "factor": 0.5, "patience": 1, "cooldown": 2},
    "min_abs_min_lrs": {"threshold_mode": "abs", "threshold": 0.05, "min_lr": [0.001, 0.02],
                        "factor": 0.3, "patience": 0},
    "max_rel_eps": {"mode": "max", "eps": 0.02, "patience": 1, "factor": 0.5},
}
# a loss that falls, stalls, wobbles and rises: every branch of the rule is taken
METRICS = [1.0 / (1 + t) if t < 10 else 0.1 + 0.02 * ((t * 7) % 5 - 2) / (1 + t % 3)
           for t in range(45)]


def plateau(m, name, metrics=METRICS):
    opt = _optimizer(m, False)
    sched = m.optim.lr_scheduler.ReduceLROnPlateau(opt, **PLATEAUS[name])
    seen = [sched.get_last_lr()]
    for metric in metrics:
        opt.step()
        sched.step(metric)
        seen.append(sched.get_last_lr())
    return seen, sched


@pytest.mark.parametrize("name", sorted(PLATEAUS))
def test_plateau_equals_torchs(name):
    torch = pytest.importorskip("torch")
    (mine, sched_s), (theirs, sched_t) = plateau(sg, name), plateau(torch, name)
    assert mine == theirs
    assert len({tuple(lrs) for lrs in mine}) > 2            # it did reduce, more than once
    assert sched_s.state_dict() == sched_t.state_dict()


def test_plateau_by_hand():
    """patience 2, cooldown 1, factor 0.5: the 4th epoch without improvement reduces, then
    the cooldown epoch counts no bad epoch; a 0-d tensor metric is a number."""
    opt = optim.SGD([nn.Parameter(sg.ones(1))], lr=1.0)
    sched = optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=2, cooldown=1)
    seen = []
    for metric in [10, 9, 9, 9, 9, 9, 9, 9, 9, 8]:
        sched.step(sg.tensor(float(metric)))
        seen.append(sched.get_last_lr()[0])
    assert seen == [1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.25, 0.25]
    assert sched.best == 8.0 and sched.num_bad_epochs == 0 and sched.last_epoch == 10


def test_plateau_min_lr_and_eps_by_hand():
    opt = optim.SGD([{"params": [nn.Parameter(sg.ones(1))]},
                     {"params": [nn.Parameter(sg.ones(1))], "lr": 0.01}], lr=1.0)
    sched = optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max", factor=0.1, patience=0,
                                                 min_lr=[0.05, 0.0], eps=0.005)
    for metric in [1.0, 0.5, 0.5]:
        sched.step(metric)
    # 1 -> 0.1 -> 0.05 (min_lr); 0.01 -> 0.001 (a change of 0.009 > eps) -> 0.001 (0.0009 <= eps)
    assert sched.get_last_lr() == [0.05, 0.001]


# ---------------------------------------------------------------- warnings

def _warned(action):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        action()
    return [str(w.message) for w in caught if issubclass(w.category, UserWarning)]


def test_warnings_match_torchs():
    torch = pytest.importorskip("torch")

    def cases(m):
        opt = _optimizer(m, False)
        sched = m.optim.lr_scheduler.StepLR(opt, 3)
        yield sched.step                                        # before optimizer.step()
        opt2 = _optimizer(m, False)
        sched2 = m.optim.lr_scheduler.LinearLR(opt2)
        opt2.step = lambda: None                                # replaced afterwards
        yield sched2.step
        opt3 = _optimizer(m, False)
        sched3 = m.optim.lr_scheduler.ExponentialLR(opt3, 0.5)
        yield opt3.step
        yield sched3.step                                       # the right order: nothing
        yield sched3.get_lr                                     # get_lr() by hand
        yield lambda: sched3.step(5)                            # an epoch
    counts = []
    for mine, theirs in zip(cases(sg), cases(torch)):
        got, want = _warned(mine), _warned(theirs)
        assert got == want
        counts.append(len(got))
    assert counts == [1, 1, 0, 0, 1, 1]


def test_the_right_order_warns_nothing():
    opt = _optimizer(sg, False)
    sched = optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=10)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(9):
            opt.step()
            sched.step()


# ---------------------------------------------------------------- state, errors

@pytest.mark.parametrize("name", ["multistep", "sequential", "chained", "warm_restarts",
                                  "cyclic2", "onecycle", "lambda"])
def test_state_dict_round_trip_resumes_the_schedule(name):
    whole, _, _ = schedule(sg, name, steps=30)
    opt = _optimizer(sg, False)
    sched = SCHEDULES[name](sg, opt)
    for _ in range(12):
        opt.step()
        sched.step()
    saved, groups = sched.state_dict(), [dict(g) for g in opt.param_groups]
    opt2 = _optimizer(sg, False)
    sched2 = SCHEDULES[name](sg, opt2)
    sched2.load_state_dict(saved)
    for g, old in zip(opt2.param_groups, groups):
        g.update({k: v for k, v in old.items() if k != "params"})
    seen = []
    for _ in range(18):
        opt2.step()
        sched2.step()
        seen.append((sched2.get_last_lr(), _momenta(opt2)))
    assert seen == whole[13:]


def test_warm_restarts_with_fractional_epochs_equal_torchs():
    torch = pytest.importorskip("torch")
    runs = []
    for m in (sg, torch):
        opt = _optimizer(m, False)
        sched = m.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2)
        seen = []
        for epoch in (0.5, 1.25, 3.0, 4.5, 9.0, 10.75, 2.0):
            opt.step()
            sched.step(epoch)
            seen.append((sched.get_last_lr(), sched.T_cur, sched.T_i, sched.last_epoch))
        runs.append(seen)
    assert runs[0] == runs[1]


def test_errors_match_torchs():
    torch = pytest.importorskip("torch")
    ls = "optim.lr_scheduler"
    cases = [
        lambda m, o: m.optim.lr_scheduler.ConstantLR(o, factor=2.0),
        lambda m, o: m.optim.lr_scheduler.LinearLR(o, start_factor=0),
        lambda m, o: m.optim.lr_scheduler.LinearLR(o, end_factor=1.5),
        lambda m, o: m.optim.lr_scheduler.LambdaLR(o, [lambda e: 1.0]),
        lambda m, o: m.optim.lr_scheduler.MultiplicativeLR(o, 0.5),
        lambda m, o: m.optim.lr_scheduler.MultiStepLR(o, [2], last_epoch=3),
        lambda m, o: m.optim.lr_scheduler.OneCycleLR(o, max_lr=0.1),
        lambda m, o: m.optim.lr_scheduler.OneCycleLR(o, max_lr=0.1, total_steps=0),
        lambda m, o: m.optim.lr_scheduler.OneCycleLR(o, max_lr=0.1, epochs=2,
                                                     steps_per_epoch=-1),
        lambda m, o: m.optim.lr_scheduler.OneCycleLR(o, max_lr=0.1, total_steps=9,
                                                     pct_start=1.5),
        lambda m, o: m.optim.lr_scheduler.OneCycleLR(o, max_lr=0.1, total_steps=9,
                                                     anneal_strategy="exp"),
        lambda m, o: m.optim.lr_scheduler.OneCycleLR(o, max_lr=[0.1], total_steps=9),
        lambda m, o: m.optim.lr_scheduler.CyclicLR(o, 0.01, 0.1, mode="sawtooth"),
        lambda m, o: m.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=0),
        lambda m, o: m.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0),
        lambda m, o: m.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2, eta_min="0"),
        lambda m, o: m.optim.lr_scheduler.ReduceLROnPlateau(o, factor=1.0),
        lambda m, o: m.optim.lr_scheduler.ReduceLROnPlateau(o, mode="avg"),
        lambda m, o: m.optim.lr_scheduler.ReduceLROnPlateau(o, threshold_mode="log"),
        lambda m, o: m.optim.lr_scheduler.ReduceLROnPlateau(o, min_lr=[0.1]),
        lambda m, o: m.optim.lr_scheduler.SequentialLR(o, [], milestones=[]),
        lambda m, o: m.optim.lr_scheduler.SequentialLR(
            o, [m.optim.lr_scheduler.ConstantLR(o)], milestones=[3]),
        lambda m, o: m.optim.lr_scheduler.SequentialLR(
            o, [m.optim.lr_scheduler.ReduceLROnPlateau(o)], milestones=[]),
        lambda m, o: m.optim.lr_scheduler.ChainedScheduler([]),
        lambda m, o: m.optim.lr_scheduler.StepLR(None, 3),
    ]
    for make in cases:
        with pytest.raises(Exception) as theirs:
            make(torch, _optimizer(torch, False))
        with pytest.raises(type(theirs.value)) as mine:
            make(sg, _optimizer(sg, False))
        assert str(mine.value) == str(theirs.value), ls
    for m in (torch, sg):                       # no momentum to cycle; past the last step
        opt = m.optim.Adagrad([m.nn.Parameter(m.ones(1))])
        with pytest.raises(ValueError, match="optimizer must support momentum or beta1"):
            m.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=5)
        opt = m.optim.SGD([m.nn.Parameter(m.ones(1))], lr=0.1, momentum=0.9)
        sched = m.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=2)
        for _ in range(2):
            opt.step()
            sched.step()
        with pytest.raises(ValueError, match="Tried to step 3 times. The specified number "
                                             "of total steps is 2"):
            sched.step()


def test_every_torch_scheduler_is_importable_here():
    torch = pytest.importorskip("torch")
    for name in torch.optim.lr_scheduler.__all__:
        if name not in ("LRScheduler",):
            assert issubclass(getattr(lr_scheduler, name), lr_scheduler.LRScheduler), name
    assert lr_scheduler.LRScheduler.__name__ == "LRScheduler"


def test_an_optimizer_with_a_scheduler_still_pickles():
    """The scheduler wraps the optimizer's step in a local function; pickling leaves it out,
    as torch's does."""
    import pickle
    opt = _optimizer(sg, False)
    sched = optim.lr_scheduler.StepLR(opt, 2)
    opt.step()
    sched.step()
    copy = pickle.loads(pickle.dumps(opt))
    assert [g["lr"] for g in copy.param_groups] == [0.1, 0.3]
    assert pickle.loads(pickle.dumps(sched.state_dict()))["last_epoch"] == 1
