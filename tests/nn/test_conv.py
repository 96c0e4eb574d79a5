"""Convolution and pooling (``nn.functional`` conv1d/conv2d, unfold/fold, max/avg/adaptive
pooling, and the ``nn`` modules): values against direct NumPy loops written here and against
torch where it is installed; gradients against central differences, eagerly and compiled; max
pooling's gradient at ties (all to the first maximum in window order, as torch); the modules'
initialization after ``manual_seed``, reprs and errors. Expected values come from NumPy or from
torch, never from symgrad.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F
from references import central_differences, gradient

R = np.random.default_rng(11)


def arr(*shape):
    return R.standard_normal(shape)


# ---------------------------------------------------------------- NumPy oracles (direct loops)

def np_conv(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    """Cross-correlation of (N, C, *S) with (O, C/groups, *K), one output element at a time;
    ``padding``: an int or per-dim (before, after) pairs."""
    nd = w.ndim - 2
    s, d = (stride,) * nd if isinstance(stride, int) else stride, \
        (dilation,) * nd if isinstance(dilation, int) else dilation
    pairs = [(padding, padding)] * nd if isinstance(padding, int) else padding
    xp = np.pad(x, [(0, 0), (0, 0)] + list(pairs))
    n, c = x.shape[:2]
    o, cg = w.shape[:2]
    k = w.shape[2:]
    out = [(xp.shape[2 + i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(nd)]
    y = np.zeros([n, o] + out)
    for b_, oc in itertools.product(range(n), range(o)):
        g = oc // (o // groups)
        for pos in itertools.product(*map(range, out)):
            total = 0.0
            for ic, off in itertools.product(range(cg), itertools.product(*map(range, k))):
                at = tuple(p * s[i] + off[i] * d[i] for i, p in enumerate(pos))
                total += xp[(b_, g * cg + ic) + at] * w[(oc, ic) + off]
            y[(b_, oc) + pos] = total + (0.0 if b is None else b[oc])
    return y


def _pool_out(n, k, s, p, d, ceil):
    o = (n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil else 0)) // s + 1
    return o - 1 if ceil and (o - 1) * s >= n + p else o


def np_max_pool2d(x, k, s, p, d=1, ceil=False):
    """(values, flat indices): the first maximum of each window in row-major window order,
    over input elements only (padding never wins)."""
    n, c, h, w = x.shape
    oh, ow = _pool_out(h, k, s, p, d, ceil), _pool_out(w, k, s, p, d, ceil)
    vals, idx = np.zeros((n, c, oh, ow)), np.zeros((n, c, oh, ow), np.int64)
    for b, ch, i, j in itertools.product(range(n), range(c), range(oh), range(ow)):
        best, at = None, None
        for a, e in itertools.product(range(k), range(k)):
            r, q = i * s - p + a * d, j * s - p + e * d
            if 0 <= r < h and 0 <= q < w and (best is None or x[b, ch, r, q] > best):
                best, at = x[b, ch, r, q], r * w + q
        vals[b, ch, i, j], idx[b, ch, i, j] = best, at
    return vals, idx


def np_avg_pool2d(x, k, s, p, ceil=False, count_include_pad=True):
    n, c, h, w = x.shape
    oh, ow = _pool_out(h, k, s, p, 1, ceil), _pool_out(w, k, s, p, 1, ceil)
    y = np.zeros((n, c, oh, ow))
    for i, j in itertools.product(range(oh), range(ow)):
        r0, q0 = i * s - p, j * s - p
        r1, q1 = min(r0 + k, h + p), min(q0 + k, w + p)
        size = (r1 - r0) * (q1 - q0)
        r0, q0, r1, q1 = max(r0, 0), max(q0, 0), min(r1, h), min(q1, w)
        div = size if count_include_pad else (r1 - r0) * (q1 - q0)
        y[:, :, i, j] = x[:, :, r0:r1, q0:q1].sum((2, 3)) / div
    return y


def np_adaptive_avg_pool2d(x, oh, ow):
    h, w = x.shape[-2:]
    y = np.zeros(x.shape[:-2] + (oh, ow))
    for i, j in itertools.product(range(oh), range(ow)):
        rows = slice(i * h // oh, math.ceil((i + 1) * h / oh))
        cols = slice(j * w // ow, math.ceil((j + 1) * w / ow))
        y[..., i, j] = x[..., rows, cols].mean((-2, -1))
    return y


def np_unfold(x, k, d=1, p=0, s=1):
    n, c, h, w = x.shape
    xp = np.pad(x, [(0, 0), (0, 0), (p, p), (p, p)])
    oh, ow = (h + 2 * p - d * (k - 1) - 1) // s + 1, (w + 2 * p - d * (k - 1) - 1) // s + 1
    cols = np.zeros((n, c * k * k, oh * ow))
    for ch, a, e, i, j in itertools.product(range(c), range(k), range(k), range(oh), range(ow)):
        cols[:, (ch * k + a) * k + e, i * ow + j] = xp[:, ch, i * s + a * d, j * s + e * d]
    return cols


def np_fold(cols, size, k, d=1, p=0, s=1):
    n, ck, _ = cols.shape
    c, (h, w) = ck // (k * k), size
    oh, ow = (h + 2 * p - d * (k - 1) - 1) // s + 1, (w + 2 * p - d * (k - 1) - 1) // s + 1
    out = np.zeros((n, c, h + 2 * p, w + 2 * p))
    for ch, a, e, i, j in itertools.product(range(c), range(k), range(k), range(oh), range(ow)):
        out[:, ch, i * s + a * d, j * s + e * d] += cols[:, (ch * k + a) * k + e, i * ow + j]
    return out[:, :, p:p + h, p:p + w]


# ---------------------------------------------------------------- values

CONV2D = [({}, 1), ({"stride": 2, "padding": 1}, 1), ({"padding": (2, 0), "dilation": (1, 2)}, 1),
          ({"stride": (1, 2), "padding": 1}, 2), ({"padding": "same", "dilation": 2}, 1),
          ({"padding": "same"}, 4), ({"padding": "valid", "stride": 3}, 2)]


def _np_padding(kw, k, nd):
    p = kw.get("padding", 0)
    d = kw.get("dilation", 1)
    d = (d,) * nd if isinstance(d, int) else d
    if p == "same":
        return [(t // 2, t - t // 2) for t in (d[i] * (k[i] - 1) for i in range(nd))]
    if p == "valid":
        return 0
    return [(q, q) for q in ((p,) * nd if isinstance(p, int) else p)]


@pytest.mark.parametrize("kwargs, groups", CONV2D)
def test_conv2d_matches_numpy_loops(kwargs, groups):
    x, w, b = arr(2, 4, 6, 7), arr(8, 4 // groups, 3, 2), arr(8)
    want = np_conv(x, w, b, kwargs.get("stride", 1), _np_padding(kwargs, (3, 2), 2),
                   kwargs.get("dilation", 1), groups)
    got = F.conv2d(sg.tensor(x), sg.tensor(w), sg.tensor(b), groups=groups, **kwargs)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    unbatched = F.conv2d(sg.tensor(x[1]), sg.tensor(w), None, groups=groups, **kwargs)
    np.testing.assert_allclose(unbatched.numpy(), want[1] - b[:, None, None], atol=1e-12)


@pytest.mark.filterwarnings("ignore:Using padding='same'")
@pytest.mark.parametrize("kwargs, groups", CONV2D)
def test_conv2d_matches_torch(kwargs, groups):
    torch = pytest.importorskip("torch")
    x, w, b = arr(2, 4, 6, 7), arr(8, 4 // groups, 3, 2), arr(8)
    want = torch.nn.functional.conv2d(torch.tensor(x), torch.tensor(w), torch.tensor(b),
                                      groups=groups, **kwargs)
    got = F.conv2d(sg.tensor(x), sg.tensor(w), sg.tensor(b), groups=groups, **kwargs)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kwargs", [{}, {"stride": 2, "padding": 2, "dilation": 2},
                                    {"padding": "same", "groups": 2}])
def test_conv1d_matches_numpy_and_torch(kwargs):
    kw = dict(kwargs)
    groups = kw.pop("groups", 1)
    x, w, b = arr(2, 4, 9), arr(6, 4 // groups, 3), arr(6)
    want = np_conv(x, w, b, kw.get("stride", 1), _np_padding(kw, (3,), 1), kw.get("dilation", 1),
                   groups)
    got = F.conv1d(sg.tensor(x), sg.tensor(w), sg.tensor(b), groups=groups, **kw)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(F.conv1d(sg.tensor(x[0]), sg.tensor(w), sg.tensor(b),
                                        groups=groups, **kw).numpy(), want[0], atol=1e-12)
    torch = pytest.importorskip("torch")
    ref = torch.nn.functional.conv1d(torch.tensor(x), torch.tensor(w), torch.tensor(b),
                                     groups=groups, **kw)
    np.testing.assert_allclose(got.numpy(), ref.numpy(), rtol=1e-12, atol=1e-12)


POOLS = [(2, None, 0, 1, False), (3, 2, 1, 1, False), (3, 2, 1, 1, True), (2, 1, 1, 2, False),
         (3, 3, 1, 1, True)]


@pytest.mark.parametrize("k, s, p, d, ceil", POOLS)
def test_max_pool2d_matches_numpy_and_torch(k, s, p, d, ceil):
    x = np.round(arr(2, 3, 7, 8), 1)          # rounded: many ties
    want_v, want_i = np_max_pool2d(x, k, s or k, p, d, ceil)
    v, i = F.max_pool2d(sg.tensor(x), k, s, p, d, ceil_mode=ceil, return_indices=True)
    np.testing.assert_array_equal(v.numpy(), want_v)
    np.testing.assert_array_equal(i.numpy(), want_i)
    assert i.dtype is sg.int64
    torch = pytest.importorskip("torch")
    tv, ti = torch.nn.functional.max_pool2d(torch.tensor(x), k, s, p, d, ceil_mode=ceil,
                                            return_indices=True)
    np.testing.assert_array_equal(v.numpy(), tv.numpy())
    np.testing.assert_array_equal(i.numpy(), ti.numpy())


@pytest.mark.parametrize("k, s, p, ceil, include", [(2, None, 0, False, True),
                                                    (3, 2, 1, False, True),
                                                    (3, 2, 1, True, False), (3, 2, 1, True, True),
                                                    ((2, 3), (1, 2), (1, 1), False, False)])
def test_avg_pool2d_matches_numpy_and_torch(k, s, p, ceil, include):
    x = arr(2, 3, 7, 8)
    got = F.avg_pool2d(sg.tensor(x), k, s, p, ceil, include)
    if isinstance(k, int):
        np.testing.assert_allclose(got.numpy(), np_avg_pool2d(x, k, s or k, p, ceil, include),
                                   rtol=1e-12, atol=1e-14)
    torch = pytest.importorskip("torch")
    want = torch.nn.functional.avg_pool2d(torch.tensor(x), k, s, p, ceil, include)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12, atol=1e-14)
    over = F.avg_pool2d(sg.tensor(x[0]), k, s, p, ceil, include, divisor_override=5)
    want = torch.nn.functional.avg_pool2d(torch.tensor(x[0]), k, s, p, ceil, include, 5)
    np.testing.assert_allclose(over.numpy(), want.numpy(), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("size", [(3, 4), 5, (1, None), (7, 8), (4, 3)])
def test_adaptive_avg_pool2d_matches_numpy_and_torch(size):
    x = arr(2, 3, 7, 8)
    got = F.adaptive_avg_pool2d(sg.tensor(x), size)
    oh, ow = (size, size) if isinstance(size, int) else (size[0], size[1] or 8)
    np.testing.assert_allclose(got.numpy(), np_adaptive_avg_pool2d(x, oh, ow), rtol=1e-12)
    np.testing.assert_allclose(F.adaptive_avg_pool2d(sg.tensor(x[0]), size).numpy(),
                               np_adaptive_avg_pool2d(x[0], oh, ow), rtol=1e-12)
    torch = pytest.importorskip("torch")
    want = torch.nn.functional.adaptive_avg_pool2d(torch.tensor(x), size)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)


def test_pool1d_matches_torch():
    torch = pytest.importorskip("torch")
    TF = torch.nn.functional
    x = np.round(arr(2, 3, 9), 1)
    for args in [(3,), (3, 2, 1), (2, 1, 1, 2, True)]:
        v, i = F.max_pool1d(sg.tensor(x), *args, return_indices=True)
        tv, ti = TF.max_pool1d(torch.tensor(x), *args, return_indices=True)
        np.testing.assert_array_equal(v.numpy(), tv.numpy())
        np.testing.assert_array_equal(i.numpy(), ti.numpy())
    for args in [(3,), (3, 2, 1, True, False), (2, 1, 1)]:
        np.testing.assert_allclose(F.avg_pool1d(sg.tensor(x[0]), *args).numpy(),
                                   TF.avg_pool1d(torch.tensor(x[0]), *args).numpy(), rtol=1e-12,
                                   atol=1e-15)   # means that cancel to ~0 differ in rounding
    np.testing.assert_allclose(F.adaptive_avg_pool1d(sg.tensor(x), 4).numpy(),
                               TF.adaptive_avg_pool1d(torch.tensor(x), 4).numpy(), rtol=1e-12,
                               atol=1e-15)


@pytest.mark.parametrize("k, d, p, s", [(2, 1, 0, 1), (3, 2, 1, 2), (2, 1, 1, 3)])
def test_unfold_and_fold_match_numpy_and_torch(k, d, p, s):
    x = arr(2, 3, 6, 7)
    cols = F.unfold(sg.tensor(x), k, d, p, s)
    np.testing.assert_array_equal(cols.numpy(), np_unfold(x, k, d, p, s))
    np.testing.assert_array_equal(F.unfold(sg.tensor(x[1]), k, d, p, s).numpy(),
                                  np_unfold(x, k, d, p, s)[1])
    c = arr(*cols.shape)
    back = F.fold(sg.tensor(c), (6, 7), k, d, p, s)
    np.testing.assert_allclose(back.numpy(), np_fold(c, (6, 7), k, d, p, s), rtol=1e-12)
    np.testing.assert_allclose(F.fold(sg.tensor(c[0]), (6, 7), k, d, p, s).numpy(),
                               np_fold(c, (6, 7), k, d, p, s)[0], rtol=1e-12)
    torch = pytest.importorskip("torch")
    np.testing.assert_array_equal(
        cols.numpy(), torch.nn.functional.unfold(torch.tensor(x), k, d, p, s).numpy())
    np.testing.assert_allclose(
        back.numpy(), torch.nn.functional.fold(torch.tensor(c), (6, 7), k, d, p, s).numpy(),
        rtol=1e-12)


def test_conv2d_is_the_weight_times_the_unfolded_columns():
    """The im2col identity, with torch's layouts: conv = weight rows @ unfold columns."""
    x, w = arr(2, 3, 6, 5), arr(4, 3, 3, 3)
    want = (w.reshape(4, -1) @ np_unfold(x, 3, 1, 1, 2)).reshape(2, 4, 3, 3)
    np.testing.assert_allclose(F.conv2d(sg.tensor(x), sg.tensor(w), stride=2, padding=1).numpy(),
                               want, rtol=1e-12, atol=1e-12)


