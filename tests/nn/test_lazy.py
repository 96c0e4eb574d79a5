"""Lazy modules (``LazyLinear``, ``LazyConv1d/2d/3d``, ``LazyConvTranspose*``,
``LazyBatchNorm1d/2d/3d``, ``LazyInstanceNorm*``), ``UninitializedParameter``/``Buffer``,
``nn.Buffer``, and the ``Fold``/``Unfold`` modules: no random numbers drawn before the first
call, materialization at the first call into the layer they become (the same parameter
objects, torch's initial weights after ``manual_seed``: torch's numbers written here and torch
itself where installed), ``load_state_dict`` into an uninitialized module, reprs and state_dict
keys.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import symgrad as sg
from symgrad import nn
from symgrad.nn.parameter import UninitializedBuffer, UninitializedParameter, is_lazy


def test_lazy_linear_draws_nothing_until_called_then_becomes_linear():
    sg.manual_seed(0)
    m = nn.LazyLinear(2)
    assert repr(m) == "LazyLinear(in_features=0, out_features=2, bias=True)"
    assert isinstance(m.weight, UninitializedParameter) and repr(m.weight) == \
        "<UninitializedParameter>"
    assert m.has_uninitialized_params() and is_lazy(m.bias)
    weight = m.weight
    optimizer = sg.optim.SGD(m.parameters(), lr=0.1)          # holds the placeholders
    y = m(sg.ones(1, 3))
    assert type(m) is nn.Linear and repr(m) == "Linear(in_features=3, out_features=2, bias=True)"
    assert m.weight is weight and type(weight) is nn.Parameter and weight.shape == (2, 3)
    np.testing.assert_array_equal(m.weight.detach().numpy().reshape(-1), np.array(
        [-0.004322517663240433, 0.3097158372402191, -0.4751853346824646, -0.4248946011066437,
         -0.2223689705133438, 0.15482072532176971], np.float32))   # torch 2.13's, seed 0
    np.testing.assert_array_equal(m.bias.detach().numpy(),
                                  np.array([-0.011439144611358643, 0.45777493715286255],
                                           np.float32))
    y.sum().backward()
    optimizer.step()                                            # the optimizer sees them
    np.testing.assert_allclose(m.bias.detach().numpy(), [-0.111439144611358643,
                                                         0.35777493715286255], rtol=1e-6)
    assert m(sg.ones(4, 3)).shape == (4, 2)


LAZY = [("LazyLinear", (3,), {}, (2, 5)), ("LazyLinear", (4,), {"bias": False}, (2, 3, 5)),
        ("LazyConv1d", (4, 3), {"stride": 2}, (2, 3, 9)),
        ("LazyConv2d", (4, 3), {"groups": 2, "padding": 1}, (2, 4, 6, 6)),
        ("LazyConv2d", (4, 3, 1, 0, 1, 1, False), {}, (3, 5, 5)),       # positional bias
        ("LazyConv3d", (2, 2), {}, (1, 2, 3, 3, 3)),
        ("LazyConvTranspose1d", (3, 2), {"stride": 2}, (2, 4, 5)),
        ("LazyConvTranspose2d", (6, 3), {"stride": 2, "groups": 3}, (2, 3, 4, 4)),
        ("LazyBatchNorm1d", (), {}, (4, 3)), ("LazyBatchNorm2d", (), {"affine": False},
                                              (2, 3, 4, 4)),
        ("LazyBatchNorm3d", (), {"momentum": None}, (2, 3, 2, 2, 2)),
        ("LazyInstanceNorm2d", (), {"affine": True, "track_running_stats": True},
         (2, 3, 4, 4))]


@pytest.mark.parametrize("name, args, kw, shape", LAZY)
def test_lazy_modules_like_torch(name, args, kw, shape):
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    outs = []
    for T in (torch, sg):
        T.manual_seed(7)
        m = getattr(T.nn, name)(*args, **kw)
        before = (repr(m), list(m.state_dict()))
        y = m(T.tensor(x))
        state = {k: v.numpy().copy() for k, v in m.state_dict().items()}
        outs.append((before, repr(m), type(m).__name__, state, y.detach().numpy(),
                     float(T.rand(()))))
    (tb, tr, tn, ts, ty, tz), (sb, sr, sn, ss, sy, sz) = outs
    assert (sb, sr, sn, sz) == (tb, tr, tn, tz)
    assert list(ss) == list(ts)
    for k in ts:
        if k in ("running_mean", "running_var"):
            np.testing.assert_allclose(ss[k], ts[k], rtol=1e-6, atol=1e-7)
        else:
            np.testing.assert_array_equal(ss[k], ts[k], err_msg=k)
    np.testing.assert_allclose(sy, ty, rtol=1e-5, atol=1e-6)


def test_lazy_batch_norm_placeholders():
    m = nn.LazyBatchNorm1d()
    assert isinstance(m.running_mean, UninitializedBuffer)
    assert repr(m.running_var) == "<UninitializedBuffer>"
    assert list(m.state_dict()) == ["weight", "bias", "running_mean", "running_var",
                                    "num_batches_tracked"]
    m(sg.randn(5, 4))
    assert type(m) is nn.BatchNorm1d and m.num_features == 4
    assert type(m.running_mean) is sg.Tensor and m.running_mean.shape == (4,)
    assert int(m.num_batches_tracked) == 1
    np.testing.assert_array_equal(m.weight.detach().numpy(), np.ones(4))


def test_load_state_dict_materializes():
    sg.manual_seed(0)
    src = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
    src(sg.randn(4, 3))
    dst = nn.Sequential(nn.LazyLinear(2), nn.LazyBatchNorm1d())
    dst.load_state_dict(src.state_dict())
    for (k, a), (_, b) in zip(src.state_dict().items(), dst.state_dict().items()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=k)
    assert type(dst[0]) is nn.LazyLinear and not dst[0].has_uninitialized_params()
    x = sg.randn(2, 3)
    dst.eval()
    src.eval()
    np.testing.assert_array_equal(dst(x).detach().numpy(), src(x).detach().numpy())
    assert type(dst[0]) is nn.Linear                     # the first call still converts


def test_copies_of_an_uninitialized_module_stay_lazy():
    m = nn.Sequential(nn.LazyLinear(2), nn.LazyBatchNorm1d())
    for other in (copy.deepcopy(m), pickle.loads(pickle.dumps(m))):
        assert is_lazy(other[0].weight) and is_lazy(other[1].running_mean)
        assert other(sg.ones(3, 4)).shape == (3, 2)
        assert type(other[0]) is nn.Linear and other[0].weight.shape == (2, 4)
    assert m[0].has_uninitialized_params() and type(m[0]) is nn.LazyLinear


def test_lazy_errors():
    with pytest.raises(RuntimeError, match=r"Expected 3D \(unbatched\) or 4D \(batched\) input "
                                           r"to LazyConv2d, but got input of size: "
                                           r"torch.Size\(\[2, 3\]\)"):
        nn.LazyConv2d(4, 3)(sg.ones(2, 3))
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        nn.LazyConv1d(4, 3, groups=2)(sg.ones(1, 3, 5))
    m = nn.LazyModuleMixin
    assert m.cls_to_become is None


def test_uninitialized_parameter_materialize():
    p = UninitializedParameter(requires_grad=False, dtype=sg.float64)
    p.materialize((2, 3))
    assert type(p) is nn.Parameter and p.shape == (2, 3) and p.dtype is sg.float64
    assert not p.requires_grad
    b = UninitializedBuffer()
    b.materialize(4, dtype=sg.float64)
    assert type(b) is sg.Tensor and b.shape == (4,) and b.dtype is sg.float64


def test_compiled_after_materialization():
    sg.manual_seed(0)
    model = nn.Sequential(nn.LazyConv2d(3, 3, padding=1), nn.ReLU(), nn.LazyBatchNorm2d(),
                          nn.Flatten(), nn.LazyLinear(2))
    x = sg.randn(2, 1, 4, 4)
    model(x)
    model.eval()
    np.testing.assert_allclose(np.asarray(sg.compile(lambda t: model(t))(x)),
                               model(x).detach().numpy(), rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------- nn.Buffer

def test_buffer_registers_with_its_persistence():
    m = nn.Module()
    m.a = nn.Buffer(sg.ones(2))
    m.b = nn.Buffer(sg.zeros(1), persistent=False)
    assert dict(m.named_buffers()).keys() == {"a", "b"} and list(m.state_dict()) == ["a"]
    m.a = nn.Buffer(sg.ones(3), persistent=False)            # re-registered: not persistent
    assert list(m.state_dict()) == [] and m.a.shape == (3,)
    t = sg.ones(2)
    buf = nn.Buffer(t)
    t.add_(1.0)                                               # the same data, as detach
    assert buf.tolist() == [2.0, 2.0] and not buf.requires_grad
    assert nn.Buffer(sg.ones(1, requires_grad=True)).requires_grad
    assert nn.Buffer().shape == (0,)
    m.c = 5
    with pytest.raises(KeyError, match="attribute 'c' already exists"):
        m.c = nn.Buffer(sg.ones(1))
    torch = pytest.importorskip("torch")
    tm = torch.nn.Module()
    tm.a = torch.nn.Buffer(torch.ones(2))
    tm.b = torch.nn.Buffer(torch.zeros(1), persistent=False)
    assert list(tm.state_dict()) == ["a"]


# ---------------------------------------------------------------- Fold / Unfold modules

def test_fold_unfold_modules():
    x = sg.randn(2, 3, 4, 5)
    u = nn.Unfold(2, padding=1, stride=(1, 2))
    assert repr(u) == "Unfold(kernel_size=2, dilation=1, padding=1, stride=(1, 2))"
    cols = u(x)
    np.testing.assert_array_equal(cols.numpy(), sg.nn.functional.unfold(
        x, 2, padding=1, stride=(1, 2)).numpy())
    f = nn.Fold((4, 5), 2, padding=1, stride=(1, 2))
    assert repr(f) == ("Fold(output_size=(4, 5), kernel_size=2, dilation=1, padding=1, "
                       "stride=(1, 2))")
    np.testing.assert_array_equal(f(cols).numpy(), sg.nn.functional.fold(
        cols, (4, 5), 2, padding=1, stride=(1, 2)).numpy())
    assert cols.shape == (2, 12, 15) and f(cols).shape == (2, 3, 4, 5)
    torch = pytest.importorskip("torch")
    assert repr(torch.nn.Unfold(2, padding=1, stride=(1, 2))) == repr(u)
    assert repr(torch.nn.Fold((4, 5), 2, padding=1, stride=(1, 2))) == repr(f)
