"""What the op sweep does not exercise of the shape functions added with ``views_more`` and
``view_updates`` and of the refusals lifted with them: compiled values (against NumPy oracles),
gradients compiled and eager (against central differences), torch's strides and storage
offsets of ``unfold`` and of the in-place views, ``resize_`` keeping its storage for a later
growth, ``embedding(max_norm=)`` renormalizing the weight in place (version counter, rows
against a NumPy oracle), ``addbmm_`` resizing its self, the adaptive pools' backward error of
an empty output. torch is compared where installed; every test also has its torch-free
oracle."""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F
from references import central_differences, gradient

RNG = np.random.default_rng(11)
A = RNG.standard_normal((2, 3, 4))
B = RNG.standard_normal((3, 4))


def _windows(a: np.ndarray, dim: int, size: int, step: int) -> np.ndarray:
    """NumPy oracle of Tensor.unfold."""
    n = a.shape[dim]
    parts = [np.take(a, range(s, s + size), axis=dim) for s in range(0, n - size + 1, step)]
    return np.moveaxis(np.stack(parts, axis=dim), dim + 1, -1)


COMPILED = [
    ("x.unfold(2, 2, 1)", lambda a: _windows(a, 2, 2, 1)),
    ("x.unfold(1, 2, 2) * 2", lambda a: _windows(a, 1, 2, 2) * 2),
    ("sg.swapdims(x, 0, 2)", lambda a: np.swapaxes(a, 0, 2)),
    ("sg.vsplit(x, 2)[1]", lambda a: a[1:]),
    ("sg.hsplit(x, [1])[1]", lambda a: a[:, 1:]),
    ("sg.dsplit(x, 2)[0]", lambda a: a[:, :, :2]),
    ("sg.unsafe_chunk(x, 2, 1)[1] + 1", lambda a: a[:, 2:] + 1),
    ("sg.diagflat(x[0, 0], 1)", lambda a: np.diag(a[0, 0], 1)),
    ("x.sum_to_size(1, 3, 1)", lambda a: a.sum((0, 2), keepdims=True)),
    ("x.narrow_copy(2, 1, 2)", lambda a: a[:, :, 1:3]),
    ("sg.view_copy(x, (6, 4))", lambda a: a.reshape(6, 4)),
    ("sg.slice_copy(x, 2, 0, 4, 2)", lambda a: a[:, :, ::2]),
    ("sg.diagonal_scatter(x[0], x[1, 0, :3] * 3)", lambda a: _put_diag(a[0], a[1, 0, :3] * 3)),
    ("sg.select_scatter(x, x[0] * 0, 0, 1)", lambda a: np.stack([a[0], a[0] * 0])),
    ("sg.slice_scatter(x, x[:, :, :2] + 5, 2, 1, 4, 2)", lambda a: _put_slice(a)),
]


def _put_diag(m: np.ndarray, d: np.ndarray) -> np.ndarray:
    out = m.copy()
    out[np.arange(3), np.arange(3)] = d
    return out


def _put_slice(a: np.ndarray) -> np.ndarray:
    out = a.copy()
    out[:, :, 1:4:2] = a[:, :, :2] + 5
    return out


