"""Where a captured region starts and ends (``frontend.core.lazy``): the ops a training loop
runs between two steps must not keep the next step from being captured. Each program runs
with capture off and on (``test_capture.check``) and must observe the same."""

from __future__ import annotations


import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F
from symgrad.frontend.core import lazy

from test_capture import check


def test_statistics_of_a_step_s_result_after_its_backward():
    # ``float(l.sum())`` records a node on the step's graph after the backward: the region it
    # opens must end there, not hold every later step (which could then never be captured)
    def program(log):
        rng = np.random.default_rng(5)
        X = sg.tensor(rng.standard_normal((12, 3)).astype(np.float32))
        Y = sg.tensor(rng.integers(0, 2, 12))
        W = sg.zeros(3, 2, requires_grad=True)
        opt = sg.optim.SGD([W], lr=0.5)
        total = 0.0
        for _ in range(8):
            out = X @ W
            l = F.cross_entropy(out, Y, reduction="none")
            opt.zero_grad()
            l.mean().backward()
            opt.step()
            total += float(l.sum())                       # a node on the released graph
            log += [total, float((out.argmax(1) == Y).sum()), W.detach().numpy().copy()]
    stats = check(program)
    assert stats["replayed"] >= 4, stats


def test_a_graph_made_before_the_loop_runs_eagerly_with_the_same_numbers():
    def program(log):
        x = sg.tensor([0.5, -1.0, 2.0], requires_grad=True)
        h = x * 3.0                                       # a non-leaf from before the steps
        w = sg.ones(3, requires_grad=True)
        for _ in range(4):
            loss = (h * w).sum()
            loss.backward(retain_graph=True)
            log += [loss.item(), w.grad.numpy().copy(), x.grad.numpy().copy()]
    check(program, replays=False)


def test_a_random_draw_mid_step_keeps_the_step_captured_and_the_stream_torch_s():
    def program(log):
        sg.manual_seed(7)
        x = sg.tensor(np.linspace(-1, 1, 8, dtype=np.float32))
        w = sg.tensor(np.full(8, 0.5, np.float32), requires_grad=True)
        for _ in range(8):
            h = x * w
            eps = sg.empty(8).normal_()                   # a fresh tensor filled in place
            keep = sg.empty(8).bernoulli_(0.7)
            loss = ((h + 0.1 * eps) * keep).pow(2).sum()
            loss.backward()
            log += [loss.item(), eps.numpy().copy(), w.grad.numpy().copy()]
            with sg.no_grad():
                w -= 0.05 * w.grad
            w.grad = None
    stats = check(program)
    assert stats["replayed"] >= 4, stats


def test_an_update_of_what_the_step_reads_ends_it_first():
    def program(log):
        w = sg.ones(4, requires_grad=True)
        for step in range(6):
            keep = sg.full((4,), float(step))
            z = w + keep                                  # keep: an input of the step
            keep.mul_(2.0)                                # after z was computed
            other = sg.tensor([1.0, 2.0, 3.0, 4.0])
            u = w + other
            alias = sg.from_numpy(other.numpy()[:])       # other's memory, as a NumPy view
            alias.add_(10.0)
            loss = (z * z).sum() + (u * u).sum() + (w * keep).sum()
            loss.backward()
            log += [loss.item(), w.grad.numpy().copy(), other.numpy().copy()]
            w.grad = None
    check(program, replays=False)


def test_requires_grad_changed_mid_step_on_what_the_step_read():
    # the step's key holds each input's requires_grad as first read: a change after that
    # ends the region (a compiled step would give that input no gradient)
    def program(log):
        w = sg.tensor([1.0, 2.0], requires_grad=True)
        x = sg.tensor([3.0, 4.0])
        v = sg.tensor([0.5, -0.5], requires_grad=True)
        for step in range(6):
            y = x * 2.0                                   # a leaf: x requires no grad
            z = y * w * v
            if step >= 4:
                y.requires_grad_()
            if step == 5:
                v.detach_()
            loss = (z * y).sum()
            loss.backward()
            log += [loss.item(), w.grad.numpy().copy(),
                    None if y.grad is None else y.grad.numpy().copy(),
                    None if v.grad is None else v.grad.numpy().copy()]
            w.grad = None
            v.grad = None
    stats = check(program)
    assert stats["fallbacks"] + stats["replayed"] > 0, stats