def test_float32_and_integer_inputs():
    x = arr(1, 2, 5, 5).astype(np.float32)
    w = arr(3, 2, 3, 3).astype(np.float32)
    y = F.conv2d(sg.tensor(x), sg.tensor(w), padding=1)
    assert y.dtype is sg.float32
    np.testing.assert_allclose(y.numpy(), np_conv(x, w, padding=1), rtol=1e-5, atol=1e-5)
    assert F.avg_pool2d(sg.tensor(x), 2).dtype is sg.float32
    ints = np.arange(-12, 13).reshape(1, 1, 5, 5)[..., ::-1].copy()
    v, i = F.max_pool2d(sg.tensor(ints), 2, 2, 1, return_indices=True)
    want_v, want_i = np_max_pool2d(ints, 2, 2, 1)
    assert v.dtype is sg.int64
    np.testing.assert_array_equal(v.numpy(), want_v)
    np.testing.assert_array_equal(i.numpy(), want_i)


# ---------------------------------------------------------------- gradients

def _weights(shape):
    """A fixed, non-symmetric output weighting (a loss whose gradient tells windows apart)."""
    return sg.tensor(np.cos(np.arange(math.prod(shape))).reshape(shape))


GRADIENT_CASES = {
    "conv2d_input": (lambda x: F.conv2d(x, sg.tensor(np.sin(np.arange(36.0)).reshape(3, 2, 3, 2)),
                                        sg.tensor(np.array([0.1, -0.2, 0.3])), stride=(2, 1),
                                        padding=1,
                                        dilation=(1, 2)), (1, 2, 5, 6)),
    "conv2d_weight_groups": (lambda w: F.conv2d(sg.tensor(np.cos(np.arange(120.0))
                                                          .reshape(1, 4, 5, 6)), w, groups=2,
                                                padding="same"), (4, 2, 2, 3)),
    "conv1d": (lambda x: F.conv1d(x, sg.tensor(np.sin(np.arange(12.0)).reshape(2, 2, 3)),
                                  padding=2, stride=2), (2, 7)),
    "max_pool2d": (lambda x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True), (1, 2, 5, 6)),
    "max_pool1d": (lambda x: F.max_pool1d(x, 2, 1, 1, dilation=2), (2, 7)),
    "avg_pool2d": (lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
                   (1, 2, 5, 6)),
    "adaptive_avg_pool2d": (lambda x: F.adaptive_avg_pool2d(x, (3, 4)), (2, 5, 6)),
    "unfold": (lambda x: F.unfold(x, 2, padding=1, stride=(1, 2)), (1, 2, 4, 5)),
    "fold": (lambda x: F.fold(x, (4, 5), 2, padding=1, stride=(1, 2)), (1, 8, 15)),
}


