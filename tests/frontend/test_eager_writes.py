"""Eager in-place writes with no gradient involved go straight into the NumPy buffer a tensor
shares with its views (``functions/eager_writes.py``): ``N[i, j] += 1``, ``x[i, 1:3] = v``,
``row += 1``. Checked against NumPy (the values every member of the family shows, written by
hand into a NumPy array), torch's version counters and errors, and that the general path
(``inplace._write``) runs exactly where the fast one must not."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
from symgrad.frontend.functions import inplace


@pytest.fixture
def general(monkeypatch):
    """How many times the general path wrote a tensor (``inplace._write`` at the top)."""
    calls = []
    real = inplace._write

    def counted(t, value):
        calls.append(t)
        return real(t, value)
    monkeypatch.setattr(inplace, "_write", counted)
    return calls


def test_counting_into_an_int_table(general):
    words = ["emma", "olivia", "ava", "isabella"]
    N = sg.zeros((27, 27), dtype=sg.int32)
    ref = np.zeros((27, 27), np.int32)
    v0 = N._version
    pairs = 0
    for w in words:
        chs = [0] + [ord(c) - 96 for c in w] + [0]
        for a, b in zip(chs, chs[1:]):
            N[a, b] += 1
            ref[a, b] += 1
            pairs += 1
    np.testing.assert_array_equal(N.numpy(), ref)
    assert N.dtype is sg.int32
    assert N._version - v0 == 2 * pairs     # torch: the view's += and the copy back, each one
    assert not general


def test_a_write_through_a_view_reaches_its_base_and_the_other_views(general):
    P = sg.arange(12.0).reshape(3, 4)
    ref = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    row, col, t = P[1], P[:, 2], P.t()
    row[2] = 7.0
    ref[1, 2] = 7.0
    row += 1
    ref[1] += 1
    t[0, 2] = 100.0                              # P[2, 0] through the transposed view
    ref[2, 0] = 100.0
    col[0:2] = sg.tensor([-1.0, -2.0])
    ref[0:2, 2] = [-1.0, -2.0]
    np.testing.assert_array_equal(P.numpy(), ref)
    np.testing.assert_array_equal(row.numpy(), ref[1])
    np.testing.assert_array_equal(col.numpy(), ref[:, 2])
    np.testing.assert_array_equal(t.numpy(), ref.T)
    assert row._version == col._version == P._version == 4
    assert not general


def test_values_are_cast_as_torch_s_copy_casts(general):
    x = sg.zeros(6, dtype=sg.int64)
    x[1] = 2.7                                   # a number: as_tensor's cast, truncated
    x[2:4] = sg.tensor([1.9, -1.9])              # a float tensor into int64: truncated
    x[4:6] = sg.tensor([True, False])
    assert x.tolist() == [0, 2, 1, -1, 1, 0]
    b = sg.zeros(3, dtype=sg.bool)
    b[1] = sg.tensor(0.5)
    b[2] = sg.tensor(0.0)
    assert b.tolist() == [False, True, False]
    h = sg.zeros(2, dtype=sg.float16)
    h[0] = sg.tensor(1.0 / 3.0, dtype=sg.float64)
    assert h.numpy()[0] == np.float16(1.0 / 3.0)
    assert not general


def test_errors_are_torch_s():
    x = sg.zeros(5)
    with pytest.raises(RuntimeError, match=r"The expanded size of the tensor \(2\) must match "
                                           r"the existing size \(3\) at non-singleton dimension "
                                           r"0.  Target sizes: \[2\].  Tensor sizes: \[3\]"):
        x[0:2] = sg.ones(3)
    assert x.tolist() == [0.0] * 5
    N = sg.zeros((2, 2), dtype=sg.int32)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired "
                                           "output type Int"):
        N[0, 0] += 1.5
    assert N.tolist() == [[0, 0], [0, 0]]
    e = sg.zeros(3).expand(2, 3)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        e[0, 0] = 1.0


def test_a_family_member_holding_a_copy_takes_the_general_path(general):
    # an unfold's windows: a view torch shows, whose NumPy array here is not a view of the
    # buffer, so the general path writes (and computes the windows again)
    P = sg.arange(6.0).reshape(2, 3)
    u = P.unfold(1, 2, 1)
    P[0, 1] = -3.0
    assert u[0].tolist() == [[0.0, -3.0], [-3.0, 2.0]]
    assert P.tolist() == [[0.0, -3.0, 2.0], [3.0, 4.0, 5.0]]


def test_gradients_keep_the_general_path(general):
    w = sg.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        w[0] = 2.0
    assert not general                          # (refused before any write)
    with sg.no_grad():
        w[0] = 2.0                               # allowed, as torch allows it
    assert w.tolist() == [2.0, 1.0, 1.0]
    x = sg.zeros(3)
    x[1:3] = w[0:2] * 2.0                      # a value in the graph: CopySlices
    assert x.requires_grad and x.grad_fn.name() == "CopySlices"
    x.sum().backward()
    assert w.grad.tolist() == [2.0, 2.0, 0.0]


@pytest.mark.parametrize("case", ["count", "views"])
def test_torch_agrees(case):
    torch = pytest.importorskip("torch")

    def program(lib):
        out = []
        if case == "count":
            N = lib.zeros((5, 5), dtype=lib.int32)
            for a, b in [(0, 1), (1, 2), (0, 1), (4, 4)]:
                N[a, b] += 1
            out += [N.tolist(), N._version]
        else:
            P = lib.arange(12.0).reshape(3, 4)
            row, col = P[1], P[:, 2]
            row[2] = 7.0
            row += 1
            col[0:2] = lib.tensor([-1.0, -2.0])
            out += [P.tolist(), row.tolist(), col.tolist(), P._version, row._version]
        return out
    assert program(sg) == program(torch)


def test_pointwise_in_place_methods_on_views(general):
    P = sg.arange(12.0).reshape(3, 4)
    ref = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    P[1] /= 4.0
    ref[1] /= np.float32(4.0)
    P[:, 2].clamp_(max=5.0)
    ref[:, 2] = np.minimum(ref[:, 2], np.float32(5.0))
    P[2, 1:3].exp_()
    ref[2, 1:3] = np.exp(ref[2, 1:3])
    np.testing.assert_allclose(P.numpy(), ref, rtol=1e-6)
    assert not general
    N = sg.arange(6).reshape(2, 3)
    N[0] //= 2                                  # an int tensor stays int
    assert N.tolist() == [[0, 0, 1], [3, 4, 5]] and not general

    with pytest.raises(RuntimeError, match="result type Float can't be cast"):
        N[1].div_(2.0)


def test_fill_zero_and_copy_into_views(general):
    P = sg.arange(12.0).reshape(3, 4)
    ref = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    v0 = P._version
    P[0].zero_()
    ref[0] = 0
    P[:, 3].fill_(-1.5)
    ref[:, 3] = -1.5
    P[1:3, 0:2].copy_(sg.tensor([7, 8]))         # int64 source, broadcast over the rows
    ref[1:3, 0:2] = [7.0, 8.0]
    P[2, 2].fill_(sg.tensor(9.0, dtype=sg.float64))
    ref[2, 2] = 9.0
    np.testing.assert_array_equal(P.numpy(), ref)
    assert P._version - v0 == 4 and not general
    w = sg.ones(3, requires_grad=True)
    (w * 2.0).sum().backward()
    w.grad.zero_()                               # a gradient cleared by hand
    assert w.grad.tolist() == [0.0, 0.0, 0.0] and not general
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(4\) must match the size "
                                           r"of tensor b \(3\) at non-singleton dimension 0"):
        P[0].copy_(sg.ones(3))


def _views(P):
    return [P.t(), P.permute(1, 0), P.transpose(0, 1), P.unsqueeze(1), P.reshape(4, 3),
            P.view(2, 6), P[1].unsqueeze(0).squeeze(0), P.t().t()]


def _shown(ref):
    return [ref.T, ref.T, ref.T, ref[:, None], ref.reshape(4, 3), ref.reshape(2, 6), ref[1],
            ref]


def test_views_made_without_apply_show_their_base(general):
    # eager views with no node to record are made directly (shapes._moved): the same values,
    # links and version counter as apply's, and writes through them reach every one
    P = sg.arange(12.0).reshape(3, 4)
    ref = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    views = _views(P)
    for v, want in zip(views, _shown(ref)):
        np.testing.assert_array_equal(v.numpy(), want)
    P[0, 0] = 100.0
    views[0][3, 2] = -5.0                        # P[2, 3] through the transposed view
    views[4][0] += 1.0                           # the reshape's first row: P[0, 0:3]
    ref[0, 0] = 100.0
    ref[2, 3] = -5.0
    ref.reshape(4, 3)[0] += 1.0
    for v, want in zip(views, _shown(ref)):
        np.testing.assert_array_equal(v.numpy(), want)
    assert all(v._version == P._version == 4 for v in views)   # (+= is two writes)
    assert views[0].stride() == (1, 4) and not views[0].is_contiguous()
    assert not general


def test_views_of_a_tensor_that_requires_grad_keep_their_nodes():
    w = sg.arange(6.0).reshape(2, 3).requires_grad_()
    names = [w.t().grad_fn.name(), w.permute(1, 0).grad_fn.name(),
             w.transpose(0, 1).grad_fn.name(), w.unsqueeze(0).grad_fn.name(),
             w.reshape(3, 2).grad_fn.name(), w.view(6).grad_fn.name(),
             w[0].unsqueeze(0).squeeze().grad_fn.name()]
    assert names == ["TBackward0", "PermuteBackward0", "TransposeBackward0",
                     "UnsqueezeBackward0", "ViewBackward0", "ViewBackward0",
                     "SqueezeBackward0"]
    with sg.no_grad():
        v = w.t()
    assert v.grad_fn is None and not v.requires_grad


def test_views_and_writes_agree_with_torch():
    torch = pytest.importorskip("torch")

    def program(lib):
        P = lib.arange(12.0).reshape(3, 4)
        views = _views(P)
        P[0, 0] = 100.0
        views[0][3, 2] = -5.0
        views[4][0] += 1.0
        return [[v.tolist() for v in views], [v.stride() for v in views],
                [v.is_contiguous() for v in views], [v._version for v in views]]
    assert program(sg) == program(torch)