def _with_threshold(program, min_ops: int):
    """``program`` run with capture on and the default policy but ``min_ops``; its log, the
    capture's statistics and how many ops the trie held after each step."""
    lazy.reset()
    before, settings = dict(lazy.STATS), dict(lazy.SETTINGS)
    lazy.SETTINGS.update(repeats=2, min_ops=min_ops)
    log: list = []
    nodes: list = []
    try:
        program(log, lambda: nodes.append(lazy.STATE.nodes))
    finally:
        lazy.SETTINGS.update(settings)
        lazy.reset()
    return log, {k: lazy.STATS[k] - before[k] for k in before}, nodes


def _eager_log(program) -> list:
    """What ``program(log, note)`` logs with capture off."""
    eager: list = []
    lazy.enable(False)
    try:
        program(eager, lambda: None)
    finally:
        lazy.enable(True)
    return eager


def _steps(log, note, steps=14, stats=False):
    w = sg.tensor([0.5, -0.25, 1.0], requires_grad=True)
    x = sg.tensor([1.0, 2.0, 3.0])
    for _ in range(steps):
        each = (w * x).tanh() * x
        loss = each.sum()
        loss.backward()
        log += [loss.item(), w.grad.numpy().copy()]
        if stats:   # ops on the released graph after the backward: no region's
            log += [float(each.sum()), float((each * 2.0).mean())]
        with sg.no_grad():
            w -= 0.1 * w.grad
        w.grad = None
        note()


@pytest.mark.parametrize("stats", [False, True])
def test_a_structure_is_only_counted_until_it_has_applied_min_ops(stats):
    # each step applies a few ops: counted (no trie) until 13 were applied; then recorded
    # twice, armed and run compiled; the numbers are the eager ones throughout. Statistics
    # on a step's released graph are counted in no region, as they are recorded in none.
    def program(log, note):
        _steps(log, note, stats=stats)
    eager = _eager_log(program)
    log, stats, nodes = _with_threshold(program, 13)
    # (float32 rounding: a compiled tanh may round the last bits otherwise, and 14 steps of
    # updates carry it)
    check_same = [np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
                  for a, b in zip(eager, log)]
    assert len(check_same) == len(eager) == len(log)
    # the first recorded step is the one after the counted ops reached the threshold (13,
    # whatever the process compiled before); the trie then holds one node per op
    first = next(k for k, n in enumerate(nodes) if n)
    ops, threshold = nodes[first], 13
    assert first * ops >= threshold > (first - 1) * ops, (nodes, threshold)
    assert stats["replayed"] >= 2, (nodes, stats)


def test_a_structure_that_never_repeats_is_never_recorded():
    def program(log, note):
        w = sg.ones(2, requires_grad=True)
        for k in range(1, 8):
            loss = w.sum()
            for _ in range(k):                  # another structure each step
                loss = loss * 1.5
            loss.backward()
            log.append(w.grad.numpy().copy())
            w.grad = None
            note()
    log, stats, nodes = _with_threshold(program, 1000)
    assert nodes == [0] * 7 and stats["replayed"] == 0, (nodes, stats)
    assert [float(g[0]) for g in log] == [1.5 ** k for k in range(1, 8)]


def test_a_step_off_the_armed_path_is_counted_not_recorded():
    # once a path is armed every region starts pending; one that leaves the path goes on
    # counted, not keyed op by op into the trie: steps of structures that never repeat
    # leave the trie as it was, however long the program runs beside its armed step
    def program(log, note):
        w = sg.tensor([0.5, -0.25, 1.0], requires_grad=True)
        x = sg.tensor([1.0, 2.0, 3.0])
        for k in range(36):
            loss = ((w * x).tanh() * x).sum()
            # from step 30 on: another structure each step, each fewer ops than min_ops
            for _ in range(max(0, k - 29)):
                loss = loss * 1.5
            loss.backward()
            log.append(w.grad.numpy().copy())
            w.grad = None
            note()
    eager = _eager_log(program)
    log, stats, nodes = _with_threshold(program, 13)
    assert len(log) == len(eager) == 36
    for a, b in zip(eager, log):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert stats["replayed"] >= 2, stats
    assert nodes[29] > 0 and nodes[30:] == [nodes[29]] * 6, nodes


_BACKWARDS: list = []


