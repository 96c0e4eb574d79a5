"""The padding modules (``ZeroPad``, ``ConstantPad``, ``ReflectionPad``, ``ReplicationPad``,
``CircularPad`` 1d/2d/3d) and the pooling variants (``adaptive_max_pool1d/2d``,
``max_pool*_with_indices``, ``max_unpool1d/2d``, ``lp_pool1d/2d`` and their modules): values
against NumPy (``np.pad``, direct loops written here), against torch where it is installed;
gradients against central differences, eagerly and compiled; reprs and torch's errors.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F
from references import central_differences, gradient

R = np.random.default_rng(5)
NP_MODES = {"Zero": "constant", "Constant": "constant", "Reflection": "reflect",
            "Replication": "edge", "Circular": "wrap"}


def arr(*shape):
    return R.standard_normal(shape)


# ---------------------------------------------------------------- padding modules

PADS = [("ZeroPad1d", (2,), (2, 3, 4)), ("ZeroPad2d", ((1, 2, 0, 3),), (2, 3, 4, 5)),
        ("ZeroPad3d", (1,), (1, 2, 2, 3, 2)), ("ConstantPad1d", ((3, 1), 2.5), (3, 4)),
        ("ConstantPad2d", (2, -1.0), (2, 3, 4, 5)), ("ConstantPad3d", ((1, 0, 2, 1, 0, 1), 7.0),
                                                     (1, 2, 2, 3, 2)),
        ("ReflectionPad1d", ((3, 1),), (2, 3, 4)), ("ReflectionPad2d", (2,), (2, 3, 4, 5)),
        ("ReflectionPad3d", (1,), (1, 2, 3, 3, 3)), ("ReplicationPad1d", (2,), (3, 4)),
        ("ReplicationPad2d", ((0, 3, 2, 1),), (2, 3, 4, 5)),
        ("ReplicationPad3d", (1,), (1, 2, 3, 3, 3)), ("CircularPad1d", (2,), (2, 3, 4)),
        ("CircularPad2d", ((1, 2, 3, 0),), (2, 3, 4, 5)), ("CircularPad3d", (1,), (1, 2, 3, 3, 3))]


def _np_pad(name, args, x):
    nd = int(name[-2])
    pad = args[0]
    pad = (pad,) * (2 * nd) if isinstance(pad, int) else pad
    widths = [(0, 0)] * (x.ndim - nd) + [(pad[2 * i], pad[2 * i + 1]) for i in reversed(range(nd))]
    kind = NP_MODES[name.split("Pad")[0]]
    if kind == "constant":
        value = args[1] if name.startswith("Constant") else 0.0
        return np.pad(x, widths, mode="constant", constant_values=value)
    return np.pad(x, widths, mode=kind)


@pytest.mark.parametrize("name, args, shape", PADS)
def test_padding_modules_match_numpy(name, args, shape):
    x = arr(*shape)
    m = getattr(sg.nn, name)(*args)
    np.testing.assert_array_equal(m(sg.tensor(x)).numpy(), _np_pad(name, args, x))


@pytest.mark.parametrize("name, args, shape", PADS)
def test_padding_modules_like_torch(name, args, shape):
    torch = pytest.importorskip("torch")
    x = arr(*shape)
    m, t = getattr(sg.nn, name)(*args), getattr(torch.nn, name)(*args)
    assert repr(m) == repr(t) and m.padding == t.padding
    xs, xt = sg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    ys, yt = m(xs), t(xt)
    np.testing.assert_array_equal(ys.detach().numpy(), yt.detach().numpy())
    weights = np.cos(np.arange(ys.numel())).reshape(ys.shape)
    (ys * sg.tensor(weights)).sum().backward()
    (yt * torch.tensor(weights)).sum().backward()
    np.testing.assert_allclose(xs.grad.numpy(), xt.grad.numpy(), rtol=1e-12, atol=1e-14)


def test_padding_reprs():
    assert repr(sg.nn.ZeroPad2d(2)) == "ZeroPad2d((2, 2, 2, 2))"
    assert repr(sg.nn.ConstantPad1d((1, 2), 3.5)) == "ConstantPad1d(padding=(1, 2), value=3.5)"
    assert repr(sg.nn.ReflectionPad3d(1)) == "ReflectionPad3d((1, 1, 1, 1, 1, 1))"
    assert repr(sg.nn.CircularPad1d(3)) == "CircularPad1d((3, 3))"
    assert not isinstance(sg.nn.ReflectionPad2d(1), sg.nn.ReflectionPad1d)
    with pytest.raises(ValueError, match=r"expected 3D or 4D input \(got 2D input\)"):
        sg.nn.CircularPad2d(1)(sg.ones(3, 4))


# ---------------------------------------------------------------- adaptive max pooling

def np_adaptive_max(x, oh, ow):
    """(values, flat indices): the first maximum of each bin in row-major order."""
    h, w = x.shape[-2:]
    vals = np.zeros(x.shape[:-2] + (oh, ow))
    idx = np.zeros(x.shape[:-2] + (oh, ow), np.int64)
    for lead in np.ndindex(x.shape[:-2]):
        for i, j in itertools.product(range(oh), range(ow)):
            r0, r1 = i * h // oh, math.ceil((i + 1) * h / oh)
            c0, c1 = j * w // ow, math.ceil((j + 1) * w / ow)
            block = x[lead][r0:r1, c0:c1]
            a = int(np.argmax(block))
            vals[lead + (i, j)] = block.flat[a]
            idx[lead + (i, j)] = (r0 + a // (c1 - c0)) * w + c0 + a % (c1 - c0)
    return vals, idx


@pytest.mark.parametrize("size", [3, (2, 4), (None, 5), 10, (7, 9), (1, 1)])
def test_adaptive_max_pool2d_matches_numpy_and_torch(size):
    x = np.round(arr(2, 3, 7, 9), 1)              # rounded: ties
    oh, ow = (size, size) if isinstance(size, int) else (size[0] or 7, size[1] or 9)
    v, i = F.adaptive_max_pool2d(sg.tensor(x), size, return_indices=True)
    want_v, want_i = np_adaptive_max(x, oh, ow)
    np.testing.assert_array_equal(v.numpy(), want_v)
    np.testing.assert_array_equal(i.numpy(), want_i)
    assert i.dtype is sg.int64
    np.testing.assert_array_equal(F.adaptive_max_pool2d(sg.tensor(x[0]), size).numpy(),
                                  want_v[0])
    torch = pytest.importorskip("torch")
    tv, ti = torch.nn.functional.adaptive_max_pool2d(torch.tensor(x), size, return_indices=True)
    np.testing.assert_array_equal(v.numpy(), tv.numpy())
    np.testing.assert_array_equal(i.numpy(), ti.numpy())


@pytest.mark.parametrize("size", [3, 4, 11, 15, (2,)])
def test_adaptive_max_pool1d_matches_numpy_and_torch(size):
    x = np.round(arr(2, 3, 11), 1)
    n = size if isinstance(size, int) else size[0]
    v, i = F.adaptive_max_pool1d(sg.tensor(x), size, return_indices=True)
    want_v, want_i = np_adaptive_max(x[..., None, :], 1, n)
    np.testing.assert_array_equal(v.numpy(), want_v[..., 0, :])
    np.testing.assert_array_equal(i.numpy(), want_i[..., 0, :])
    torch = pytest.importorskip("torch")
    tv, ti = torch.nn.functional.adaptive_max_pool1d(torch.tensor(x), size, return_indices=True)
    np.testing.assert_array_equal(v.numpy(), tv.numpy())
    np.testing.assert_array_equal(i.numpy(), ti.numpy())


def test_with_indices_functions():
    x = arr(2, 3, 6, 7)
    v, i = F.max_pool2d_with_indices(sg.tensor(x), 2)
    v2, i2 = F.max_pool2d(sg.tensor(x), 2, return_indices=True)
    np.testing.assert_array_equal(v.numpy(), v2.numpy())
    np.testing.assert_array_equal(i.numpy(), i2.numpy())
    v, i = F.max_pool1d_with_indices(sg.tensor(x[0]), 3, 2)
    assert v.shape == i.shape == (3, 6, 3)
    v, i = F.adaptive_max_pool2d_with_indices(sg.tensor(x), 2)
    assert v.shape == i.shape == (2, 3, 2, 2)
    v, i = F.adaptive_max_pool1d_with_indices(sg.tensor(x[0]), 2)
    assert v.shape == i.shape == (3, 6, 2)


# ---------------------------------------------------------------- max unpooling

def np_unpool(x, idx, plane):
    """Each value written at its index of a zero plane, in order (the last write wins)."""
    out = np.zeros(x.shape[:-2] + (plane[0] * plane[1],))
    for lead in np.ndindex(x.shape[:-2]):
        for v, i in zip(x[lead].reshape(-1), idx[lead].reshape(-1)):
            out[lead + (i,)] = v
    return out.reshape(x.shape[:-2] + plane)


@pytest.mark.parametrize("k, s", [(2, None), (3, 1), (3, 2)])
def test_max_unpool2d_matches_numpy_and_torch(k, s):
    x = np.round(arr(2, 3, 7, 9), 1)
    v, i = F.max_pool2d(sg.tensor(x), k, s, return_indices=True)
    got = F.max_unpool2d(v, i, k, s, output_size=(7, 9))
    np.testing.assert_array_equal(got.numpy(), np_unpool(v.numpy(), i.numpy(), (7, 9)))
    small = sg.tensor(arr(1, 1, 2, 2))
    default = F.max_unpool2d(small, sg.zeros(1, 1, 2, 2, dtype=sg.int64), k, s).shape
    assert tuple(default[-2:]) == ((2 - 1) * (s or k) + k,) * 2    # (n - 1) * stride + kernel
    torch = pytest.importorskip("torch")
    want = torch.nn.functional.max_unpool2d(torch.tensor(v.numpy()), torch.tensor(i.numpy()),
                                            k, s, output_size=(7, 9))
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_max_unpool_repeated_indices_keep_the_last_value():
    """torch writes in order: with an index repeated, the last value stays (symgrad's scatter
    would add them up; unpooling does not)."""
    x = sg.tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
    idx = sg.tensor([[[[0, 0], [0, 1]]]])
    np.testing.assert_array_equal(F.max_unpool2d(x, idx, 2).numpy().reshape(-1)[:3],
                                  [3.0, 4.0, 0.0])
    compiled = sg.compile(lambda a, b: F.max_unpool2d(a, b, 2))(x, idx)
    np.testing.assert_array_equal(np.asarray(compiled).reshape(-1)[:3], [3.0, 4.0, 0.0])


def test_max_unpool1d_matches_torch():
    x = np.round(arr(2, 3, 11), 1)
    v, i = F.max_pool1d(sg.tensor(x), 3, 2, return_indices=True)
    got = F.max_unpool1d(v, i, 3, 2, output_size=[11])
    want = np_unpool(v.numpy()[..., None, :], i.numpy()[..., None, :], (1, 11))
    np.testing.assert_array_equal(got.numpy(), want[..., 0, :])
    torch = pytest.importorskip("torch")
    want = torch.nn.functional.max_unpool1d(torch.tensor(v.numpy()), torch.tensor(i.numpy()), 3,
                                            2, output_size=[11])
    np.testing.assert_array_equal(got.numpy(), want.numpy())


# ---------------------------------------------------------------- lp pooling

def np_lp_pool2d(x, p, k, s):
    kh, kw = (k, k) if isinstance(k, int) else k
    sh, sw = (s, s) if isinstance(s, int) else s
    oh, ow = (x.shape[-2] - kh) // sh + 1, (x.shape[-1] - kw) // sw + 1
    y = np.zeros(x.shape[:-2] + (oh, ow))
    for i, j in itertools.product(range(oh), range(ow)):
        block = x[..., i * sh:i * sh + kh, j * sw:j * sw + kw]
        y[..., i, j] = (block ** p).sum((-2, -1)) ** (1 / p)
    return y


@pytest.mark.parametrize("p, k, s", [(2, 3, 2), (1, 2, 1), (3, (2, 3), (1, 2)), (2.5, 2, 2)])
def test_lp_pool2d_matches_numpy_and_torch(p, k, s):
    x = np.abs(arr(2, 3, 7, 8)) + 0.1               # positive: fractional powers are real
    got = F.lp_pool2d(sg.tensor(x), p, k, s).numpy()
    np.testing.assert_allclose(got, np_lp_pool2d(x, p, k, s), rtol=1e-12)
    torch = pytest.importorskip("torch")
    want = torch.nn.functional.lp_pool2d(torch.tensor(x), p, k, s).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-14)


def test_lp_pool1d_and_infinity_match_torch():
    x = arr(2, 3, 9)
    np.testing.assert_allclose(F.lp_pool1d(sg.tensor(x), 2, 3, 2).numpy(),
                               np_lp_pool2d(x[..., None, :], 2, (1, 3), (1, 2))[..., 0, :],
                               rtol=1e-12)
    blocks = np.abs(x)[:, :2, :8].reshape(2, 1, 2, 4, 2)      # p = inf: the largest |x|
    np.testing.assert_array_equal(F.lp_pool2d(sg.tensor(x[None]), math.inf, 2).numpy(),
                                  blocks.max(axis=(2, 4))[None])
    torch = pytest.importorskip("torch")
    for args in [(2, 3, 2), (1.5, 2, 1, True), (math.inf, 2), (-math.inf, 3)]:
        np.testing.assert_allclose(F.lp_pool1d(sg.tensor(np.abs(x)), *args).numpy(),
                                   torch.nn.functional.lp_pool1d(torch.tensor(np.abs(x)),
                                                                 *args).numpy(), rtol=1e-14)


# ---------------------------------------------------------------- gradients

GRADIENTS = {
    "adaptive_max_pool2d": (lambda t: F.adaptive_max_pool2d(t, (2, 3)), (1, 2, 5, 7)),
    "adaptive_max_pool1d": (lambda t: F.adaptive_max_pool1d(t, 4), (2, 9)),
    "max_unpool2d": (lambda t: F.max_unpool2d(t, sg.tensor(np.array(
        [[[[0, 3, 8], [14, 11, 19]]]])), 2, output_size=(4, 5)), (1, 1, 2, 3)),
    "lp_pool2d": (lambda t: F.lp_pool2d(t * t + 0.5, 2, 2, 1), (1, 2, 3, 4)),
    "lp_pool1d": (lambda t: F.lp_pool1d(t * t + 0.5, 3, 2), (2, 6)),
    "reflection_pad": (lambda t: sg.nn.ReflectionPad2d((2, 1, 1, 2))(t), (1, 1, 3, 4)),
    "circular_pad": (lambda t: sg.nn.CircularPad1d(2)(t), (2, 3)),
}


@pytest.mark.parametrize("how", ["eager", "compiled"])
@pytest.mark.parametrize("name", sorted(GRADIENTS))
def test_gradients_match_central_differences(name, how):
    fn, shape = GRADIENTS[name]

    def loss(t):
        y = fn(t)
        return (y * sg.tensor(np.cos(np.arange(y.numel())).reshape(y.shape))).sum()

    x0 = R.permutation(np.linspace(-2, 2, math.prod(shape))).reshape(shape)   # no ties
    np.testing.assert_allclose(gradient(loss, x0, how), central_differences(loss, x0),
                               rtol=1e-6, atol=1e-8)


def test_max_unpool_gradient_reads_every_index():
    """Each input's gradient is the cotangent at its index, repeated indices too (torch's
    MaxUnpool2DBackward0)."""
    x = sg.tensor([[[[1.0, 2.0], [3.0, 4.0]]]], requires_grad=True)
    y = F.max_unpool2d(x, sg.tensor([[[[0, 0], [5, 1]]]]), 2)
    assert y.grad_fn.name() == "MaxUnpool2DBackward0"
    (y * sg.arange(16.0).reshape(1, 1, 4, 4)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy().reshape(-1), [0.0, 0.0, 5.0, 1.0])


def test_grad_fn_names():
    x = sg.tensor(arr(1, 2, 5, 6), requires_grad=True)
    assert F.adaptive_max_pool2d(x, 2).grad_fn.name() == "AdaptiveMaxPool2DBackward0"
    assert F.adaptive_max_pool1d(x[0], 2).grad_fn.name() == "SqueezeBackward1"
    assert F.lp_pool2d(x, 2, 2).grad_fn.name() == "PowBackward0"


# ---------------------------------------------------------------- modules and errors

@pytest.mark.parametrize("make, want", [
    (lambda nn: nn.AdaptiveMaxPool2d((3, None), return_indices=True),
     "AdaptiveMaxPool2d(output_size=(3, None))"),
    (lambda nn: nn.AdaptiveMaxPool1d(4), "AdaptiveMaxPool1d(output_size=4)"),
    (lambda nn: nn.MaxUnpool2d(2), "MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), "
                                   "padding=(0, 0))"),
    (lambda nn: nn.MaxUnpool1d(3, 2, 1), "MaxUnpool1d(kernel_size=(3,), stride=(2,), "
                                         "padding=(1,))"),
    (lambda nn: nn.LPPool2d(2, 3, stride=2), "LPPool2d(norm_type=2, kernel_size=3, stride=2, "
                                             "ceil_mode=False)"),
    (lambda nn: nn.LPPool1d(1.5, 3), "LPPool1d(norm_type=1.5, kernel_size=3, stride=None, "
                                     "ceil_mode=False)"),
])
def test_module_reprs(make, want):
    assert repr(make(sg.nn)) == want
    torch = pytest.importorskip("torch")
    assert repr(make(torch.nn)) == want


def test_modules_like_torch():
    torch = pytest.importorskip("torch")
    x = np.round(arr(2, 3, 8, 8), 1)
    for make in [lambda nn: nn.AdaptiveMaxPool2d(3, return_indices=True),
                 lambda nn: nn.LPPool2d(2, 2), lambda nn: nn.AdaptiveMaxPool1d(3)]:
        xx = x[0] if "1d" in type(make(sg.nn)).__name__ else x
        got, want = make(sg.nn)(sg.tensor(xx)), make(torch.nn)(torch.tensor(xx))
        for a, b in zip(got if isinstance(got, tuple) else [got],
                        want if isinstance(want, tuple) else [want]):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-14)
    pool, unpool = sg.nn.MaxPool2d(2, return_indices=True), sg.nn.MaxUnpool2d(2)
    v, i = pool(sg.tensor(x))
    tv, ti = torch.nn.MaxPool2d(2, return_indices=True)(torch.tensor(x))
    np.testing.assert_array_equal(unpool(v, i, output_size=(8, 8)).numpy(),
                                  torch.nn.MaxUnpool2d(2)(tv, ti, output_size=(8, 8)).numpy())


@pytest.mark.parametrize("call, kind, message", [
    (lambda: F.adaptive_max_pool2d(sg.ones(2, 3), 2), RuntimeError,
     r"adaptive_max_pool2d\(\): Expected 3D or 4D tensor, but got: \[2, 3\]"),
    (lambda: F.adaptive_max_pool1d(sg.ones(2, 3, 4, 5), 2), RuntimeError,
     r"Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self' "
     r"\(while checking arguments for adaptive_max_pool1d\)"),
    (lambda: F.adaptive_max_pool2d(sg.ones(1, 2, 4, 4), (2, 2, 2)), RuntimeError,
     r"adaptive_max_pool2d\(\): internal error: output_size.size\(\) must be 2"),
    (lambda: F.adaptive_max_pool1d(sg.ones(2, 3, 9), (3, 4)), RuntimeError,
     r"adaptive_max_pool1d\(\) argument 'output_size' should contain one int \(got 2\)"),
    (lambda: F.adaptive_max_pool2d(sg.ones(2, 0, 3, 3), 2), RuntimeError,
     r"Expected input to have non-zero size for non-batch dimensions, but input has sizes "
     r"\[2, 0, 3, 3\] with dimension 1 being empty"),
    (lambda: F.adaptive_max_pool2d(sg.ones(1, 2, 4, 4, dtype=sg.int64), 2),
     NotImplementedError, r"\"adaptive_max_pool2d\" not implemented for 'Long'"),
    (lambda: F.max_unpool2d(sg.ones(2, 3, 3, 4), sg.ones(2, 3, 3, 4), 2), RuntimeError,
     r"elements in indices should be type int64 but got: Float"),
    (lambda: F.max_unpool2d(sg.ones(2, 3, 3, 4), sg.zeros(2, 3, 3, 2, dtype=sg.int64), 2),
     RuntimeError, r"Expected shape of indices to be same as that of the input tensor "
                   r"\(\[2, 3, 3, 4\]\) but got indices tensor with shape: \[2, 3, 3, 2\]"),
    (lambda: F.max_unpool2d(sg.ones(3, 4), sg.zeros(3, 4, dtype=sg.int64), 2), RuntimeError,
     r"Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with 2 "
     r"dimensions."),
    (lambda: F.max_unpool2d(sg.ones(1, 1, 3, 4), sg.full((1, 1, 3, 4), 48), 2), RuntimeError,
     r"Found an invalid max index: 48 \(output volumes are of size 6x8\)"),
    (lambda: F.max_unpool2d(sg.ones(1, 1, 3, 4), sg.zeros(1, 1, 3, 4, dtype=sg.int64), 2,
                            output_size=(9, 8)), ValueError,
     r'invalid output_size "\(9, 8\)" \(dim 0 must be between 4 and 8\)'),
    (lambda: F.max_unpool2d(sg.ones(1, 1, 3, 4), sg.zeros(1, 1, 3, 4, dtype=sg.int64), 2,
                            output_size=(1, 9, 8)), ValueError,
     r"output_size should be a sequence containing 2 or 4 elements, but it has a length of "
     r"'3'"),
])
def test_errors(call, kind, message):
    with pytest.raises(kind, match=message):
        call()