@pytest.mark.parametrize("expr, oracle", COMPILED, ids=[c for c, _ in COMPILED])
def test_compiled_agrees_with_numpy(expr, oracle):
    def run(x):
        return eval(expr, {"sg": sg, "x": x})
    got = sg.compile(run)(sg.tensor(A))
    np.testing.assert_allclose(np.asarray(got), oracle(A), rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(run(sg.tensor(A)).numpy(), oracle(A), rtol=1e-14, atol=1e-14)


GRADS = ["(x.unfold(1, 3, 1) ** 2).sum()", "(sg.diagflat(x[0]) * 1.5).sum()",
         "(sg.slice_scatter(x, x[:, :2] ** 2, 1, 2) ** 2).sum()",
         "(x.sum_to_size(3, 1) ** 3).sum()", "(sg.unsafe_split(x, 2, 1)[1] ** 2).sum()",
         "(F.interpolate(x[None, None], size=(2, 3), mode='bicubic', antialias=True) ** 2)"
         ".sum()"]


@pytest.mark.parametrize("how", ["eager", "compiled"])
@pytest.mark.parametrize("expr", GRADS)
def test_gradients_match_central_differences(expr, how):
    def f(x):
        return eval(expr, {"sg": sg, "F": F, "x": x})
    np.testing.assert_allclose(gradient(f, B, how), central_differences(f, B), rtol=1e-6,
                               atol=1e-7)


def test_unfold_and_in_place_views_report_torchs_strides():
    x = sg.arange(24.).reshape(2, 3, 4)
    u = x[:, 1:].unfold(1, 2, 2)
    assert tuple(u.shape) == (2, 1, 4, 2) and u.stride() == (12, 8, 1, 4)
    assert u.storage_offset() == 4
    assert x.transpose(0, 2).unfold(0, 3, 1).stride() == (1, 4, 12, 1)
    y = x.clone()
    assert y.transpose_(0, 2) is y
    assert tuple(y.shape) == (4, 3, 2) and y.stride() == (1, 4, 12) and y._version == 1
    np.testing.assert_array_equal(y.numpy(), np.arange(24.).reshape(2, 3, 4).T)
    z = x.clone().unsqueeze_(1)
    assert z.stride() == (12, 12, 4, 1)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable"):
        sg.ones(2, 3, requires_grad=True).t_()


def test_resize_keeps_its_storage_for_a_later_growth():
    x = sg.arange(6.)
    x.resize_(2, 2)
    np.testing.assert_array_equal(x.numpy(), [[0., 1.], [2., 3.]])
    x.resize_(6)
    np.testing.assert_array_equal(x.numpy(), np.arange(6.))
    assert x._version == 2
    t = sg.arange(6.).reshape(2, 3).t()
    np.testing.assert_array_equal(t.resize_(2, 3).numpy(), [[0., 1., 2.], [3., 4., 5.]])
    with pytest.raises(RuntimeError, match="cannot resize variables that require grad"):
        sg.ones(2, requires_grad=True).resize_(2)


def test_embedding_max_norm_renormalizes_the_rows_read_in_place():
    w0 = RNG.standard_normal((6, 5)) * 2
    w = sg.tensor(w0, requires_grad=True)
    idx = sg.tensor([[1, 3, 3], [0, 1, 5]])
    out = F.embedding(idx, w, max_norm=1.5)
    assert w._version == 1
    want = w0.copy()
    for r in (0, 1, 3, 5):
        norm = np.linalg.norm(w0[r])
        if norm > 1.5:
            want[r] = w0[r] * (1.5 / (norm + 1e-7))
    np.testing.assert_allclose(w.detach().numpy(), want, rtol=1e-15)
    np.testing.assert_allclose(out.detach().numpy(), want[idx.numpy()], rtol=1e-15)
    out.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy()[:, 0], [1, 2, 0, 2, 0, 1])


def test_addbmm_in_place_resizes_a_broadcasting_self():
    b1, b2 = RNG.standard_normal((2, 3, 3)), RNG.standard_normal((2, 3, 4))
    s = sg.tensor([1., 2., 3., 4.], dtype=sg.float64)
    got = s.addbmm_(sg.tensor(b1), sg.tensor(b2), beta=0.5)
    assert got is s and tuple(s.shape) == (3, 4)
    want = 0.5 * np.array([1., 2., 3., 4.]) + np.einsum("bij,bjk->ik", b1, b2)
    np.testing.assert_allclose(s.numpy(), want, rtol=1e-13)
    leaf = sg.ones(4, dtype=sg.float64, requires_grad=True)
    r = leaf * 1
    r.addbmm_(sg.tensor(b1), sg.tensor(b2))
    r.sum().backward()
    np.testing.assert_array_equal(leaf.grad.numpy(), [3., 3., 3., 3.])


def test_adaptive_pools_to_an_empty_size_refuse_their_backward():
    x = sg.tensor(RNG.standard_normal((1, 2, 5)), requires_grad=True)
    for y in (F.adaptive_avg_pool1d(x, 0), F.adaptive_max_pool1d(x, 0)):
        assert tuple(y.shape) == (1, 2, 0)
        with pytest.raises(RuntimeError, match=r"grad_output has sizes \[1, 2, 1, 0\] with "
                                               r"dimension 3 being empty"):
            y.sum().backward()


