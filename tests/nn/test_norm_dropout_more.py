"""``instance_norm``/``InstanceNorm1d/2d/3d``, ``rms_norm``/``RMSNorm``,
``local_response_norm``/``LocalResponseNorm``, ``BatchNorm3d``; the dropout variants
``dropout1d/2d/3d``, ``alpha_dropout``, ``feature_alpha_dropout`` and their modules. Values
against NumPy formulas written here and against torch where it is installed (the dropout
masks after ``manual_seed`` bit for bit, and torch's numbers written here for a torch-free
check); gradients against central differences, eagerly and compiled; running statistics,
reprs and torch's errors.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F
from references import central_differences, gradient

R = np.random.default_rng(17)


def arr(*shape, dtype=np.float64):
    return R.standard_normal(shape).astype(dtype)


# ---------------------------------------------------------------- NumPy oracles

def np_instance_norm(x, w=None, b=None, eps=1e-5):
    axes = tuple(range(2, x.ndim))
    mu = x.mean(axes, keepdims=True)
    var = ((x - mu) ** 2).mean(axes, keepdims=True)
    y = (x - mu) / np.sqrt(var + eps)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    y = y if w is None else y * w.reshape(shape)
    return y if b is None else y + b.reshape(shape)


def np_lrn(x, size, alpha=1e-4, beta=0.75, k=1.0):
    c = x.shape[1]
    out = np.empty_like(x)
    for ch in range(c):
        lo, hi = max(ch - size // 2, 0), min(ch + (size - 1) // 2, c - 1)
        out[:, ch] = x[:, ch] / (k + alpha * (x[:, lo:hi + 1] ** 2).sum(1) / size) ** beta
    return out


# ---------------------------------------------------------------- instance norm

@pytest.mark.parametrize("shape", [(2, 3, 5), (3, 4, 5, 6), (2, 2, 3, 3, 4)])
def test_instance_norm_matches_numpy_and_torch(shape):
    x, w, b = arr(*shape), arr(shape[1]), arr(shape[1])
    got = F.instance_norm(sg.tensor(x), weight=sg.tensor(w), bias=sg.tensor(b))
    np.testing.assert_allclose(got.numpy(), np_instance_norm(x, w, b), rtol=1e-10, atol=1e-12)
    torch = pytest.importorskip("torch")
    want = torch.nn.functional.instance_norm(torch.tensor(x), weight=torch.tensor(w),
                                             bias=torch.tensor(b))
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12, atol=1e-12)


def test_instance_norm_running_statistics():
    """Each (sample, channel) plane's moments move the running ones (the variance unbiased),
    averaged over the samples; without input statistics the running ones are used."""
    x = arr(3, 2, 4, 5)
    rm, rv = np.array([0.5, -1.0]), np.array([2.0, 0.5])
    m_s, v_s = sg.tensor(rm.copy()), sg.tensor(rv.copy())
    F.instance_norm(sg.tensor(x), m_s, v_s, momentum=0.3)
    flat = x.reshape(3, 2, -1)
    want_m = (0.7 * rm + 0.3 * flat.mean(-1)).mean(0)
    want_v = (0.7 * rv + 0.3 * flat.var(-1, ddof=1)).mean(0)
    np.testing.assert_allclose(m_s.numpy(), want_m, rtol=1e-12)
    np.testing.assert_allclose(v_s.numpy(), want_v, rtol=1e-12)
    used = F.instance_norm(sg.tensor(x), m_s, v_s, use_input_stats=False).numpy()
    np.testing.assert_allclose(
        used, (x - want_m.reshape(1, 2, 1, 1)) / np.sqrt(want_v.reshape(1, 2, 1, 1) + 1e-5),
        rtol=1e-12)
    torch = pytest.importorskip("torch")
    m_t, v_t = torch.tensor(rm.copy()), torch.tensor(rv.copy())
    torch.nn.functional.instance_norm(torch.tensor(x), m_t, v_t, momentum=0.3)
    np.testing.assert_allclose(m_s.numpy(), m_t.numpy(), rtol=1e-14)
    np.testing.assert_allclose(v_s.numpy(), v_t.numpy(), rtol=1e-14)


def test_instance_norm_modules_like_torch():
    torch = pytest.importorskip("torch")
    x = arr(2, 3, 4, 5)
    for name, kw, xx in [("InstanceNorm2d", {"affine": True, "track_running_stats": True}, x),
                         ("InstanceNorm1d", {"track_running_stats": True}, x[:, :, 0]),
                         ("InstanceNorm1d", {"affine": True}, x[0, :, 0]),      # unbatched
                         ("InstanceNorm3d", {"affine": True}, x[:, :, None]),
                         ("InstanceNorm2d", {}, x[0])]:
        outs = []
        for T in (torch, sg):
            T.manual_seed(0)
            m = getattr(T.nn, name)(3, **kw).double()
            xt = T.tensor(xx, requires_grad=True)
            y = m(xt)
            (y * T.tensor(np.cos(np.arange(y.numel())).reshape(y.shape))).sum().backward()
            state = {k: v.numpy().copy() for k, v in m.state_dict().items()}
            m.eval()
            outs.append((repr(m), y.detach().numpy(), xt.grad.numpy(), state,
                         m(T.tensor(xx)).detach().numpy()))
        assert outs[1][0] == outs[0][0]
        for a, b in zip(outs[0][1:], outs[1][1:]):
            if isinstance(a, dict):
                assert list(a) == list(b)
                for k in a:
                    np.testing.assert_allclose(b[k], a[k], rtol=1e-12, err_msg=k)
            else:
                np.testing.assert_allclose(b, a, rtol=1e-10, atol=1e-12)


def test_instance_norm_module_checks():
    with pytest.raises(ValueError, match=r"expected 3D or 4D input \(got 2D input\)"):
        sg.nn.InstanceNorm2d(3)(sg.ones(3, 4))
    with pytest.raises(ValueError, match=r"expected input's size at dim=1 to match num_features "
                                         r"\(4\), but got: 3."):
        sg.nn.InstanceNorm1d(4, affine=True)(sg.ones(2, 3, 5))
    with pytest.warns(UserWarning, match="input's size at dim=1 does not match num_features"):
        sg.nn.InstanceNorm1d(4)(sg.randn(2, 3, 5))
    m = sg.nn.InstanceNorm1d(3, track_running_stats=True)
    m(sg.randn(2, 3, 5))
    assert int(m.num_batches_tracked) == 0          # torch's instance norm does not count
    assert repr(m) == ("InstanceNorm1d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, "
                       "track_running_stats=True)")


def test_instance_norm_inside_compile():
    """Training with running statistics made outside the compiled function is refused (the
    buffers stay as they were); evaluation reads them; without statistics it just works."""
    x = sg.tensor(arr(2, 3, 5))
    m = sg.nn.InstanceNorm1d(3, track_running_stats=True).double()
    with pytest.raises(sg.TracerValueError, match="running statistic created outside the "
                                                  "compiled function"):
        sg.compile(lambda t: m(t))(x)
    np.testing.assert_array_equal(m.running_mean.numpy(), np.zeros(3))
    m(x)
    m.eval()
    np.testing.assert_allclose(np.asarray(sg.compile(lambda t: m(t))(x)), m(x).numpy(),
                               rtol=1e-12, atol=1e-12)
    plain = sg.nn.InstanceNorm1d(3, affine=True).double()
    np.testing.assert_allclose(np.asarray(sg.compile(lambda t: plain(t))(x)),
                               plain(x).detach().numpy(), rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------- rms norm, lrn, bn3d

@pytest.mark.parametrize("normalized, eps", [((6,), None), ((5, 6), 1e-3)])
def test_rms_norm_matches_numpy_and_torch(normalized, eps):
    x, w = arr(3, 4, 5, 6), arr(*normalized)
    axes = tuple(range(x.ndim - len(normalized), x.ndim))
    e = np.finfo(np.float64).eps if eps is None else eps
    want = x / np.sqrt((x * x).mean(axes, keepdims=True) + e) * w
    got = F.rms_norm(sg.tensor(x), normalized, sg.tensor(w), eps)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    x32 = x.astype(np.float32)
    no_w = F.rms_norm(sg.tensor(x32), list(normalized), eps=eps).numpy()
    e32 = np.finfo(np.float32).eps if eps is None else eps       # the dtype's epsilon
    np.testing.assert_allclose(
        no_w, x32 / np.sqrt((x32 * x32).mean(axes, keepdims=True) + e32), rtol=1e-6)
    torch = pytest.importorskip("torch")
    want = torch.nn.functional.rms_norm(torch.tensor(x), normalized, torch.tensor(w), eps)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-14)


@pytest.mark.parametrize("size, shape", [(2, (2, 5, 4)), (3, (2, 5, 4, 4)), (4, (1, 6, 2, 2, 3)),
                                         (5, (2, 3, 4))])
def test_local_response_norm_matches_numpy_and_torch(size, shape):
    x = arr(*shape)
    got = F.local_response_norm(sg.tensor(x), size, alpha=0.1, beta=0.6, k=2.0)
    np.testing.assert_allclose(got.numpy(), np_lrn(x, size, 0.1, 0.6, 2.0), rtol=1e-12)
    torch = pytest.importorskip("torch")
    want = torch.nn.functional.local_response_norm(torch.tensor(x), size, 0.1, 0.6, 2.0)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-14)


def test_norm_module_reprs_and_init():
    assert repr(sg.nn.RMSNorm(4)) == "RMSNorm((4,), eps=None, elementwise_affine=True)"
    m = sg.nn.RMSNorm([3, 4], eps=1e-3, elementwise_affine=False)
    assert repr(m) == "RMSNorm((3, 4), eps=0.001, elementwise_affine=False)"
    assert m.weight is None and list(sg.nn.RMSNorm(4).state_dict()) == ["weight"]
    np.testing.assert_array_equal(sg.nn.RMSNorm((2, 3)).weight.detach().numpy(), np.ones((2, 3)))
    assert repr(sg.nn.LocalResponseNorm(3)) == \
        "LocalResponseNorm(3, alpha=0.0001, beta=0.75, k=1.0)"
    bn = sg.nn.BatchNorm3d(3)
    assert repr(bn) == ("BatchNorm3d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, "
                        "track_running_stats=True)")
    with pytest.raises(ValueError, match=r"expected 5D input \(got 4D input\)"):
        bn(sg.ones(2, 3, 4, 4))


def test_batch_norm_3d_matches_numpy_and_torch():
    x = arr(2, 3, 2, 3, 4)
    m = sg.nn.BatchNorm3d(3).double()
    got = m(sg.tensor(x)).detach().numpy()
    mu = x.mean((0, 2, 3, 4), keepdims=True)
    np.testing.assert_allclose(got, (x - mu) / np.sqrt(x.var((0, 2, 3, 4), keepdims=True) + 1e-5),
                               rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(m.running_mean.numpy(), 0.1 * mu.reshape(-1), rtol=1e-12)
    torch = pytest.importorskip("torch")
    t = torch.nn.BatchNorm3d(3).double()
    np.testing.assert_allclose(got, t(torch.tensor(x)).detach().numpy(), rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------- dropout variants

def test_feature_dropout_drops_whole_channels_with_torch_numbers():
    """After manual_seed(0), dropout2d of ones(2, 5, 1, 1) keeps the channels torch keeps
    (torch 2.13's numbers, written here), scaled by 1 / (1 - p)."""
    sg.manual_seed(0)
    got = F.dropout2d(sg.ones(2, 5, 1, 1), 0.5).numpy().reshape(-1)
    np.testing.assert_array_equal(got, [0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0, 2.0, 0.0, 2.0])
    sg.manual_seed(0)
    x = arr(2, 5, 3, 4)
    y = F.dropout2d(sg.tensor(x), 0.5).numpy()
    kept = np.array([0, 0, 1, 0, 0, 0, 1, 1, 0, 1], bool).reshape(2, 5)
    np.testing.assert_array_equal(y[kept], 2 * x[kept])
    assert not y[~kept].any()


def test_alpha_dropout_with_torch_numbers():
    """SELU's dropout of arange(6) after manual_seed(0), p = 0.5 (torch 2.13's numbers)."""
    sg.manual_seed(0)
    got = F.alpha_dropout(sg.arange(6.0), 0.5, True).numpy()
    np.testing.assert_array_equal(got, np.array([-0.7791939377784729, -0.7791939377784729,
                                                 2.5520036220550537, -0.7791939377784729,
                                                 -0.7791939377784729, -0.7791939377784729],
                                                np.float32))
    alpha, p = 1.7580993408473766, 0.5                 # the formula: a x + b, kept or not
    a = 1 / math.sqrt((alpha * alpha * p + 1) * (1 - p))
    np.testing.assert_allclose(got[2], a * 2 + alpha * a * p, rtol=1e-6)
    np.testing.assert_allclose(got[0], -alpha * a + alpha * a * p, rtol=1e-6)


def test_alpha_dropout_keeps_mean_and_variance():
    """A dropped element becomes a' = -alpha a + alpha a p, a kept one a x + alpha a p; zero
    mean and unit variance stay; the feature variant drops whole channels."""
    alpha, p = 1.7580993408473766, 0.3
    a = 1 / math.sqrt((alpha * alpha * p + 1) * (1 - p))
    sg.manual_seed(3)
    x = sg.randn(200000, dtype=sg.float64)
    y = F.alpha_dropout(x, p, True).numpy()
    assert abs(y.mean()) < 0.01 and abs(y.var() - 1) < 0.02
    dropped = y == -alpha * a + alpha * a * p
    assert abs(dropped.mean() - p) < 0.01
    np.testing.assert_allclose(y[~dropped], a * x.numpy()[~dropped] + alpha * a * p,
                               rtol=1e-12)
    xz = sg.randn(400, 50, 3, dtype=sg.float64)
    z = F.feature_alpha_dropout(xz, p, True).numpy()
    gone = (z == -alpha * a + alpha * a * p).all(-1)         # per (sample, channel)
    assert abs(gone.mean() - p) < 0.02
    np.testing.assert_allclose(z[~gone], a * xz.numpy()[~gone] + alpha * a * p, rtol=1e-12)
    assert F.alpha_dropout(x, p) is x                          # training=False by default


DROPOUTS = [("dropout1d", (3, 4, 5), {}), ("dropout1d", (4, 5), {"p": 0.2}),
            ("dropout2d", (2, 3, 4, 5), {"p": 0.3}), ("dropout2d", (2, 3, 4), {}),
            ("dropout3d", (2, 3, 2, 2, 2), {}), ("dropout3d", (3, 2, 2, 2), {"p": 0.7}),
            ("alpha_dropout", (4, 6), {"p": 0.2, "training": True}),
            ("feature_alpha_dropout", (2, 5, 3), {"p": 0.4, "training": True}),
            ("alpha_dropout", (4, 6), {"p": 1.0, "training": True})]


@pytest.mark.parametrize("name, shape, kw", DROPOUTS)
def test_dropouts_match_torch_after_manual_seed(name, shape, kw):
    torch = pytest.importorskip("torch")
    for dt in (np.float32, np.float64):
        x = arr(*shape, dtype=dt)
        outs = []
        for T in (torch, sg):
            T.manual_seed(5)
            xt = T.tensor(x, requires_grad=True)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                y = getattr(T.nn.functional, name)(xt, **kw)
            y.sum().backward()
            outs.append((y.detach().numpy(), xt.grad.numpy(), y.grad_fn.name(),
                         float(T.rand(()))))
        for a, b in zip(outs[0][:2], outs[1][:2]):
            np.testing.assert_array_equal(b, a)
        assert outs[1][2:] == outs[0][2:]


def test_dropout_inplace_and_eval():
    x = sg.tensor(arr(2, 3, 4))
    sg.manual_seed(1)
    want = F.dropout1d(x, 0.5).numpy()
    y = x.clone()
    sg.manual_seed(1)
    assert F.dropout1d(y, 0.5, inplace=True) is y
    np.testing.assert_array_equal(y.numpy(), want)
    x4 = x.unsqueeze(0)
    assert sg.nn.Dropout2d(0.5).eval()(x4) is x4               # evaluation: the input itself
    with pytest.warns(UserWarning, match="Received a 3D input to dropout2d"):
        F.dropout2d(x)
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but "
                                         "got 1.5"):
        sg.nn.AlphaDropout(1.5)
    with pytest.raises(RuntimeError, match=r"dropout1d: Expected 2D or 3D input, but received a "
                                           r"4D input"):
        F.dropout1d(sg.ones(1, 2, 3, 4))