@pytest.mark.parametrize("how", ["eager", "compiled"])
@pytest.mark.parametrize("name", sorted(GRADIENT_CASES))
def test_gradients_match_central_differences(name, how):
    fn, shape = GRADIENT_CASES[name]

    def loss(t):
        y = fn(t)
        return (y * _weights(y.shape)).sum() + (y * y).sum()

    x0 = R.permutation(np.linspace(-2, 2, math.prod(shape))).reshape(shape)   # no ties
    # The loss is piecewise quadratic, so central differences err only by rounding: about
    # machine epsilon * |loss| / step (step 1e-6), which the absolute tolerance allows twice.
    rounding = 4.5e-10 * max(1.0, abs(loss(sg.tensor(x0)).item()))
    np.testing.assert_allclose(gradient(loss, x0, how), central_differences(loss, x0),
                               rtol=1e-6, atol=max(1e-8, rounding))


def test_conv2d_gradients_of_all_inputs_and_second_order_match_central_differences():
    """The convolution's backward rule (``_convolution_rule``) for the input, the weight and
    the bias at once (grouped, strided, dilated, asymmetric 'same' padding), and its own
    gradient (create_graph): d/dx of sum(V * dL/dw), against central differences of
    dL/dw computed the same way."""
    x0, w0, b0 = R.standard_normal((2, 4, 5, 6)), R.standard_normal((6, 2, 2, 3)), \
        R.standard_normal(6)
    kw = {"padding": "same", "dilation": (2, 1), "groups": 2}

    def loss(x, w, b):
        y = F.conv2d(x, w, b, **kw)
        return (y * _weights(y.shape)).sum() + (y * y * y).sum() / 3

    for i, x0_i in enumerate((x0, w0, b0)):
        def of_one(t, i=i):
            args = [sg.tensor(v) for v in (x0, w0, b0)]
            args[i] = t
            return loss(*args)
        ts = [sg.tensor(v, requires_grad=True) for v in (x0, w0, b0)]
        loss(*ts).backward()
        np.testing.assert_allclose(ts[i].grad.numpy(), central_differences(of_one, x0_i),
                                   rtol=1e-6, atol=1e-5)
    v = sg.tensor(np.cos(np.arange(w0.size)).reshape(w0.shape))

    def weight_gradient_along_v(x):
        w = sg.tensor(w0, requires_grad=True)
        (gw,) = sg.autograd.grad(loss(x, w, sg.tensor(b0)), [w], create_graph=True)
        return (gw * v).sum()
    x = sg.tensor(x0, requires_grad=True)
    weight_gradient_along_v(x).backward()
    np.testing.assert_allclose(x.grad.numpy(),
                               central_differences(weight_gradient_along_v, x0),
                               rtol=1e-6, atol=1e-5)


