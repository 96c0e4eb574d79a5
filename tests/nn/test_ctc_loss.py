"""``F.ctc_loss`` / ``nn.CTCLoss``: losses against a brute-force oracle (every alignment of a
short input enumerated, collapsed and summed: independent of the dynamic program), gradients
against central differences of that oracle, torch's reductions, ``zero_infinity``, targets
padded or concatenated, unbatched input; torch's errors; refused inside ``@symgrad.compile``;
no second derivative (as torch); and, where torch is installed, losses, gradients and grad_fn
names against torch (bit for bit but for the reductions).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import symgrad as sg

F = sg.nn.functional
R = np.random.default_rng(11)
T, N, C = 5, 4, 3
LOGITS = R.standard_normal((T, N, C))
LOG_PROBS = LOGITS - np.log(np.exp(LOGITS).sum(-1, keepdims=True))
TARGETS = np.array([[1, 2, 1], [2, 2, 0], [1, 0, 0], [2, 1, 0]])
INPUT_LENGTHS = np.array([5, 5, 3, 4])
TARGET_LENGTHS = np.array([3, 2, 1, 0])


def _collapse(path, blank):
    out = []
    for k, c in enumerate(path):
        if c != blank and (k == 0 or c != path[k - 1]):
            out.append(c)
    return out


def ctc_oracle(log_probs, targets, input_lengths, target_lengths, blank=0):
    """-log of the summed probability of every length-T path that collapses to the target."""
    losses = []
    for b in range(log_probs.shape[1]):
        n, want = input_lengths[b], list(targets[b, :target_lengths[b]])
        total = 0.0
        for path in itertools.product(range(log_probs.shape[2]), repeat=int(n)):
            if _collapse(path, blank) == want:
                total += np.exp(sum(log_probs[t, b, c] for t, c in enumerate(path)))
        losses.append(-np.log(total) if total > 0 else np.inf)
    return np.array(losses)


def _loss(lp, reduction="none", zero_infinity=False, blank=0, targets=TARGETS,
          lengths=(INPUT_LENGTHS, TARGET_LENGTHS), m=sg):
    return m.nn.functional.ctc_loss(lp, m.tensor(targets), m.tensor(lengths[0]),
                                    m.tensor(lengths[1]), blank=blank, reduction=reduction,
                                    zero_infinity=zero_infinity)


def test_losses_are_the_sum_over_alignments():
    expected = ctc_oracle(LOG_PROBS, TARGETS, INPUT_LENGTHS, TARGET_LENGTHS)
    np.testing.assert_allclose(_loss(sg.tensor(LOG_PROBS)).numpy(), expected, rtol=1e-13)
    blank2 = ctc_oracle(LOG_PROBS, np.where(TARGETS == 2, 0, TARGETS), INPUT_LENGTHS,
                        TARGET_LENGTHS, blank=2)
    got = _loss(sg.tensor(LOG_PROBS), blank=2, targets=np.where(TARGETS == 2, 0, TARGETS))
    np.testing.assert_allclose(got.numpy(), blank2, rtol=1e-13)


def test_reductions_and_target_layouts():
    per = ctc_oracle(LOG_PROBS, TARGETS, INPUT_LENGTHS, TARGET_LENGTHS)
    lp = sg.tensor(LOG_PROBS)
    np.testing.assert_allclose(_loss(lp, "sum").numpy(), per.sum(), rtol=1e-13)
    np.testing.assert_allclose(_loss(lp, "mean").numpy(),
                               (per / np.maximum(TARGET_LENGTHS, 1)).mean(), rtol=1e-13)
    concatenated = np.concatenate([TARGETS[b, :n] for b, n in enumerate(TARGET_LENGTHS)])
    got = F.ctc_loss(lp, sg.tensor(concatenated), list(INPUT_LENGTHS), list(TARGET_LENGTHS),
                     reduction="none")
    np.testing.assert_allclose(got.numpy(), per, rtol=1e-13)
    single = F.ctc_loss(lp[:, 0], sg.tensor(TARGETS[0]), sg.tensor(5), sg.tensor(3),
                        reduction="none")
    assert single.shape == () and single.grad_fn is None
    np.testing.assert_allclose(single.numpy(), per[0], rtol=1e-13)


def _log_softmax(x):
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


def test_gradient_matches_finite_differences_of_the_oracle():
    """Through log_softmax, as ctc_loss is meant to be used: torch's gradient with respect to
    log_probs is exp(log_probs) - the posterior occupancy, which is the true gradient only
    once composed with log_softmax (its sum over classes is 0 per frame)."""
    logits = sg.tensor(LOGITS, requires_grad=True)
    weights = np.array([0.5, 1.5, -1.0, 2.0])
    (_loss(sg.nn.functional.log_softmax(logits, 2)) * sg.tensor(weights)).sum().backward()
    eps, fd = 1e-6, np.zeros_like(LOGITS)

    def oracle(x):
        return ctc_oracle(_log_softmax(x), TARGETS, INPUT_LENGTHS, TARGET_LENGTHS) @ weights
    for idx in np.ndindex(LOGITS.shape):
        up, down = LOGITS.copy(), LOGITS.copy()
        up[idx] += eps
        down[idx] -= eps
        fd[idx] = (oracle(up) - oracle(down)) / (2 * eps)
    np.testing.assert_allclose(logits.grad.numpy(), fd, rtol=1e-6, atol=1e-8)
    lp = sg.tensor(LOG_PROBS, requires_grad=True)
    _loss(lp).sum().backward()
    assert np.all(lp.grad.numpy()[3:, 2] == 0)       # past the third sample's 3 frames
    np.testing.assert_allclose(lp.grad.numpy().sum(-1)[:, :3], 0, atol=1e-14)


def test_impossible_alignments_give_inf_or_zero_with_zero_infinity():
    targets = np.array([[1, 1, 1]])            # needs 5 frames, has 3
    lp = sg.tensor(LOG_PROBS[:3, :1], requires_grad=True)
    loss = _loss(lp, targets=targets, lengths=([3], [3]))
    assert loss.detach().numpy().tolist() == [np.inf]
    assert loss.grad_fn.name() == "CtcLossBackward0"
    loss.sum().backward()
    assert np.isnan(lp.grad.numpy()).all()
    lp.grad = None
    zeroed = _loss(lp, targets=targets, lengths=([3], [3]), zero_infinity=True)
    assert zeroed.detach().numpy().tolist() == [0.0]
    assert zeroed.grad_fn.name() == "WhereBackward0"
    zeroed.sum().backward()
    assert (lp.grad.numpy() == 0).all()


def test_grad_fns_and_no_second_derivative():
    lp = sg.tensor(LOG_PROBS, requires_grad=True)
    assert [_loss(lp, r).grad_fn.name() for r in ("none", "mean", "sum")] == \
        ["CtcLossBackward0", "MeanBackward0", "SumBackward0"]
    (g,) = sg.autograd.grad(_loss(lp, "sum"), lp, create_graph=True)
    with pytest.raises(RuntimeError, match="derivative for aten::_ctc_loss_backward is not "
                                           "implemented"):
        g.sum().backward()


def test_module():
    m = sg.nn.CTCLoss(blank=0, reduction="sum", zero_infinity=True)
    assert repr(m) == "CTCLoss()" and (m.blank, m.zero_infinity) == (0, True)
    lp = sg.tensor(LOG_PROBS)
    np.testing.assert_array_equal(
        m(lp, sg.tensor(TARGETS), sg.tensor(INPUT_LENGTHS), sg.tensor(TARGET_LENGTHS)).numpy(),
        _loss(lp, "sum", zero_infinity=True).numpy())


ERRORS = [
    (dict(blank=3), RuntimeError, "blank must be in label range"),
    (dict(input_lengths=[5, 5, 3]), RuntimeError, "input_lengths must be of size batch_size"),
    (dict(target_lengths=[3, 2, 1]), RuntimeError, "target_lengths must be of size batch_size"),
    (dict(input_lengths=np.array([5.0, 5, 3, 4])), RuntimeError,
     "input_lengths must be integral"),
    (dict(input_lengths=[6, 5, 3, 4]), RuntimeError,
     "Expected input_lengths to have value at most 5, but got value 6 (while checking "
     "arguments for ctc_loss_allocate_outputs)"),
    (dict(target_lengths=[3, -1, 1, 0]), RuntimeError,
     "Expected target_lengths to have value at least 0, but got value -1 (while checking "
     "arguments for ctc_loss_allocate_outputs)"),
    (dict(target_lengths=[4, 2, 1, 0]), RuntimeError,
     "Expected tensor to have size at least 4 at dimension 1, but got size 3 for argument #2 "
     "'targets' (while checking arguments for ctc_loss_allocate_outputs)"),
    (dict(targets=np.array([1, 2, 1, 2])), RuntimeError,
     "Expected tensor to have size 6 at dimension 0, but got size 4 for argument #2 'targets' "
     "(while checking arguments for ctc_loss_allocate_outputs)"),
    (dict(targets=TARGETS[None]), RuntimeError,
     "Expected 1 to 2 dimensions, but got 3-dimensional tensor for argument #2 'targets' "
     "(while checking arguments for ctc_loss_allocate_outputs)"),
    (dict(log_probs=LOG_PROBS[None]), RuntimeError,
     "Expected 3-dimensional tensor, but got 5-dimensional tensor for argument #1 "
     "'log_probs' (while checking arguments for ctc_loss_allocate_outputs)"),
    (dict(log_probs=np.zeros((T, N, C), np.int64)), NotImplementedError,
     "\"ctc_loss_cpu\" not implemented for 'Long'"),
    (dict(reduction="bad"), ValueError, "bad is not a valid value for reduction"),
]


def _call(m, log_probs=LOG_PROBS, targets=TARGETS, input_lengths=INPUT_LENGTHS,
          target_lengths=TARGET_LENGTHS, **kw):
    def arg(v):
        return m.tensor(v) if isinstance(v, (np.ndarray, list)) else v
    return m.nn.functional.ctc_loss(arg(log_probs), arg(targets), arg(input_lengths),
                                    arg(target_lengths), **kw)


@pytest.mark.parametrize("kwargs,kind,message", ERRORS, ids=[e[2][:40] for e in ERRORS])
def test_errors_are_torchs(kwargs, kind, message):
    with pytest.raises(kind) as info:
        _call(sg, **kwargs)
    assert str(info.value) == message


@pytest.mark.parametrize("kwargs,kind,message", ERRORS, ids=[e[2][:40] for e in ERRORS])
def test_stored_errors_are_what_torch_raises(kwargs, kind, message):
    torch = pytest.importorskip("torch")
    with pytest.raises(kind) as info:
        _call(torch, **kwargs)
    assert str(info.value) == message


def test_out_of_range_target_is_an_index_error():
    with pytest.raises(IndexError, match="ctc_loss: target 3 is out of range for 3 classes"):
        _call(sg, targets=np.array([[1, 3, 1], [2, 2, 0], [1, 0, 0], [2, 1, 0]]))


def test_refused_inside_compile():
    with pytest.raises(RuntimeError, match="ctc_loss inside @symgrad.compile"):
        sg.compile(lambda lp: F.ctc_loss(lp, sg.tensor(TARGETS), INPUT_LENGTHS.tolist(),
                                         TARGET_LENGTHS.tolist()))(LOG_PROBS)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_matches_torch(dtype, reduction):
    torch = pytest.importorskip("torch")
    r = np.random.default_rng(3)
    logits = r.standard_normal((20, 3, 6)) * 2
    lp = (logits - np.log(np.exp(logits).sum(-1, keepdims=True))).astype(dtype)
    targets, lengths = r.integers(1, 6, (3, 8)), (np.array([20, 11, 17]), np.array([8, 0, 5]))
    out = []
    for m in (sg, torch):
        x = m.tensor(lp, requires_grad=True)
        loss = _loss(x, reduction, targets=targets, lengths=lengths, m=m)
        loss.backward(m.ones_like(loss))
        out.append((loss.detach().numpy(), x.grad.numpy(), type(loss.grad_fn).__name__
                    if m is torch else loss.grad_fn.name()))
    (mine, my_grad, my_name), (theirs, their_grad, their_name) = out
    assert my_name == their_name
    np.testing.assert_array_equal(my_grad, their_grad)          # bit for bit
    if reduction == "none":
        np.testing.assert_array_equal(mine, theirs)
    else:
        np.testing.assert_allclose(mine, theirs, rtol=4 * np.finfo(dtype).eps)
