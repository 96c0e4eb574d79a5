"""Resizing and rearranging: ``F.interpolate`` (nearest, nearest-exact, linear, bilinear,
bicubic, trilinear, area), the deprecated ``upsample*``, ``pixel_shuffle``, ``pixel_unshuffle``,
``channel_shuffle`` and the modules ``Upsample``, ``UpsamplingNearest2d``,
``UpsamplingBilinear2d``, ``PixelShuffle``, ``PixelUnshuffle``, ``ChannelShuffle``. Values
against NumPy written here (repeat, ``np.interp``, Keys' cubic kernel, index loops), against
torch's float32 numbers bit for bit (some written here from torch 2.13, more from torch where
it is installed); gradients against central differences, eagerly and compiled; reprs,
grad_fn names and torch's errors.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F
from references import central_differences, gradient

R = np.random.default_rng(9)


def arr(*shape, dtype=np.float64):
    return R.standard_normal(shape).astype(dtype)


# ---------------------------------------------------------------- NumPy oracles

def np_linear_along(x, axis, out, align_corners):
    """Linear interpolation along ``axis`` by np.interp at torch's source positions (those
    past the ends take the end values, as torch's clamped weights do)."""
    n = x.shape[axis]
    dst = np.arange(out)
    if align_corners:
        pos = dst * ((n - 1) / (out - 1)) if out > 1 else np.zeros(out)
    else:
        pos = np.maximum((dst + 0.5) * n / out - 0.5, 0)
    moved = np.moveaxis(x, axis, -1)
    flat = moved.reshape(-1, n)
    res = np.stack([np.interp(pos, np.arange(n), row) for row in flat])
    return np.moveaxis(res.reshape(moved.shape[:-1] + (out,)), -1, axis)


def keys(t, a=-0.75):
    t = np.abs(t)
    return np.where(t <= 1, ((a + 2) * t - (a + 3)) * t * t + 1,
                    np.where(t < 2, ((a * t - 5 * a) * t + 8 * a) * t - 4 * a, 0.0))


def np_cubic_along(x, axis, out, align_corners):
    """Keys' cubic convolution (a = -0.75) along ``axis``, the taps clamped to the edges."""
    n = x.shape[axis]
    dst = np.arange(out)
    pos = dst * ((n - 1) / (out - 1)) if align_corners else (dst + 0.5) * n / out - 0.5
    base = np.floor(pos).astype(int)
    moved = np.moveaxis(x, axis, -1)
    res = np.zeros(moved.shape[:-1] + (out,))
    for j in range(-1, 3):
        res += moved[..., np.clip(base + j, 0, n - 1)] * keys(pos - (base + j))
    return np.moveaxis(res, -1, axis)


@pytest.mark.parametrize("scale", [2, 3])
def test_nearest_integer_scale_is_repeat(scale):
    x = arr(2, 3, 4, 5)
    got = F.interpolate(sg.tensor(x), scale_factor=scale).numpy()
    np.testing.assert_array_equal(got, x.repeat(scale, -1).repeat(scale, -2))
    x1 = arr(2, 3, 4)
    np.testing.assert_array_equal(F.interpolate(sg.tensor(x1), scale_factor=scale).numpy(),
                                  x1.repeat(scale, -1))