@pytest.mark.parametrize("how", ["eager", "compiled"])
def test_max_pool_gradient_at_ties_goes_to_the_first_maximum(how):
    """Each window's whole gradient goes to one element: its first maximum in window order
    (torch's max_pool2d_with_indices), not shared among the tied ones."""
    x0 = np.round(arr(1, 2, 6, 7), 0)
    x0[0, 0, :3, :3] = 1.0                       # a whole tied window, and ties across windows
    x0[0, 1] = -np.inf                           # every element the lowest: padding never wins

    def loss(t):
        v = F.max_pool2d(t, 3, 2, 1)
        return (v * _weights(v.shape)).sum()      # -inf in value; its gradient is finite

    _, idx = np_max_pool2d(x0, 3, 2, 1)
    want = np.zeros_like(x0)
    weights = _weights(idx.shape).numpy()
    for pos in np.ndindex(idx.shape):
        plane = want[pos[0], pos[1]].reshape(-1)
        plane[idx[pos]] += weights[pos]
    np.testing.assert_array_equal(gradient(loss, x0, how), want)
    torch = pytest.importorskip("torch")
    t = torch.tensor(x0, requires_grad=True)
    (torch.nn.functional.max_pool2d(t, 3, 2, 1) * torch.tensor(weights)).sum().backward()
    np.testing.assert_array_equal(want, t.grad.numpy())