def test_dropout_modules():
    for name in ("Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"):
        assert repr(getattr(sg.nn, name)(0.25)) == f"{name}(p=0.25, inplace=False)"
    torch = pytest.importorskip("torch")
    x = arr(2, 4, 3, 3, dtype=np.float32)
    for name in ("Dropout2d", "AlphaDropout", "FeatureAlphaDropout", "Dropout3d"):
        torch.manual_seed(2)
        sg.manual_seed(2)
        np.testing.assert_array_equal(getattr(sg.nn, name)(0.4)(sg.tensor(x)).numpy(),
                                      getattr(torch.nn, name)(0.4)(torch.tensor(x)).numpy())


def test_training_dropout_refuses_to_compile():
    with pytest.raises(RuntimeError, match="dropout in training mode"):
        sg.compile(lambda t: F.dropout2d(t, 0.5))(sg.ones(2, 3, 4, 4))
    out = sg.compile(lambda t: F.alpha_dropout(t, 0.5))(sg.ones(2, 3))   # eval: identity
    np.testing.assert_array_equal(np.asarray(out), np.ones((2, 3)))


# ---------------------------------------------------------------- gradients

GRADIENTS = {
    "instance_norm": (lambda t: F.instance_norm(t, weight=sg.tensor([0.5, -2.0]),
                                                bias=sg.tensor([0.1, 0.2])), (2, 2, 5)),
    "rms_norm": (lambda t: F.rms_norm(t, (4,), sg.tensor([1.0, -0.5, 2.0, 0.3])), (2, 3, 4)),
    "rms_norm_2d": (lambda t: F.rms_norm(t, (3, 4), eps=1e-2), (2, 3, 4)),
    "lrn": (lambda t: F.local_response_norm(t, 3, alpha=0.5, beta=0.7), (2, 4, 3)),
    "lrn_4d": (lambda t: F.local_response_norm(t, 2, alpha=0.3, k=1.5), (1, 3, 2, 2)),
}


