"""Where a captured region starts and ends (``frontend.core.lazy``): the ops a training loop
runs between two steps must not keep the next step from being captured. Each program runs
with capture off and on (``test_capture.check``) and must observe the same."""

from __future__ import annotations

import numpy as np

import symgrad as sg
import symgrad.nn.functional as F

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