def test_torch_grad_fn_names():
    x = sg.tensor(arr(1, 2, 5, 5), requires_grad=True)
    w = sg.tensor(arr(3, 2, 2, 2), requires_grad=True)
    names = {"conv2d": F.conv2d(x, w), "conv2d_unbatched": F.conv2d(x[0], w),
             "max_pool2d": F.max_pool2d(x, 2), "max_pool1d": F.max_pool1d(x[0], 2),
             "avg_pool2d": F.avg_pool2d(x, 2), "adaptive": F.adaptive_avg_pool2d(x, 2),
             "unfold": F.unfold(x, 2), "fold": F.fold(F.unfold(x, 2), (5, 5), 2)}
    assert {k: v.grad_fn.name() for k, v in names.items()} == {
        "conv2d": "ConvolutionBackward0", "conv2d_unbatched": "SqueezeBackward1",
        "max_pool2d": "MaxPool2DWithIndicesBackward0", "max_pool1d": "SqueezeBackward1",
        "avg_pool2d": "AvgPool2DBackward0", "adaptive": "AdaptiveAvgPool2DBackward0",
        "unfold": "Im2ColBackward0", "fold": "Col2ImBackward0"}


# ---------------------------------------------------------------- modules

MODULES = [("Conv2d", (1, 6, 5), {}), ("Conv2d", (4, 6, (3, 2)),
                                       {"stride": 2, "padding": 1, "groups": 2}),
           ("Conv2d", (2, 3, 3), {"padding": "same", "dilation": 2, "bias": False}),
           ("Conv2d", (2, 4, 3), {"padding": (1, 2), "padding_mode": "reflect"}),
           ("Conv1d", (3, 4, 3), {"stride": 2, "padding": 1}),
           ("Conv1d", (2, 2, 4), {"padding": "same", "padding_mode": "circular"})]