class _CountedCube(sg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        _BACKWARDS.append(1)     # (Python the program sees run: the step stays eager)
        x, = ctx.saved_tensors
        return g * 3.0 * x ** 2


def test_a_structure_the_capture_cannot_run_is_recorded_ever_more_rarely():
    # a custom Function whose backward writes a global is never captured: each time its
    # count reaches the threshold a few regions are recorded, which arm nothing, and the
    # next time comes after twice as many ops: a handful of the 400 steps pay for
    # recording, not nearly all of them (~3 us an op each)
    steps = 400

    def program(log, note):
        w = sg.tensor([0.5, -0.25], requires_grad=True)
        for _ in range(steps):
            loss = (_CountedCube.apply(w * 2.0) + w).sum()
            loss.backward()
            log.append(w.grad.numpy().copy())
            w.grad = None
            note()
    eager = _eager_log(program)
    _BACKWARDS.clear()
    log, stats, _ = _with_threshold(program, 13)
    assert len(log) == len(eager) == steps
    assert all(np.array_equal(a, b) for a, b in zip(eager, log))
    assert stats["replayed"] == 0 and len(_BACKWARDS) == steps, stats
    # at most 10 ops a step: 4000 in all, so the count asks at most log2(4000 / 13) + 1 < 10
    # times, and each time the first recorded region, which arms nothing, ends the asking
    # (before: one in 13 steps was counted and all the others recorded)
    assert 1 <= stats["recorded"] <= 10, stats


def test_an_op_that_checks_its_values_raises_at_its_line():
    # cholesky/inv/solve raise on a singular matrix: never deferred to a later read or to
    # the backward (the sweep's error classes, torch's semantics)
    def program(log):
        good = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 0.0], [0.0, 0.0, 2.0]])
        for k in range(7):
            a = sg.tensor(good if k != 5 else np.zeros((3, 3)), requires_grad=True)
            where = "op"
            try:
                lower = sg.linalg.cholesky(a * 1.0)
                inverse = sg.linalg.inv(a * 2.0)
                where = "backward"
                (lower.sum() + inverse.sum()).backward()
                log += [a.grad.numpy().copy()]
            except Exception as e:   # noqa: BLE001  (its class and where it was raised)
                log += [(where, type(e).__name__)]
    check(program, replays=False)


@pytest.mark.parametrize("every", [1, 4])
def test_a_step_that_reads_a_value_mid_step_each_time_stops_being_captured(every):
    # ``float(h.sum())`` before the backward: a pending region falls back there. Each
    # step (every=1), nothing replays between the fallbacks: after ``repeats`` of them in a
    # row the path is disarmed and never armed again, and the steps run eagerly, not
    # pending first. Every 4th step only: the steps between replay, so it stays armed.
    def program(log, note):
        w = sg.tensor([0.5, -0.25, 1.0], requires_grad=True)
        x = sg.tensor([1.0, 2.0, 3.0])
        for k in range(40):
            h = (w * x).tanh()
            if k % every == 0:
                log.append(float(h.sum()))
            loss = (h * x).sum()
            loss.backward()
            log.append(w.grad.numpy().copy())
            with sg.no_grad():
                w -= 0.1 * w.grad
            w.grad = None
            note()
    eager = _eager_log(program)
    log, stats, _ = _with_threshold(program, 13)
    assert len(log) == len(eager)
    # (float32: a compiled tanh may round the last bit otherwise, and 40 steps of updates
    # carry it: 2e-6 at step 11, 6e-5 at step 40)
    for a, b in zip(eager, log):
        np.testing.assert_allclose(a, b, rtol=2e-4, atol=1e-6)
    if every == 1:
        assert stats["fallbacks"] == 2 and stats["replayed"] == 0, stats   # (repeats=2)
    else:
        assert stats["replayed"] >= 20 and stats["fallbacks"] >= 5, stats


def test_a_step_with_a_number_that_changes_every_step_is_recorded_ever_more_rarely():
    # a learning rate decayed by hand: each step's structure differs from the last at one
    # constant, so no path is visited twice and none arms. Each batch of recorded regions
    # that arms nothing doubles the ops its structure must count before the next batch
    steps = 400

    def program(log, note):
        w = sg.tensor([0.5, -0.25], requires_grad=True)
        x = sg.tensor([1.0, 2.0])
        lr = 0.1
        for _ in range(steps):
            loss = ((w * x).tanh() * lr).sum()
            loss.backward()
            log.append(w.grad.numpy().copy())
            w.grad = None
            lr *= 0.99
            note()
    eager = _eager_log(program)
    log, stats, _ = _with_threshold(program, 13)
    assert len(log) == len(eager) == steps
    assert all(np.array_equal(a, b) for a, b in zip(eager, log))
    assert stats["replayed"] == 0, stats
    # ~5 ops a step: 2000 in all, so at most log2(2000 / 13) + 1 < 9 batches of 12 regions
    # (before: every step but one in 13 recorded)
    assert 12 <= stats["recorded"] <= 9 * 12, stats
