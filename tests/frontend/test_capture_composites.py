"""Capture of whole composites (``frontend.core.lazy_composite``): on a captured step's path,
a composite marked pure (log_softmax, softmax, the losses) returns its pending result without
running its body's Python. Each program runs with capture off and on (``test_capture.check``)
and must observe the same; each test also checks that bodies were skipped or, where they must
not be, that none was.
"""

from __future__ import annotations

import numpy as np

import symgrad as sg
import symgrad.nn.functional as F
from symgrad.frontend.functions.composites import composite

from test_capture import check


def _problem(seed=0, n=16, d=4, k=3):
    rng = np.random.default_rng(seed)
    X = sg.tensor(rng.standard_normal((n, d)).astype(np.float32))
    Y = sg.tensor(rng.integers(0, k, n))
    W = sg.tensor(rng.standard_normal((d, k)).astype(np.float32) * 0.3, requires_grad=True)
    b = sg.zeros(k, requires_grad=True)
    return X, Y, W, b


def _sgd(log, *params):
    with sg.no_grad():
        for p in params:
            log.append(p.grad.numpy().copy())
            p -= 0.5 * p.grad
            p.grad = None


def test_cross_entropy_skips_its_bodies_and_gives_the_eager_numbers():
    def program(log):
        X, Y, W, b = _problem()
        for _ in range(6):
            z = X @ W + b
            lp = F.log_softmax(z, 1)
            loss = F.nll_loss(lp, Y) + F.cross_entropy(z, Y, reduction="sum") * 0.01
            loss.backward()
            log += [loss.item(), type(loss.grad_fn).__name__, type(lp.grad_fn).__name__,
                    lp.detach().numpy().copy()]
            _sgd(log, W, b)
    stats = check(program)
    assert stats["skipped"] > 0, stats


def test_a_value_read_after_a_skipped_body_falls_back_to_eager_values():
    def program(log):
        X, Y, W, b = _problem(1)
        for step in range(6):
            p = F.softmax(X @ W + b, 1)
            scale = 2.0 if float(p[0, 0]) > 0.3 else 1.0   # reads a pending value
            loss = (p * scale).sum(1).log().mean() + F.cross_entropy(X @ W, Y)
            loss.backward()
            log += [loss.item(), scale, p.detach().numpy().copy()]
            _sgd(log, W, b)
    stats = check(program, replays=False)
    assert stats["skipped"] > 0 and stats["fallbacks"] > 0, stats


def test_a_body_s_closure_is_part_of_its_key():
    # the body's constant is read only by the body: a key without it would replay a stale one
    def program(log):
        x = sg.tensor(np.linspace(-1, 1, 6, dtype=np.float32), requires_grad=True)
        for step in range(8):
            c = (1.5, -0.25)[step % 2]
            y = composite("MulBackward0", lambda a: a * c, [x * 1.0],
                          lambda g, out, ins: (g * out / ins[0],), pure=True)
            (y * y).sum().backward()
            log += [y.detach().numpy().copy(), x.grad.numpy().copy()]
            x.grad = None
    stats = check(program)
    assert stats["skipped"] > 0, stats


def test_a_body_that_makes_a_tensor_is_never_skipped():
    def program(log):
        x = sg.tensor(np.arange(4, dtype=np.float32), requires_grad=True)
        for _ in range(6):
            y = composite("AddBackward0", lambda a: a + sg.ones(4) * 2.0, [x * 2.0],
                          lambda g, out, ins: (g,), pure=True)
            y.sum().backward()
            log += [y.detach().numpy().copy(), x.grad.numpy().copy()]
            x.grad = None
    stats = check(program)
    assert stats["skipped"] == 0, stats


def test_nested_composites_and_no_grad_ones_inside_a_step():
    def program(log):
        rng = np.random.default_rng(2)
        x = sg.tensor(rng.standard_normal((2, 3, 4, 4)).astype(np.float32), requires_grad=True)
        t = sg.tensor(rng.integers(0, 3, (2, 4, 4)))
        for _ in range(5):
            with sg.no_grad():
                target = F.softmax(x.detach(), 1)        # a pure composite, not recorded
            loss = F.cross_entropy(x * 1.5, t) + (F.log_softmax(x, 1) * target).mean()
            loss.backward()
            log += [loss.item(), x.grad.numpy().copy()]
            x.grad = None
    stats = check(program)
    assert stats["skipped"] > 0, stats


def test_composites_of_other_shapes_at_one_point_of_a_step():
    # the same op sequence up to a composite whose weights differ in shape only: each body's
    # ops must keep the metadata of the tensors they first read (a GRU cell after an RNN
    # cell, once given a 4-row chunk of the wrong layer)
    def program(log):
        rng = np.random.default_rng(3)
        x = sg.tensor(rng.standard_normal(3), requires_grad=True)
        weights = [(sg.tensor(rng.standard_normal((k, 3)), requires_grad=True),
                    sg.tensor(rng.standard_normal(k), requires_grad=True)) for k in (4, 12)]
        for step in range(8):
            w, b = weights[step % 2]
            z = F.linear(x.unsqueeze(0), w, b)
            pieces = z.chunk(z.shape[1] // 4, -1)
            loss = sum((p * p).sum() for p in pieces)
            loss.backward()
            log += [list(z.shape), loss.item(), x.grad.numpy().copy(), w.grad.numpy().copy()]
            x.grad = w.grad = b.grad = None
    stats = check(program, replays=False)
    assert stats["skipped"] > 0, stats


def _in_place_error(t):
    try:
        t.mul_(2.0)
    except RuntimeError as e:
        return str(e)[:60]
    return "no error"


def test_split_and_unbind_pieces_run_compiled_with_their_shared_node():
    def program(log):
        rng = np.random.default_rng(4)
        x = sg.tensor(rng.standard_normal((5, 4)).astype(np.float32))
        W = sg.tensor(rng.standard_normal((4, 9)).astype(np.float32), requires_grad=True)
        for _ in range(6):
            z = x @ W
            a, b, c = z.chunk(3, 1)
            rows = z.unbind(0)
            loss = (a.sigmoid() * b.tanh() + c).sum() + sum((r * r).sum() for r in rows[:2])
            flat = b[1:]                                  # a view of a piece
            loss.backward()
            fn = a.grad_fn
            log += [loss.item(), W.grad.numpy().copy(), type(fn).__name__,
                    fn is b.grad_fn, type(rows[1].grad_fn).__name__,
                    [type(f).__name__ for f, _ in fn.next_functions],
                    _in_place_error(a), _in_place_error(flat), a.requires_grad, a.is_leaf]
            W.grad = None
    stats = check(program)
    assert stats["replayed"] > 0, stats


def test_a_step_that_starts_with_a_composite_skips_it_too():
    # nn.Linear first: the region starts at the composite (its body's ops are the step's),
    # not at its backward node after an eager body
    def program(log):
        rng = np.random.default_rng(6)
        x = sg.tensor(rng.standard_normal((6, 3)).astype(np.float32))
        sg.manual_seed(6)
        layer = sg.nn.Linear(3, 2)
        for _ in range(6):
            z = layer(x)
            loss = (z * z).sum()
            loss.backward()
            log += [loss.item(), layer.weight.grad.numpy().copy(), type(z.grad_fn).__name__]
            layer.zero_grad()
    stats = check(program)
    assert stats["skipped"] >= 3 and stats["replayed"] >= 3, stats