def _run_module(T, name, args, kwargs):
    T.manual_seed(3)
    m = getattr(T.nn, name)(*args, **kwargs).double()
    shape = (2, args[0], 7, 8) if name == "Conv2d" else (2, args[0], 9)
    x = T.tensor(np.sin(np.arange(math.prod(shape))).reshape(shape), requires_grad=True)
    y = m(x)
    (y * y).sum().backward()
    params = {k: p.detach().numpy().copy() for k, p in m.named_parameters()}
    grads = {k: p.grad.numpy().copy() for k, p in m.named_parameters()}
    return repr(m), params, y.detach().numpy(), x.grad.numpy(), grads


@pytest.mark.parametrize("name, args, kwargs", MODULES)
def test_conv_modules_like_torch(name, args, kwargs):
    torch = pytest.importorskip("torch")
    want, got = _run_module(torch, name, args, kwargs), _run_module(sg, name, args, kwargs)
    assert got[0] == want[0]
    assert list(got[1]) == list(want[1])
    for k in want[1]:
        np.testing.assert_array_equal(got[1][k], want[1][k], err_msg=k)
        np.testing.assert_allclose(got[4][k], want[4][k], rtol=1e-10, atol=1e-12, err_msg=k)
    np.testing.assert_allclose(got[2], want[2], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got[3], want[3], rtol=1e-10, atol=1e-12)