@pytest.mark.parametrize("how", ["eager", "compiled"])
@pytest.mark.parametrize("name", sorted(GRADIENTS))
def test_gradients_match_central_differences(name, how):
    fn, shape = GRADIENTS[name]

    def loss(t):
        y = fn(t)
        return (y * sg.tensor(np.cos(np.arange(y.numel())).reshape(y.shape))).sum()

    x0 = R.standard_normal(shape)
    np.testing.assert_allclose(gradient(loss, x0, how), central_differences(loss, x0),
                               rtol=1e-6, atol=1e-8)


def test_grad_fn_names():
    x = sg.tensor(arr(2, 3, 4), requires_grad=True)
    assert F.instance_norm(x).grad_fn.name() == "ViewBackward0"
    assert F.rms_norm(x, (4,)).grad_fn.name() == "MulBackward0"
    assert F.local_response_norm(x, 2).grad_fn.name() == "DivBackward0"


@pytest.mark.parametrize("call, kind, message", [
    (lambda: F.instance_norm(sg.ones(2, 3, 1)), ValueError,
     r"Expected more than 1 spatial element when training, got input size "
     r"torch.Size\(\[2, 3, 1\]\)"),
    (lambda: F.instance_norm(sg.ones(2, 3, 5), use_input_stats=False), RuntimeError,
     r"Expected running_mean and running_var to be defined when use_input_stats is false"),
    (lambda: F.instance_norm(sg.ones(2, 3, 5), sg.zeros(4), sg.ones(4)), RuntimeError,
     r"running_mean should contain 6 elements not 8"),
    (lambda: F.rms_norm(sg.ones(2, 3, 5), (4,)), RuntimeError,
     r"Given normalized_shape=\[4\], expected input with shape \[\*4\], but got input of "
     r"size\[2, 3, 5\]"),
    (lambda: F.rms_norm(sg.ones(2, 3, 5), (5,), sg.ones(4)), RuntimeError,
     r"Expected weight to be of same shape as normalized_shape, but got weight of shape \[4\] "
     r"and normalized_shape = \[5\]"),
    (lambda: F.rms_norm(sg.ones(2, 3, 5), 5), TypeError,
     r"rms_norm\(\): argument 'normalized_shape' \(position 2\) must be tuple of ints, not int"),
    (lambda: F.local_response_norm(sg.ones(2, 3), 2), ValueError,
     r"Expected 3D or higher dimensionality"),
])
def test_errors(call, kind, message):
    with pytest.raises(kind, match=message):
        call()