def test_nearest_sizes_are_floor_of_the_ratio():
    x = arr(2, 3, 5, 7)
    got = F.interpolate(sg.tensor(x), size=(8, 3)).numpy()
    rows = [h * 5 // 8 for h in range(8)]
    cols = [w * 7 // 3 for w in range(3)]
    np.testing.assert_array_equal(got, x[:, :, rows][:, :, :, cols])
    exact = F.interpolate(sg.tensor(x), size=(8, 3), mode="nearest-exact").numpy()
    rows = [min(int((h + 0.5) * 5 / 8), 4) for h in range(8)]
    cols = [min(int((w + 0.5) * 7 / 3), 6) for w in range(3)]
    np.testing.assert_array_equal(exact, x[:, :, rows][:, :, :, cols])


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("mode, shape, out", [("linear", (2, 3, 6), (11,)),
                                              ("linear", (2, 3, 9), (4,)),
                                              ("bilinear", (2, 3, 4, 6), (7, 13)),
                                              ("bilinear", (1, 2, 9, 7), (4, 3)),
                                              ("trilinear", (1, 2, 3, 4, 5), (5, 7, 2))])
def test_linear_modes_match_np_interp(mode, shape, out, align_corners):
    x = arr(*shape)
    want = x
    for d, o in enumerate(out):
        want = np_linear_along(want, 2 + d, o, align_corners)
    got = F.interpolate(sg.tensor(x), size=out, mode=mode, align_corners=align_corners)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.parametrize("out", [(9, 13), (3, 2), (5, 6)])
def test_bicubic_matches_keys_kernel(out, align_corners):
    x = arr(2, 3, 5, 6)
    want = np_cubic_along(np_cubic_along(x, 2, out[0], align_corners), 3, out[1],
                          align_corners)
    got = F.interpolate(sg.tensor(x), size=out, mode="bicubic", align_corners=align_corners)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


def test_torch_float32_numbers_written_here():
    """torch 2.13's float32 outputs (first 8 values, as hex) for three resizes of
    arange(12).reshape(1, 1, 3, 4) / 7: symgrad gives them bit for bit."""
    x = sg.arange(12, dtype=sg.float32).reshape(1, 1, 3, 4) / 7
    cases = {
        (("scale_factor", 2), ("mode", "bilinear")):
            ['0x0.0p+0', '0x1.24924a0000000p-5', '0x1.b6db700000000p-4',
             '0x1.6db6dc0000000p-3', '0x1.0000020000000p-2', '0x1.4924940000000p-2',
             '0x1.9249240000000p-2', '0x1.b6db6e0000000p-2'],
        (("size", (4, 5)), ("mode", "bicubic"), ("align_corners", True)):
            ['0x0.0p+0', '0x1.86db700000000p-4', '0x1.b6db700000000p-3',
             '0x1.5524940000000p-2', '0x1.b6db6e0000000p-2', '0x1.4fea520000000p-2',
             '0x1.b1a12e0000000p-2', '0x1.15ac060000000p-1'],
        (("size", (5, 3)), ("mode", "nearest")):
            ['0x0.0p+0', '0x1.24924a0000000p-3', '0x1.24924a0000000p-2', '0x0.0p+0',
             '0x1.24924a0000000p-3', '0x1.24924a0000000p-2', '0x1.24924a0000000p-1',
             '0x1.6db6dc0000000p-1'],
    }
    for kw, want in cases.items():
        got = F.interpolate(x, **dict(kw)).numpy().reshape(-1)[:8]
        assert [float(v).hex() for v in got] == want, kw


TORCH_CASES = [("nearest", (2, 3, 7), {"scale_factor": 1.7}),
               ("nearest", (2, 3, 5, 7), {"size": (11, 4)}),
               ("nearest-exact", (2, 3, 5, 7), {"scale_factor": 0.6}),
               ("nearest", (1, 2, 3, 4, 5), {"scale_factor": 2}),
               ("linear", (2, 3, 9), {"scale_factor": 2.3, "recompute_scale_factor": True}),
               ("linear", (2, 3, 9), {"size": 200, "align_corners": True}),
               ("bilinear", (2, 3, 5, 7), {"scale_factor": 1.7}),
               ("bilinear", (2, 3, 5, 7), {"size": (100, 70), "align_corners": True}),
               ("bilinear", (1, 4, 9, 11), {"size": (5, 6)}),
               ("bilinear", (2, 9, 9, 11), {"size": (20, 17)}),     # torch's vector lanes
               ("bilinear", (1, 17, 4, 5), {"scale_factor": 2, "align_corners": True}),
               ("bicubic", (2, 3, 5, 7), {"scale_factor": (2, 0.6)}),
               ("bicubic", (2, 3, 5, 7), {"size": (11, 11), "align_corners": True}),
               ("trilinear", (1, 2, 3, 4, 5), {"scale_factor": 1.5}),
               ("trilinear", (1, 2, 3, 4, 5), {"size": (3, 4, 5)})]


@pytest.mark.parametrize("mode, shape, kw", TORCH_CASES)
def test_matches_torch(mode, shape, kw):
    """float32: bit for bit (torch's source positions and weights, its fused multiply-adds;
    bicubic: these cases, a few elements of others differ in the last bit); float64: to
    rounding (an unfused product can differ in the last bit)."""
    torch = pytest.importorskip("torch")
    for dt, exact in ((np.float32, True), (np.float64, False)):
        x = arr(*shape, dtype=dt)
        want = torch.nn.functional.interpolate(torch.tensor(x), mode=mode, **kw).numpy()
        got = F.interpolate(sg.tensor(x), mode=mode, **kw).numpy()
        assert got.dtype == want.dtype
        if exact or mode.startswith("nearest"):
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-15)


def test_area_is_adaptive_average_pooling():
    x = arr(2, 3, 9, 7)
    np.testing.assert_array_equal(F.interpolate(sg.tensor(x), size=(4, 3), mode="area").numpy(),
                                  F.adaptive_avg_pool2d(sg.tensor(x), (4, 3)).numpy())
    got = F.interpolate(sg.tensor(x), scale_factor=0.5, mode="area").numpy()   # (2, 3, 4, 3)
    for i, j in itertools.product(range(4), range(3)):      # torch's adaptive bins
        rows = slice(i * 9 // 4, math.ceil((i + 1) * 9 / 4))
        cols = slice(j * 7 // 3, math.ceil((j + 1) * 7 / 3))
        np.testing.assert_allclose(got[..., i, j], x[..., rows, cols].mean((-2, -1)),
                                   rtol=1e-12)


def test_deprecated_spellings_warn_and_resize():
    x = sg.tensor(arr(1, 1, 3, 3))
    with pytest.warns(UserWarning, match="upsample_bilinear.* is deprecated"):
        y = F.upsample_bilinear(x, scale_factor=2)
    np.testing.assert_array_equal(
        y.numpy(), F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True).numpy())
    with pytest.warns(UserWarning, match="upsample_nearest.* is deprecated"):
        assert F.upsample_nearest(x, size=5).shape == (1, 1, 5, 5)
    with pytest.warns(UserWarning, match="nn.functional.upsample. is deprecated"):
        assert F.upsample(x, scale_factor=3).shape == (1, 1, 9, 9)


# ---------------------------------------------------------------- shuffles

def test_pixel_shuffle_and_unshuffle_match_index_loops():
    x = arr(2, 12, 3, 4)
    r = 2
    want = np.zeros((2, 3, 6, 8))
    for n, c, h, w, i, j in itertools.product(range(2), range(3), range(3), range(4), range(r),
                                              range(r)):
        want[n, c, h * r + i, w * r + j] = x[n, c * r * r + i * r + j, h, w]
    got = F.pixel_shuffle(sg.tensor(x), r)
    np.testing.assert_array_equal(got.numpy(), want)
    np.testing.assert_array_equal(F.pixel_unshuffle(got, r).numpy(), x)
    np.testing.assert_array_equal(F.pixel_shuffle(sg.tensor(x[0]), r).numpy(), want[0])
    extra = arr(2, 2, 8, 2, 2)                       # more leading dims
    assert F.pixel_shuffle(sg.tensor(extra), 2).shape == (2, 2, 2, 4, 4)


def test_channel_shuffle_matches_index_formula():
    x = arr(2, 6, 3)
    got = F.channel_shuffle(sg.tensor(x), 3).numpy()
    for i, g in itertools.product(range(2), range(3)):     # channel g * 2 + i -> i * 3 + g
        np.testing.assert_array_equal(got[:, i * 3 + g], x[:, g * 2 + i])
    np.testing.assert_array_equal(
        F.channel_shuffle(sg.arange(6.0).reshape(1, 6, 1), 2).numpy().reshape(-1),
        [0.0, 3.0, 1.0, 4.0, 2.0, 5.0])


def test_shuffles_match_torch():
    torch = pytest.importorskip("torch")
    TF = torch.nn.functional
    x = arr(2, 8, 4, 6)
    for fn, args in [("pixel_shuffle", (2,)), ("pixel_unshuffle", (2,)),
                     ("channel_shuffle", (4,))]:
        np.testing.assert_array_equal(getattr(F, fn)(sg.tensor(x), *args).numpy(),
                                      getattr(TF, fn)(torch.tensor(x), *args).numpy())


# ---------------------------------------------------------------- gradients

GRADIENTS = {
    "nearest": (lambda t: F.interpolate(t, size=(5, 3)), (1, 2, 3, 4)),
    "nearest_exact_1d": (lambda t: F.interpolate(t, scale_factor=1.6, mode="nearest-exact"),
                         (1, 2, 5)),
    "linear": (lambda t: F.interpolate(t, size=7, mode="linear"), (1, 2, 4)),
    "bilinear": (lambda t: F.interpolate(t, scale_factor=1.5, mode="bilinear",
                                         align_corners=True), (1, 2, 3, 4)),
    "bilinear_large": (lambda t: F.interpolate(t, size=(70, 65), mode="bilinear"), (1, 1, 3, 2)),
    "bicubic": (lambda t: F.interpolate(t, size=(5, 4), mode="bicubic"), (1, 1, 3, 3)),
    "trilinear": (lambda t: F.interpolate(t, scale_factor=2, mode="trilinear"), (1, 1, 2, 2, 3)),
    "pixel_shuffle": (lambda t: F.pixel_shuffle(t, 2), (1, 8, 2, 2)),
    "pixel_unshuffle": (lambda t: F.pixel_unshuffle(t, 2), (1, 2, 4, 2)),
    "channel_shuffle": (lambda t: F.channel_shuffle(t, 2), (1, 4, 3)),
}


@pytest.mark.parametrize("how", ["eager", "compiled"])
@pytest.mark.parametrize("name", sorted(GRADIENTS))
def test_gradients_match_central_differences(name, how):
    fn, shape = GRADIENTS[name]

    def loss(t):
        y = fn(t)
        return (y * sg.tensor(np.cos(np.arange(y.numel())).reshape(y.shape))).sum() + \
            (y * y).sum()

    x0 = R.standard_normal(shape)
    np.testing.assert_allclose(gradient(loss, x0, how), central_differences(loss, x0),
                               rtol=1e-6, atol=1e-8)


def test_gradients_match_torch():
    torch = pytest.importorskip("torch")
    x = arr(2, 3, 5, 4)
    for kw in [{"scale_factor": 2, "mode": "bilinear"}, {"size": (7, 3), "mode": "bicubic"},
               {"size": (9, 9)}]:
        grads = []
        for T in (torch, sg):
            t = T.tensor(x, requires_grad=True)
            y = T.nn.functional.interpolate(t, **kw)
            (y * y).sum().backward()
            grads.append((t.grad.numpy(), y.grad_fn.name()))
        np.testing.assert_allclose(grads[1][0], grads[0][0], rtol=1e-12, atol=1e-12)
        assert grads[1][1] == grads[0][1]


def test_grad_fn_names():
    x = sg.tensor(arr(1, 2, 3, 4), requires_grad=True)
    x1, x3 = x[0], x.unsqueeze(2)
    names = {"nearest1": F.interpolate(x1, scale_factor=2), "nearest2": F.interpolate(x, size=5),
             "exact": F.interpolate(x, size=5, mode="nearest-exact"),
             "linear": F.interpolate(x1, size=5, mode="linear"),
             "bilinear": F.interpolate(x, size=5, mode="bilinear"),
             "bicubic": F.interpolate(x, size=5, mode="bicubic"),
             "trilinear": F.interpolate(x3, size=2, mode="trilinear"),
             "nearest3": F.interpolate(x3, size=2),
             "pixel": F.pixel_shuffle(x.repeat(1, 2, 1, 1), 2),
             "unpixel": F.pixel_unshuffle(x, 1), "channel": F.channel_shuffle(x, 2)}
    assert {k: v.grad_fn.name() for k, v in names.items()} == {
        "nearest1": "UpsampleNearest1DBackward0", "nearest2": "UpsampleNearest2DBackward0",
        "exact": "UpsampleNearestExact2DBackward0", "linear": "UpsampleLinear1DBackward0",
        "bilinear": "UpsampleBilinear2DBackward0", "bicubic": "UpsampleBicubic2DBackward0",
        "trilinear": "UpsampleTrilinear3DBackward0", "nearest3": "UpsampleNearest3DBackward0",
        "pixel": "PixelShuffleBackward0", "unpixel": "PixelUnshuffleBackward0",
        "channel": "ChannelShuffleBackward0"}


# ---------------------------------------------------------------- modules

@pytest.mark.parametrize("make, want", [
    (lambda nn: nn.Upsample(scale_factor=2, mode="bilinear"),
     "Upsample(scale_factor=2.0, mode='bilinear')"),
    (lambda nn: nn.Upsample(size=(7, 9)), "Upsample(size=(7, 9), mode='nearest')"),
    (lambda nn: nn.Upsample(scale_factor=(2, 1.5), mode="bicubic", align_corners=True),
     "Upsample(scale_factor=(2.0, 1.5), mode='bicubic')"),
    (lambda nn: nn.UpsamplingNearest2d(scale_factor=3),
     "UpsamplingNearest2d(scale_factor=3.0, mode='nearest')"),
    (lambda nn: nn.UpsamplingBilinear2d(size=7), "UpsamplingBilinear2d(size=7, mode='bilinear')"),
    (lambda nn: nn.PixelShuffle(2), "PixelShuffle(upscale_factor=2)"),
    (lambda nn: nn.PixelUnshuffle(3), "PixelUnshuffle(downscale_factor=3)"),
    (lambda nn: nn.ChannelShuffle(2), "ChannelShuffle(groups=2)"),
])
def test_module_reprs(make, want):
    assert repr(make(sg.nn)) == want
    torch = pytest.importorskip("torch")
    assert repr(make(torch.nn)) == want


def test_modules_forward():
    x = arr(2, 4, 3, 4, dtype=np.float32)
    m = sg.nn.UpsamplingBilinear2d(scale_factor=2)
    assert m.align_corners is True and m.mode == "bilinear"
    np.testing.assert_array_equal(
        m(sg.tensor(x)).numpy(),
        F.interpolate(sg.tensor(x), scale_factor=2, mode="bilinear", align_corners=True).numpy())
    assert sg.nn.PixelShuffle(2)(sg.tensor(x)).shape == (2, 1, 6, 8)
    model = sg.nn.Sequential(sg.nn.Upsample(scale_factor=2, mode="bicubic"),
                             sg.nn.PixelUnshuffle(2), sg.nn.ChannelShuffle(4))
    y = model(sg.tensor(x))
    assert y.shape == (2, 16, 3, 4)
    compiled = sg.compile(lambda t: model(t))(sg.tensor(x))
    np.testing.assert_array_equal(np.asarray(compiled), y.numpy())


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize("call, kind, message", [
    (lambda: F.interpolate(sg.ones(1, 1, 4), size=3, scale_factor=2), ValueError,
     r"only one of size or scale_factor should be defined"),
    (lambda: F.interpolate(sg.ones(1, 1, 4)), ValueError,
     r"either size or scale_factor should be defined"),
    (lambda: F.interpolate(sg.ones(1, 1, 4, 4), size=(2, 2, 2)), ValueError,
     r"Input and output must have the same number of spatial dimensions, but got input with "
     r"spatial dimensions of \[4, 4\] and output size of \(2, 2, 2\)"),
    (lambda: F.interpolate(sg.ones(1, 1, 4, 4), scale_factor=(2, 2, 2)), ValueError,
     r"Input and scale_factor must have the same number of spatial dimensions"),
    (lambda: F.interpolate(sg.ones(1, 1, 4), size=3, align_corners=True), ValueError,
     r"align_corners option can only be set with the interpolating modes: linear \| bilinear "
     r"\| bicubic \| trilinear"),
    (lambda: F.interpolate(sg.ones(1, 1, 4), size=3, mode="bilinear"), NotImplementedError,
     r"Got 3D input, but bilinear mode needs 4D input"),
    (lambda: F.interpolate(sg.ones(1, 1, 4, 4), size=3, mode="linear"), NotImplementedError,
     r"Got 4D input, but linear mode needs 3D input"),
    (lambda: F.interpolate(sg.ones(4, 4), size=3), NotImplementedError,
     r"Input Error: Only 3D, 4D and 5D input Tensors supported \(got 2D\)"),
    (lambda: F.interpolate(sg.ones(1, 1, 4), size=(2.5,)), TypeError,
     r"expected size to be one of int or Tuple\[int\]"),
    (lambda: F.interpolate(sg.ones(1, 1, 4), size=3, recompute_scale_factor=True), ValueError,
     r"recompute_scale_factor is not meaningful with an explicit size."),
    (lambda: F.interpolate(sg.ones(1, 1, 2, 2), scale_factor=0.3), RuntimeError,
     r"Input and output sizes should be greater than 0, but got input \(H: 2, W: 2\) output "
     r"\(H: 0, W: 0\)"),
    (lambda: F.interpolate(sg.ones(1, 1, 4), size=3, mode="bilinear", antialias=True),
     ValueError, r"Anti-alias option is restricted to bilinear, bicubic, and lanczos modes"),
    (lambda: F.pixel_shuffle(sg.ones(4, 4), 2), RuntimeError,
     r"pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 "
     r"dimension\(s\)"),
    (lambda: F.pixel_shuffle(sg.ones(1, 5, 4, 4), 2), RuntimeError,
     r"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
     r"upscale_factor, but input.size\(-3\)=5 is not divisible by 4"),
    (lambda: F.pixel_shuffle(sg.ones(1, 4, 4, 4), 0), RuntimeError,
     r"pixel_shuffle expects a positive upscale_factor, but got 0"),
    (lambda: F.pixel_unshuffle(sg.ones(1, 1, 5, 4), 2), RuntimeError,
     r"pixel_unshuffle expects height to be divisible by downscale_factor, but "
     r"input.size\(-2\)=5 is not divisible by 2"),
    (lambda: F.channel_shuffle(sg.ones(2, 6, 3), 4), RuntimeError,
     r"Number of channels must be divisible by groups. Got 6 channels and 4 groups."),
    (lambda: F.channel_shuffle(sg.ones(2, 6), 2), RuntimeError,
     r"channel_shuffle expects input with > 2 dims, but got input with sizes \[2, 6\]"),
    (lambda: F.channel_shuffle(sg.ones(2, 6, 3), 0), RuntimeError,
     r"Number of groups to divide channels in must be positive. Value of groups:0"),
])
def test_errors(call, kind, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(kind, match=message):
            call()


def test_output_sizes_follow_torch():
    x = sg.ones(1, 1, 5, 7)
    assert F.interpolate(x, scale_factor=1.7).shape == (1, 1, 8, 11)        # int(n * s)
    assert F.interpolate(x, scale_factor=(0.5, 2.0), mode="bilinear").shape == (1, 1, 2, 14)
    assert math.floor(5 * 2.3) == F.interpolate(x, scale_factor=2.3,
                                                recompute_scale_factor=True).shape[2]