def test_conv2d_module_shapes_and_init_bounds():
    sg.manual_seed(0)
    m = sg.nn.Conv2d(3, 8, (3, 5), groups=1)
    assert repr(m) == "Conv2d(3, 8, kernel_size=(3, 5), stride=(1, 1))"
    assert m.weight.shape == (8, 3, 3, 5) and m.bias.shape == (8,)
    bound = 1 / math.sqrt(3 * 15)       # kaiming_uniform(a=sqrt(5)) and the bias: 1/sqrt(fan_in)
    assert np.abs(m.weight.detach().numpy()).max() <= bound
    assert np.abs(m.bias.detach().numpy()).max() <= bound
    assert (m.kernel_size, m.stride, m.padding, m.dilation, m.groups) == \
        ((3, 5), (1, 1), (0, 0), (1, 1), 1)
    assert m(sg.ones(2, 3, 6, 9)).shape == (2, 8, 4, 5)


@pytest.mark.parametrize("make", [
    lambda nn: nn.MaxPool2d(3, 2, 1, ceil_mode=True), lambda nn: nn.MaxPool2d((2, 3)),
    lambda nn: nn.MaxPool1d(3, stride=1, dilation=2), lambda nn: nn.AvgPool2d(3, 2, 1),
    lambda nn: nn.AvgPool2d(2, divisor_override=3), lambda nn: nn.AvgPool1d(3, 2, 1),
    lambda nn: nn.AdaptiveAvgPool2d((3, None)), lambda nn: nn.AdaptiveAvgPool2d(2),
    lambda nn: nn.AdaptiveAvgPool1d(4)])
def test_pool_modules_like_torch(make):
    torch = pytest.importorskip("torch")
    m, t = make(sg.nn), make(torch.nn)
    assert repr(m) == repr(t)
    one_d = "1d" in type(m).__name__
    x = arr(2, 3, 9) if one_d else arr(2, 3, 7, 8)
    np.testing.assert_allclose(m(sg.tensor(x)).numpy(), t(torch.tensor(x)).numpy(), rtol=1e-12)


