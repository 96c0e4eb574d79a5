"""Transposed convolution (``F.conv_transpose1d/2d/3d``, ``nn.ConvTranspose1d/2d/3d``) and
``conv3d``/``nn.Conv3d``: values against a direct NumPy scatter loop written here and against
the adjoint identity <conv(x, w), y> = <x, conv_transpose(y, w)>; against torch where it is
installed (float64, and the module's initial weights after ``manual_seed``); gradients against
central differences, eagerly and compiled; reprs, ``output_size``, and torch's errors.
Expected values come from NumPy, from torch, or from torch's numbers written here.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F
from references import central_differences, gradient

R = np.random.default_rng(21)


def arr(*shape):
    return R.standard_normal(shape)


def np_conv_transpose(x, w, b=None, stride=1, padding=0, output_padding=0, groups=1,
                      dilation=1):
    """Each input element scatters input * weight into the output, one at a time; the
    padding is then cropped."""
    nd = w.ndim - 2

    def tup(v):
        return (v,) * nd if isinstance(v, int) else tuple(v)
    s, p, op, d = tup(stride), tup(padding), tup(output_padding), tup(dilation)
    n, cin = x.shape[:2]
    cout_g, k = w.shape[1], w.shape[2:]
    cin_g = cin // groups
    full = [(x.shape[2 + i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 + op[i] for i in range(nd)]
    y = np.zeros([n, cout_g * groups] + full)
    for b_, ci in itertools.product(range(n), range(cin)):
        g = ci // cin_g
        for pos in itertools.product(*(range(m) for m in x.shape[2:])):
            for oc, off in itertools.product(range(cout_g), itertools.product(*map(range, k))):
                at = tuple(pos[i] * s[i] + off[i] * d[i] for i in range(nd))
                y[(b_, g * cout_g + oc) + at] += x[(b_, ci) + pos] * w[(ci, oc) + off]
    crop = tuple(slice(p[i], full[i] - p[i]) for i in range(nd))
    y = y[(slice(None), slice(None)) + crop]
    return y if b is None else y + b.reshape((-1,) + (1,) * nd)


CASES = [(2, {}), (2, {"stride": 2, "padding": 1, "output_padding": 1}),
         (2, {"stride": (2, 3), "padding": (1, 0), "dilation": (2, 1), "groups": 2}),
         (2, {"stride": 3, "output_padding": (2, 0), "dilation": 2}),
         (1, {"stride": 3, "padding": 2, "output_padding": 2, "dilation": 2}),
         (1, {"groups": 4}), (3, {"stride": 2, "groups": 2, "output_padding": (1, 0, 1)})]


def _case(nd, kw):
    g = kw.get("groups", 1)
    return arr(2, 4, *(4,) * nd), arr(4, 6 // g if g != 4 else 1, *(3,) * nd), arr(
        6 if g != 4 else 4)


@pytest.mark.parametrize("nd, kw", CASES)
def test_matches_numpy_scatter_loop(nd, kw):
    x, w, b = _case(nd, kw)
    fn = getattr(F, f"conv_transpose{nd}d")
    got = fn(sg.tensor(x), sg.tensor(w), sg.tensor(b), **kw).numpy()
    np.testing.assert_allclose(got, np_conv_transpose(x, w, b, **kw), rtol=1e-12, atol=1e-12)
    unbatched = fn(sg.tensor(x[1]), sg.tensor(w), None, **kw).numpy()
    np.testing.assert_allclose(unbatched, np_conv_transpose(x[1:], w, None, **kw)[0],
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("nd, kw", [c for c in CASES if "output_padding" not in c[1]])
def test_is_the_adjoint_of_the_convolution(nd, kw):
    """<conv(x, w), y> = <x, conv_transpose(y, w)> with the same stride, padding, dilation
    and groups (the weight read as (C_out, C_in / groups, *K) by the convolution)."""
    g = kw.get("groups", 1)
    cin, cout = 4, 6 if g != 4 else 4
    w = arr(cout, cin // g, *(3,) * nd)          # conv: cin -> cout; conv_transpose: back
    x = arr(2, cin, *(7,) * nd)
    conv = (F.conv1d, F.conv2d, F.conv3d)[nd - 1]
    y_shape = conv(sg.tensor(x), sg.tensor(w), **kw).shape
    y = arr(*y_shape)
    lhs = float((conv(sg.tensor(x), sg.tensor(w), **kw) * sg.tensor(y)).sum())
    transpose = getattr(F, f"conv_transpose{nd}d")
    short = transpose(sg.tensor(y), sg.tensor(w), **kw).shape
    # a strided conv maps several input sizes to one: output_padding picks x's
    extra = tuple(n - m for n, m in zip(x.shape[2:], short[2:]))
    back = transpose(sg.tensor(y), sg.tensor(w), output_padding=extra, **kw)
    assert back.shape == x.shape
    rhs = float((sg.tensor(x) * back).sum())
    assert math.isclose(lhs, rhs, rel_tol=1e-12, abs_tol=1e-12)


@pytest.mark.parametrize("nd, kw", CASES)
def test_matches_torch(nd, kw):
    torch = pytest.importorskip("torch")
    x, w, b = _case(nd, kw)
    name = f"conv_transpose{nd}d"
    want = getattr(torch.nn.functional, name)(torch.tensor(x), torch.tensor(w), torch.tensor(b),
                                              **kw).numpy()
    got = getattr(F, name)(sg.tensor(x), sg.tensor(w), sg.tensor(b), **kw).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_conv3d_matches_numpy_adjoint_and_torch():
    x, w, b = arr(2, 4, 5, 4, 6), arr(6, 2, 2, 3, 2), arr(6)
    got = F.conv3d(sg.tensor(x), sg.tensor(w), sg.tensor(b), stride=(1, 2, 1), padding=1,
                   groups=2).numpy()
    # conv3d is conv_transpose3d's adjoint: check through the NumPy scatter loop
    y = arr(*got.shape)
    back = np_conv_transpose(y, w, None, (1, 2, 1), 1, output_padding=(0, 1, 0), groups=2)
    assert back.shape == x.shape
    lhs = float(((got - b.reshape(-1, 1, 1, 1)) * y).sum())
    assert math.isclose(lhs, float((x * back).sum()), rel_tol=1e-12)
    torch = pytest.importorskip("torch")
    want = torch.nn.functional.conv3d(torch.tensor(x), torch.tensor(w), torch.tensor(b),
                                      stride=(1, 2, 1), padding=1, groups=2).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


GRADIENTS = {
    "input_2d": (lambda t: F.conv_transpose2d(t, sg.tensor(np.sin(np.arange(36.0)).reshape(
        2, 2, 3, 3)), sg.tensor(np.array([0.1, -0.3])), stride=2, padding=1,
        output_padding=1), (1, 2, 3, 4)),
    "weight_groups": (lambda t: F.conv_transpose2d(sg.tensor(np.cos(np.arange(48.0)).reshape(
        1, 4, 3, 4)), t, stride=(1, 2), groups=2, dilation=(2, 1)), (4, 1, 2, 3)),
    "bias_1d": (lambda t: F.conv_transpose1d(sg.tensor(np.cos(np.arange(10.0)).reshape(2, 5)),
                                             sg.tensor(np.sin(np.arange(12.0)).reshape(2, 3, 2)),
                                             t, stride=3), (3,)),
    "input_3d": (lambda t: F.conv_transpose3d(t, sg.tensor(np.sin(np.arange(16.0)).reshape(
        2, 1, 2, 2, 2)), stride=2), (1, 2, 2, 2, 2)),
    "conv3d": (lambda t: F.conv3d(t, sg.tensor(np.sin(np.arange(24.0)).reshape(3, 1, 2, 2, 2)),
                                  padding=(1, 0, 1), stride=(2, 1, 1)), (1, 1, 3, 3, 3)),
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
    x, w, b = arr(2, 4, 3, 5), arr(4, 3, 2, 3), arr(6)
    kw = {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2, "dilation": (1, 2)}
    out = []
    for T, fn in ((torch, torch.nn.functional.conv_transpose2d), (sg, F.conv_transpose2d)):
        ts = [T.tensor(v, requires_grad=True) for v in (x, w, b)]
        y = fn(*ts, **kw)
        (y * y).sum().backward()
        out.append([t.grad.numpy() for t in ts] + [y.grad_fn.name()])
    for a, b_ in zip(out[0][:3], out[1][:3]):
        np.testing.assert_allclose(b_, a, rtol=1e-12, atol=1e-12)
    assert out[1][3] == out[0][3] == "ConvolutionBackward0"


def test_grad_fn_names():
    x = sg.tensor(arr(1, 2, 3, 3), requires_grad=True)
    w = sg.tensor(arr(2, 2, 2, 2))
    assert F.conv_transpose2d(x, w).grad_fn.name() == "ConvolutionBackward0"
    assert F.conv_transpose2d(x[0], w).grad_fn.name() == "SqueezeBackward1"
    assert F.conv3d(x.unsqueeze(2), sg.tensor(arr(2, 2, 1, 2, 2))).grad_fn.name() == \
        "ConvolutionBackward0"


# ---------------------------------------------------------------- modules

def test_module_initial_weights_after_manual_seed():
    """torch's numbers after manual_seed(0) (written here from torch 2.13), and torch's
    own when it is installed."""
    sg.manual_seed(0)
    m = sg.nn.ConvTranspose2d(2, 3, 2)
    assert m.weight.shape == (2, 3, 2, 2) and m.bias.shape == (3,)
    np.testing.assert_array_equal(
        m.weight.detach().numpy().reshape(-1)[:6],
        np.array([-0.0021612588316202164, 0.15485791862010956, -0.2375926673412323,
                  -0.21244730055332184, -0.1111844852566719, 0.07741036266088486], np.float32))
    np.testing.assert_array_equal(m.bias.detach().numpy(), np.array(
        [-0.046529628336429596, 0.030545899644494057, 0.2613884508609772], np.float32))
    torch = pytest.importorskip("torch")
    for name, args, kw in [("ConvTranspose1d", (4, 6, 3), {"groups": 2}),
                           ("ConvTranspose3d", (2, 4, 2), {"bias": False}),
                           ("Conv3d", (2, 4, (1, 2, 3)), {"groups": 2})]:
        torch.manual_seed(3)
        sg.manual_seed(3)
        t, s = getattr(torch.nn, name)(*args, **kw), getattr(sg.nn, name)(*args, **kw)
        assert list(s.state_dict()) == list(t.state_dict())
        for k, v in t.state_dict().items():
            np.testing.assert_array_equal(s.state_dict()[k].numpy(), v.numpy(), err_msg=k)
        assert float(sg.rand(())) == float(torch.rand(()))     # the same draws were made


@pytest.mark.parametrize("make, want", [
    (lambda nn: nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2,
                                   bias=False, dilation=2),
     "ConvTranspose2d(4, 6, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), dilation=(2, 2),"
     " output_padding=(1, 1), groups=2, bias=False)"),
    (lambda nn: nn.ConvTranspose1d(4, 6, 3), "ConvTranspose1d(4, 6, kernel_size=(3,), "
                                              "stride=(1,))"),
    (lambda nn: nn.Conv3d(4, 6, 3, padding_mode="circular", padding=1),
     "Conv3d(4, 6, kernel_size=(3, 3, 3), stride=(1, 1, 1), padding=(1, 1, 1), "
     "padding_mode=circular)"),
])
def test_reprs(make, want):
    assert repr(make(sg.nn)) == want
    torch = pytest.importorskip("torch")
    assert repr(make(torch.nn)) == want


def test_module_forward_and_output_size_like_torch():
    torch = pytest.importorskip("torch")
    x = arr(2, 4, 5, 6)
    outs = []
    for T in (torch, sg):
        T.manual_seed(1)
        m = T.nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1).double()
        xt = T.tensor(x, requires_grad=True)
        y = m(xt, output_size=(10, 12))
        (y * y).sum().backward()
        outs.append((y.detach().numpy(), xt.grad.numpy(), m.weight.grad.numpy(),
                     m(T.tensor(x), output_size=[2, 3, 9, 11]).shape))
    for a, b in zip(outs[0][:3], outs[1][:3]):
        np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-12)
    assert outs[1][0].shape == (2, 3, 10, 12) and tuple(outs[1][3]) == (2, 3, 9, 11)


@pytest.mark.parametrize("kw", [{}, {"padding": 1, "padding_mode": "reflect", "stride": 2},
                                {"padding": "same", "padding_mode": "circular", "groups": 2},
                                {"padding": (1, 0, 2), "padding_mode": "replicate"}])
def test_conv3d_module_like_torch(kw):
    torch = pytest.importorskip("torch")
    x = arr(2, 4, 5, 4, 6)
    outs = []
    for T in (torch, sg):
        T.manual_seed(4)
        m = T.nn.Conv3d(4, 6, (3, 2, 3), **kw).double()
        xt = T.tensor(x, requires_grad=True)
        y = m(xt)
        (y * y).sum().backward()
        outs.append((repr(m), y.detach().numpy(), xt.grad.numpy(), m.weight.grad.numpy()))
    assert outs[1][0] == outs[0][0]
    for a, b in zip(outs[0][1:], outs[1][1:]):
        np.testing.assert_allclose(b, a, rtol=1e-11, atol=1e-11)


def test_module_output_size_errors():
    m = sg.nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1)
    x = sg.ones(2, 4, 5, 6)
    with pytest.raises(ValueError, match=r"requested an output size of \(12, 12\), but valid "
                                         r"sizes range from \[9, 11\] to \[10, 12\] \(for an "
                                         r"input of torch.Size\(\[5, 6\]\)\)"):
        m(x, output_size=(12, 12))
    with pytest.raises(ValueError, match=r"ConvTranspose2D: for 4D input, output_size must have "
                                         r"2 or 4 elements \(got 3\)"):
        m(x, output_size=(1, 2, 3))
    with pytest.raises(ValueError, match='Only "zeros" padding mode is supported for '
                                         'ConvTranspose2d'):
        sg.nn.ConvTranspose2d(4, 3, 3, padding_mode="reflect")


def test_compiled_model_matches_eager():
    sg.manual_seed(0)
    model = sg.nn.Sequential(sg.nn.Conv2d(1, 4, 3, stride=2, padding=1), sg.nn.ReLU(),
                             sg.nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1,
                                                   output_padding=1)).double()
    x = sg.tensor(arr(2, 1, 6, 6))
    got = np.asarray(sg.compile(lambda t: model(t))(x))
    np.testing.assert_allclose(got, model(x).detach().numpy(), rtol=1e-12, atol=1e-12)
    assert got.shape == (2, 2, 6, 6)


# ---------------------------------------------------------------- errors (torch's messages)

@pytest.mark.parametrize("call, message", [
    (lambda: F.conv_transpose2d(sg.ones(2, 5, 5, 6), sg.ones(4, 3, 3, 3)),
     r"Given transposed=1, weight of size \[4, 3, 3, 3\], expected input\[2, 5, 5, 6\] to have "
     r"4 channels, but got 5 channels instead"),
    (lambda: F.conv_transpose2d(sg.ones(2, 4, 5, 6), sg.ones(4, 3, 3, 3), groups=3),
     r"Given groups=3, expected weight to be divisible by 3 at dimension 0, but got weight of "
     r"size \[\[4, 3, 3, 3\]\] instead"),
    (lambda: F.conv_transpose2d(sg.ones(2, 4, 5, 6), sg.ones(4, 3, 3, 3), sg.ones(5)),
     r"Given transposed=1, weight of size \[4, 3, 3, 3\], expected bias to be 1-dimensional "
     r"with 3 elements, but got bias of size \[5\] instead"),
    (lambda: F.conv_transpose2d(sg.ones(2, 4, 5, 6), sg.ones(4, 3, 3, 3), output_padding=1),
     r"output padding must be smaller than either stride or dilation, but got "
     r"output_padding_height: 1 output_padding_width: 1 stride_height: 1 stride_width: 1 "
     r"dilation_height: 1 dilation_width: 1"),
    (lambda: F.conv_transpose1d(sg.ones(2, 4, 5), sg.ones(4, 3, 3), output_padding=1),
     r"output_padding_height: 0 output_padding_width: 1 stride_height: 1 stride_width: 1"),
    (lambda: F.conv_transpose3d(sg.ones(1, 4, 3, 3, 3), sg.ones(4, 3, 2, 2, 2),
                                output_padding=1),
     r"output_padding_depth: 1 output_padding_height: 1 output_padding_width: 1 stride_depth"),
    (lambda: F.conv_transpose2d(sg.ones(5, 6), sg.ones(4, 3, 3, 3)),
     r"Expected 3D \(unbatched\) or 4D \(batched\) input to conv_transpose2d, but got input of "
     r"size: \[5, 6\]"),
    (lambda: F.conv_transpose2d(sg.ones(2, 4, 5, 6), sg.ones(4, 3, 3)),
     r"expected stride to be a single integer value or a list of 1 values to match the "
     r"convolution dimensions, but got stride=\[1, 1\]"),
    (lambda: F.conv_transpose2d(sg.ones(2, 4, 5, 6), sg.ones(4, 3, 3, 3), stride=0),
     r"non-positive stride is not supported"),
    (lambda: F.conv_transpose2d(sg.ones(2, 4, 5, 6), sg.ones(4, 3, 3, 3), padding=-1),
     r"negative padding is not supported"),
    (lambda: F.conv_transpose2d(sg.ones(2, 4, 5, 6), sg.ones(4, 3, 3, 3), dilation=0),
     r"dilation should be greater than zero, but got dilation_height: 0, dilation_width: 0"),
    (lambda: F.conv_transpose2d(sg.ones(2, 4, 5, 6), sg.ones(4, 3, 3, 3), padding=(1, 2, 3)),
     r"expected padding to be a single integer value or a list of 2 values"),
    (lambda: F.conv_transpose2d(sg.ones(2, 4, 5, 6), sg.ones(4, 3, 3, 3), groups=0),
     r"non-positive groups is not supported"),
    (lambda: F.conv_transpose2d(sg.ones(2, 4, 5, 6, dtype=sg.float64),
                                sg.ones(4, 3, 3, 3, dtype=sg.float64), padding=5),
     r"Given input size per channel: \(5 x 6\). Calculated output size per channel: "
     r"\(-3 x -2\). Output size is too small"),
])
def test_errors(call, message):
    with pytest.raises(RuntimeError, match=message):
        call()
