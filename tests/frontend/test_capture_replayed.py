"""What a training loop does around its captured steps: statistics on a step's kept results
(their graph made only if read), steps that leave the captured path at the same op each
time, and the eager shortcuts (a copy, a minibatch's rows) inside and outside a step. Each
program runs with capture off and on (``test_capture.check``) and must observe the same."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F
from symgrad.frontend.core import lazy
from symgrad.frontend.core.pending import ReplayedTensor

from test_capture import _run, check
from test_capture_regions import _eager_log, _with_threshold


def _loop(log, steps=6, read=lambda log, l, y: None):
    rng = np.random.default_rng(2)
    x = sg.tensor(rng.standard_normal((5, 3)).astype(np.float32))
    w = sg.tensor(rng.standard_normal((3, 2)).astype(np.float32), requires_grad=True)
    for _ in range(steps):
        y = (x @ w).tanh()
        l = y * y
        l.mean().backward()
        read(log, l, y)
        log += [w.grad.numpy().copy()]
        with sg.no_grad():
            w -= 0.1 * w.grad
        w.grad = None


def test_statistics_on_a_kept_result_make_no_graph_until_one_is_read():
    # ``float(l.sum())``: the sum's node has an edge to ``l``'s grad_fn, which is made only
    # when something reads it; then it is the object the edge holds, as in torch
    made = []

    def program(log):
        def read(log, l, y):
            s = l.sum()
            log += [float(s), s.grad_fn.name()]
            made.append(type(l) is ReplayedTensor)   # (no graph made: still a replayed one)
        _loop(log, read=read)
    stats = check(program)
    assert stats["replayed"] >= 3 and any(made), (stats, made)

    def identity(log):
        def read(log, l, y):
            s = l.sum()
            edge = s.grad_fn.next_functions[0][0]
            log += [edge.name(), edge is l.grad_fn, repr(edge).split(" ")[0],
                    [f.name() for f, _ in l.grad_fn.next_functions],
                    l.grad_fn.next_functions[0][0] is y.grad_fn]
        _loop(log, read=read)
    check(identity)


@pytest.mark.parametrize("order", ["sum first", "grad_fn first"])
def test_a_backward_through_a_kept_result_s_released_graph_raises_torch_s_error(order):
    def program(log):
        def read(log, l, y):
            if order == "grad_fn first":
                log.append(l.grad_fn.name())
            s = (l * 2.0).sum()
            try:
                s.backward()
            except RuntimeError as e:
                log.append(str(e)[:60])
            log.append(s.grad_fn.next_functions[0][0].name())
        _loop(log, read=read)
    stats = check(program)
    assert stats["replayed"] >= 3


def test_a_step_that_leaves_the_captured_path_at_the_same_op_is_armed_on_its_own():
    # two phases whose steps differ at one constant (an L2 penalty's weight): the second
    # phase's steps leave the first's path at that op every time; counted from there on
    # with what came before, as a recorded step is, they are armed too and run compiled
    replays = []

    def program(log, note):
        x = sg.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))
        for lambd in (0.0, 3.0):
            w = sg.tensor([0.5, -0.25, 1.0], requires_grad=True)
            for _ in range(16):
                loss = ((x @ w).tanh() ** 2).sum() + lambd * (w * w).sum()
                loss.backward()
                log += [loss.item(), w.grad.numpy().copy()]
                with sg.no_grad():
                    w -= 0.05 * w.grad
                w.grad = None
                note()
                replays.append(lazy.STATS["replayed"])
    eager = _eager_log(program)
    replays.clear()
    log, stats, _ = _with_threshold(program, 50)
    assert len(eager) == len(log)
    for a, b in zip(eager, log):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert stats["compiled"] == 2, stats   # one step per phase
    second = replays[-1] - replays[15]
    assert second >= 12, replays   # the second phase's: armed after 2 recorded visits


def test_a_copy_inside_a_step_is_recorded_as_it_replays():
    # ``reshape`` of a transposed result and ``clone`` of a step's result: a copy op of the
    # step (its value not read where it is pending), eagerly or replayed
    def program(log):
        w = sg.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], requires_grad=True)
        x = sg.tensor([[1.0, 2.0], [3.0, 4.0]])
        for _ in range(5):
            h = x @ w                                      # (2, 3)
            t = h.detach().t()                             # a transposed non-grad result
            flat = t.reshape(6)                            # a copy
            c = h.detach().clone()
            loss = (h * flat.reshape(2, 3) * c).sum() + w.clone().pow(2).sum()
            loss.backward()
            log += [loss.item(), w.grad.numpy().copy(), flat.numpy().copy(),
                    c.stride(), c.is_contiguous()]
            w.grad = None
    stats = check(program)
    assert stats["replayed"] >= 2, stats


def test_an_index_a_step_computes_is_wrapped_and_checked_as_eagerly():
    # an index computed inside the step (from a result's values): a negative one wraps, its
    # values are not read where it is pending
    def program(log):
        w = sg.tensor([0.5, -1.0, 2.0, 0.25], requires_grad=True)
        for _ in range(6):
            h = w * 2.0
            idx = (h.detach() * 0.0).long() - 2                # -2: wrapped
            loss = h[idx].pow(2).sum()
            loss.backward()
            log += [loss.item(), w.grad.numpy().copy()]
            w.grad = None
    stats = check(program)
    assert stats["replayed"] >= 3, stats

    def out_of_range(log):
        w = sg.tensor([0.5, -1.0, 2.0, 0.25], requires_grad=True)
        for step in range(6):
            h = w * 2.0
            idx = (h.detach() * 0.0).long() + (9 if step == 5 else 1)
            try:
                loss = h[idx].sum()
                loss.backward()
                log += [loss.item(), w.grad.numpy().copy()]
            except (IndexError, RuntimeError) as e:
                log.append(type(e).__name__)
            w.grad = None
    (off, _), (on, _) = _run(out_of_range, False), _run(out_of_range, True)
    # the bad index raises in both (at the op eagerly; at the backward of an armed step,
    # where the compiled gather checks it: the documented difference), nothing else differs
    assert off[-1] == "IndexError" and on[-1] in ("IndexError", "RuntimeError"), (off, on)
    assert len(off) == len(on)
    for a, b in zip(off[:-1], on[:-1]):
        np.testing.assert_allclose(a, b, rtol=2e-6, atol=1e-7)


def test_a_minibatch_s_rows_by_an_index_tensor():
    # ``features[batch]`` with an integer index tensor, outside a step (a data loader) and
    # inside one: the gather's values, dtype, layout and errors
    rng = np.random.default_rng(4)
    data = rng.standard_normal((10, 3)).astype(np.float32)
    f = sg.tensor(data)
    for idx in ([3, 0, 9], [[1, 2], [-1, -10]], []):
        i = sg.tensor(idx, dtype=sg.int64)
        got = f[i]
        want = data[np.asarray(idx, np.int64).reshape(np.shape(idx))]
        assert got.dtype is sg.float32 and tuple(got.shape) == want.shape
        np.testing.assert_array_equal(got.numpy(), want)
        assert got.is_contiguous() and got.grad_fn is None
        assert got.numpy().base is None or not np.shares_memory(got.numpy(), data)
    assert f[sg.tensor([1, 2], dtype=sg.int32)].numpy().tolist() == data[[1, 2]].tolist()
    with pytest.raises(IndexError, match="index 10 is out of bounds for dimension 0 with "
                                         "size 10"):
        f[sg.tensor([0, 10])]
    g = sg.tensor(data, requires_grad=True)
    picked = g[sg.tensor([2, 2, 5])]
    assert picked.grad_fn.name() == "IndexBackward0"
    picked.sum().backward()
    assert g.grad.numpy()[2].tolist() == [2.0] * 3 and g.grad.numpy()[5].tolist() == [1.0] * 3

    labels = rng.integers(0, 2, 10)

    def program(log):
        X = sg.tensor(data)
        Y = sg.tensor(labels)
        W = sg.zeros(3, 2, requires_grad=True)
        for k in range(6):
            batch = sg.tensor([(k + j) % 10 for j in range(4)])
            out = X[batch] @ W
            loss = F.cross_entropy(out, Y[batch])
            loss.backward()
            log += [loss.item(), W.grad.numpy().copy()]
            with sg.no_grad():
                W -= 0.5 * W.grad
            W.grad = None
    check(program)


def test_a_distribution_s_validation_is_left_to_the_step_and_raises_its_error():
    # Normal(loc, scale) checks scale > 0 by reading a value: on an armed step the check is
    # computed by the step and raises torch's ValueError where the step runs (its backward),
    # before any gradient is written; the steps before it are captured
    def program(log):
        mu = sg.tensor([0.5, -1.0, 2.0], requires_grad=True)
        s = sg.tensor([0.3, 0.2, 0.1], requires_grad=True)
        x = sg.tensor([0.0, 1.0, 1.5])
        for step in range(7):
            try:
                sign = sg.full((3,), 1.0 if step < 6 else -1.0)   # (a value, not the key)
                scale = s * sign                               # invalid at the last step
                d = sg.distributions.Normal(mu * 2.0, scale)
                loss = -d.log_prob(x).sum()
                loss.backward()
                log += [loss.item()]
            except ValueError as e:
                log.append(str(e).split(" of distribution")[0])
            log += [mu.grad.numpy().copy(), s.grad.numpy().copy()]
    stats = check(program)
    assert stats["replayed"] >= 3, stats