def _small_cnn(side):
    sg.manual_seed(0)
    flat = 6 * ((side // 2 - 2 + 1) // 2) ** 2
    return sg.nn.Sequential(sg.nn.Conv2d(1, 4, 3, padding=1), sg.nn.ReLU(), sg.nn.MaxPool2d(2),
                            sg.nn.Conv2d(4, 6, 3), sg.nn.AvgPool2d(2, ceil_mode=True),
                            sg.nn.Flatten(), sg.nn.Linear(flat, 3)).double()


def test_small_cnn_compiled_matches_eager():
    model = _small_cnn(10)
    x = sg.tensor(arr(3, 1, 10, 10))
    compiled = sg.compile(lambda t: model(t))(x)
    np.testing.assert_allclose(np.asarray(compiled), model(x).detach().numpy(), rtol=1e-12,
                               atol=1e-12)


# Was a GCC 12 miscompile of the split program (both parts inlined into the entry point):
# the parts are noinline now (codegen/c/split.py).
def test_small_cnn_compiled_matches_eager_batch_2_side_8():
    model = _small_cnn(8)
    x = sg.tensor(arr(2, 1, 8, 8))
    compiled = sg.compile(lambda t: model(t))(x)
    np.testing.assert_allclose(np.asarray(compiled), model(x).detach().numpy(), rtol=1e-12,
                               atol=1e-12)


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize("call, message", [
    (lambda: F.conv2d(sg.ones(2, 3), sg.ones(6, 4, 3, 3)),
     r"Expected 3D \(unbatched\) or 4D \(batched\) input to conv2d, but got input of size: "
     r"\[2, 3\]"),
    (lambda: F.conv1d(sg.ones(1, 4, 8, 8), sg.ones(6, 4, 3)),
     r"Expected 2D \(unbatched\) or 3D \(batched\) input to conv1d"),
    (lambda: F.conv2d(sg.ones(1, 3, 8, 8), sg.ones(6, 4, 3, 3)),
     r"Given groups=1, weight of size \[6, 4, 3, 3\], expected input\[1, 3, 8, 8\] to have 4 "
     r"channels, but got 3 channels instead"),
    (lambda: F.conv2d(sg.ones(1, 4, 8, 8), sg.ones(6, 2, 3, 3), groups=4),
     r"Given groups=4, expected weight to be divisible by 4 at dimension 0"),
    (lambda: F.conv2d(sg.ones(1, 4, 8, 8), sg.ones(6, 2, 3, 3), groups=3),
     r"expected input\[1, 4, 8, 8\] to have 6 channels, but got 4 channels instead"),
    (lambda: F.conv2d(sg.ones(1, 4, 2, 2), sg.ones(6, 4, 3, 3)),
     r"Calculated padded input size per channel: \(2 x 2\)\. Kernel size: \(3 x 3\)\. Kernel "
     r"size can't be greater than actual input size"),
    (lambda: F.conv2d(sg.ones(1, 4, 8, 8), sg.ones(6, 4, 3, 3), sg.ones(5)),
     r"expected bias to be 1-dimensional with 6 elements, but got bias of size \[5\]"),
    (lambda: F.conv2d(sg.ones(1, 4, 8, 8), sg.ones(6, 4, 3, 3), stride=2, padding="same"),
     r"padding='same' is not supported for strided convolutions"),
    (lambda: F.conv2d(sg.ones(1, 4, 8, 8), sg.ones(6, 4, 3, 3), padding="foo"),
     r"Invalid padding string: 'foo'"),
    (lambda: F.conv2d(sg.ones(1, 4, 8, 8), sg.ones(6, 4, 3, 3), padding=(1, 2, 3)),
     r"expected padding to be a single integer value or a list of 2 values"),
    (lambda: F.conv2d(sg.ones(1, 4, 8, 8), sg.ones(6, 4, 3)), r"Expected 4D weight to conv2d"),
    (lambda: F.conv2d(sg.ones(1, 4, 8, 8), sg.ones(6, 4, 3, 3), groups=0),
     r"non-positive groups is not supported"),
    (lambda: F.max_pool2d(sg.ones(2, 3), 2),
     r"non-empty 3D or 4D \(batch mode\) tensor expected for input"),
    (lambda: F.max_pool2d(sg.ones(1, 1, 5, 5), 2, padding=2),
     r"pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and "
     r"dilation=1"),
    (lambda: F.max_pool2d(sg.ones(1, 1, 2, 2), 3),
     r"Given input size: \(1x2x2\)\. Calculated output size: \(1x0x0\)\. Output size is too "
     r"small"),
    (lambda: F.max_pool2d(sg.ones(1, 1, 5, 5), (2, 2, 2)),
     r"max_pool2d: kernel_size must either be a single int, or a tuple of two ints"),
    (lambda: F.max_pool2d(sg.ones(1, 1, 5, 5), 0), r"stride should not be zero"),
    (lambda: F.avg_pool2d(sg.ones(1, 1, 5, 5), 2, divisor_override=0),
     r"divisor must be not zero"),
    (lambda: F.avg_pool1d(sg.ones(2, 3, 4, 5), 2),
     r"Expected 2 to 3 dimensions, but got 4-dimensional tensor"),
    (lambda: F.adaptive_avg_pool2d(sg.ones(2, 3), 2),
     r"adaptive_avg_pool2d\(\): Expected 3D or 4D tensor, but got \[2, 3\]"),
    (lambda: F.unfold(sg.ones(1, 3, 4, 4), 5),
     r"calculated shape of the array of sliding blocks as \(0, 0\), but its components must "
     r"be at least one"),
    (lambda: F.fold(sg.ones(1, 13, 9), (4, 4), 2),
     r"Expected size of input's dimension 1 to be divisible by the product of kernel_size"),
    (lambda: F.fold(sg.ones(1, 12, 8), (4, 4), 2),
     r"expected size of input's dimension 2 to match the calculated number of sliding blocks "
     r"3 \* 3 = 9, but got input.size\(2\)=8"),
])
def test_errors(call, message):
    with pytest.raises(RuntimeError, match=message):
        call()


def test_module_option_errors():
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        sg.nn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="out_channels must be divisible by groups"):
        sg.nn.Conv2d(4, 3, 3, groups=2)
    with pytest.raises(ValueError, match="groups must be a positive integer"):
        sg.nn.Conv1d(4, 4, 3, groups=0)
    with pytest.raises(ValueError, match="Invalid padding string 'full'"):
        sg.nn.Conv2d(4, 4, 3, padding="full")
    with pytest.raises(ValueError, match="padding='same' is not supported for strided"):
        sg.nn.Conv2d(4, 4, 3, stride=2, padding="same")
    with pytest.raises(ValueError, match="padding_mode must be one of"):
        sg.nn.Conv2d(4, 4, 3, padding_mode="mirror")