def test_avg_pool_of_int64_divides_toward_zero():
    x = sg.tensor([[[[1, 2, -3], [-4, 5, 6]]]])
    got = F.avg_pool2d(x, 2, padding=1, divisor_override=3)
    assert got.dtype is sg.int64
    np.testing.assert_array_equal(got.numpy(), [[[[0, 0], [-1, 3]]]])   # torch's values
    got = F.avg_pool1d(sg.tensor([[[1, 2, -3, -4, 5]]]), 2)
    np.testing.assert_array_equal(got.numpy(), [[[1, -3]]])


def test_against_torch():
    torch = pytest.importorskip("torch")
    x = torch.arange(24.).reshape(2, 3, 4)
    s = sg.arange(24.).reshape(2, 3, 4)
    for f in (lambda m, t: t.unfold(2, 2, 1), lambda m, t: m.diagflat(t[0], 1),
              lambda m, t: t.sum_to_size(3, 1), lambda m, t: m.slice_scatter(t, t[:1], 0, 1),
              lambda m, t: m.unsafe_chunk(t, 2, 1)[1]):
        want, got = f(torch, x), f(sg, s)
        assert list(want.shape) == list(got.shape) and want.stride() == got.stride()
        np.testing.assert_array_equal(got.numpy(), want.numpy())


SAME_COMPILED = [
    "F.avg_pool2d((x * 10).long(), 2, padding=1)",
    "F.margin_ranking_loss((x[0] * 5).int(), (x[1] * 5).int(), (x[0] > 0).int() * 2 - 1)",
    "F.interpolate(x[None], size=(2, 7), mode='bicubic', antialias=True)",
    "F.interpolate(x[None].float(), scale_factor=0.5, mode='bilinear', antialias=True)",
    "F.adaptive_max_pool2d(x, (0, 2))",
    "sg.linalg.solve_triangular(sg.eye(3).float() * 2, x[0, :, :2], upper=False)",
]


@pytest.mark.parametrize("expr", SAME_COMPILED)
def test_compiled_equals_eager(expr):
    def run(x):
        return eval(expr, {"sg": sg, "F": F, "x": x})
    eager = run(sg.tensor(A))
    got = sg.compile(run)(sg.tensor(A))
    got = np.asarray(got)
    assert got.shape == tuple(eager.shape) and got.dtype == eager.dtype.np
    np.testing.assert_array_equal(np.asarray(got), eager.numpy())


def test_unfold_is_a_view_both_ways():
    x = sg.arange(6.)
    w = x.unfold(0, 2, 2)
    w.add_(1)                                    # writes reach the base (torch's values)
    np.testing.assert_array_equal(x.numpy(), [1., 2., 3., 4., 5., 6.])
    x.mul_(2)                                    # and the base's updates reach the windows
    np.testing.assert_array_equal(w.numpy(), [[2., 4.], [6., 8.], [10., 12.]])
    m = sg.arange(12.).reshape(3, 4)
    u = m.unfold(1, 2, 2)
    u[0, 0, 1] = 100
    assert m[0, 1].item() == 100
    a = sg.arange(8., dtype=sg.float64, requires_grad=True)
    b = a * 1
    b.unfold(0, 3, 3).mul_(2)
    (b * b).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [0, 8, 16, 24, 32, 40, 12, 14])
    with pytest.raises(NotImplementedError, match="overlapping windows"):
        sg.arange(6.).unfold(0, 2, 1).add_(1)


def test_in_place_shape_changes_compile():
    def f(x, b1, b2):
        y = x * 1
        y.t_()
        z = x[0] * 1
        z.addbmm_(b1, b2)
        w = x.clone()
        w.unfold(1, 2, 2).mul_(3)
        return y + 1, z, w, sg.swapdims(x, 0, 1).unsqueeze_(0)
    args = (B, np.ones((2, 3, 3)), np.ones((2, 3, 4)))
    eager = f(*(sg.tensor(a) for a in args))
    for e, c in zip(eager, sg.compile(f)(*(sg.tensor(a) for a in args))):
        np.testing.assert_array_equal(np.asarray(c), e.numpy())
    np.testing.assert_array_equal(eager[0].numpy(), B.T + 1)
    np.testing.assert_array_equal(eager[1].numpy(), np.broadcast_to(B[0] + 6, (3, 4)))
    np.testing.assert_array_equal(eager[2].numpy(), B * 3)
    with pytest.raises(NotImplementedError, match="resize_ of a traced tensor"):
        sg.compile(lambda x: (x * 1).resize_(2))(sg.tensor(B))
