"""``F.group_norm`` / ``nn.GroupNorm`` against a NumPy implementation of the formula, values
torch 2.13 printed (stored below), central differences and torch; ``nn.ParameterDict``'s
behaviour and repr (torch's, stored and live)."""

from collections import OrderedDict

import numpy as np
import pytest

import symgrad as sg
from symgrad import nn
from symgrad.nn import functional as F
from references import central_differences

# torch 2.13: x = sin(arange(60.) * 0.7).reshape(2, 6, 5) * 3 + 1, weight cos(arange(6)),
# bias sin(arange(6)), 3 groups, loss = sum(y * cos(arange(60)).reshape(2, 6, 5)), float64.
GN_OUT_ROW = [-0.38964670256, 0.071192117698, 0.122545100936, -0.259739863275, -0.8958681829]
GN_X_GRAD_ROW = [-0.001138444366, 0.065277570708, -0.014732484234, -0.178642043608,
                 -0.240803871447]
GN_W_GRAD = [-0.565333725683, 0.608852337693, -0.271480290114, 1.085691057362,
             -1.297222761014, -0.775798691551]
PD_REPR = ("ParameterDict(\n    (a): Parameter containing: [torch.DoubleTensor of size 4]\n"
           "    (b): Parameter containing: [torch.FloatTensor of size 2x3]\n"
           "    (c): Object of type: int\n    (d): Object of type: NoneType\n)")


def np_group_norm(x, groups, w=None, b=None, eps=1e-5):
    n, c = x.shape[:2]
    g = x.reshape(n, groups, -1)
    y = ((g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + eps))
    y = y.reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    if w is not None:
        y = y * w.reshape(shape)
    if b is not None:
        y = y + b.reshape(shape)
    return y


def test_group_norm_gives_torchs_stored_values():
    x = (sg.sin(sg.arange(60, dtype=sg.float64) * 0.7).reshape(2, 6, 5) * 3 + 1) \
        .requires_grad_()
    w = sg.cos(sg.arange(6, dtype=sg.float64)).requires_grad_()
    b = sg.sin(sg.arange(6, dtype=sg.float64)).requires_grad_()
    y = F.group_norm(x, 3, w, b)
    assert type(y.grad_fn).__name__ == "NativeGroupNormBackward0"
    (y * sg.cos(sg.arange(60, dtype=sg.float64)).reshape(2, 6, 5)).sum().backward()
    np.testing.assert_allclose(y.detach().numpy()[1, 4], GN_OUT_ROW, rtol=0, atol=2e-12)
    np.testing.assert_allclose(x.grad.numpy()[0, 1], GN_X_GRAD_ROW, rtol=0, atol=2e-12)
    np.testing.assert_allclose(w.grad.numpy(), GN_W_GRAD, rtol=0, atol=2e-12)


@pytest.mark.parametrize("shape, groups", [((2, 6, 5), 3), ((3, 4, 2, 3), 2), ((2, 4), 4),
                                           ((2, 6), 1)])
@pytest.mark.parametrize("affine", ["both", "weight", "none"])
def test_group_norm_matches_numpy_and_central_differences(shape, groups, affine):
    r = np.random.default_rng(2)
    x0 = r.standard_normal(shape) * 2 + 0.5
    w0 = r.standard_normal(shape[1]) if affine != "none" else None
    b0 = r.standard_normal(shape[1]) if affine == "both" else None
    w, b = (None if a is None else sg.tensor(a) for a in (w0, b0))
    got = F.group_norm(sg.tensor(x0), groups, w, b)
    np.testing.assert_allclose(got.numpy(), np_group_norm(x0, groups, w0, b0), rtol=1e-10,
                               atol=1e-12)
    if x0.size // shape[0] // groups == 1:
        return            # one element a group: the output is the bias, flat in x
    cot = sg.tensor(np.cos(np.arange(x0.size)).reshape(shape))

    def loss(t):
        return (F.group_norm(t, groups, w, b) * cot).sum()
    x = sg.tensor(x0, requires_grad=True)
    loss(x).backward()
    np.testing.assert_allclose(x.grad.numpy(), central_differences(loss, x0), rtol=1e-6,
                               atol=1e-8)
    if w0 is not None:
        wt = sg.tensor(w0, requires_grad=True)
        (F.group_norm(sg.tensor(x0), groups, wt, b) * cot).sum().backward()
        fd = central_differences(lambda t: (F.group_norm(sg.tensor(x0), groups, t, b)
                                            * cot).sum(), w0)
        np.testing.assert_allclose(wt.grad.numpy(), fd, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_group_norm_module_like_torch(dtype):
    torch = pytest.importorskip("torch")
    r = np.random.default_rng(4)
    x = (r.standard_normal((3, 6, 4, 2)) * 3 + 2).astype(dtype)
    out = []
    for T in (torch, sg):
        m = T.nn.GroupNorm(3, 6).to(getattr(T, dtype))
        with T.no_grad():
            m.weight.copy_(T.tensor(np.linspace(-1, 2, 6).astype(dtype)))
            m.bias.copy_(T.tensor(np.linspace(1, -1, 6).astype(dtype)))
        xt = T.tensor(x, requires_grad=True)
        y = m(xt)
        (y * y * T.tensor(np.sin(np.arange(x.size)).reshape(x.shape).astype(dtype))) \
            .sum().backward()
        out.append([repr(m), list(m.state_dict()), y.detach().numpy(), xt.grad.numpy(),
                    m.weight.grad.numpy(), m.bias.grad.numpy()])
    want, got = out
    assert got[:2] == want[:2]
    tol = dict(rtol=2e-5, atol=2e-5) if dtype == "float32" else dict(rtol=1e-11, atol=1e-12)
    for a, b in zip(got[2:], want[2:]):
        np.testing.assert_allclose(a, b, **tol)


def test_group_norm_errors_and_repr():
    assert repr(nn.GroupNorm(2, 4)) == "GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)"
    assert list(nn.GroupNorm(2, 4, affine=False).state_dict()) == []
    assert list(nn.GroupNorm(2, 4, bias=False).state_dict()) == ["weight"]
    with pytest.raises(ValueError, match=r"num_channels \(4\) must be divisible by "
                                         r"num_groups \(3\)"):
        nn.GroupNorm(3, 4)
    with pytest.raises(RuntimeError, match=r"Expected number of channels in input to be "
                                           r"divisible by num_groups, but got input of shape "
                                           r"\[2, 4, 3\] and num_groups=3"):
        F.group_norm(sg.ones(2, 4, 3), 3)
    with pytest.raises(RuntimeError, match=r"Expected weight to be a vector of size equal to "
                                           r"the number of channels in input, but got weight "
                                           r"of shape \[3\] and input of shape \[2, 4, 3\]"):
        F.group_norm(sg.ones(2, 4, 3), 2, sg.ones(3))


def test_parameter_dict_behaves_as_torchs():
    pd = nn.ParameterDict({"b": nn.Parameter(sg.zeros(2, 3)), "a": sg.zeros(4).double(),
                           "c": 3, "d": None})
    assert repr(pd) == PD_REPR
    assert list(pd) == ["a", "b", "c", "d"] and len(pd) == 4 and "a" in pd
    assert isinstance(pd["a"], nn.Parameter) and pd["c"] == 3 and pd["d"] is None
    assert list(pd.state_dict()) == ["a", "b"]
    assert [k for k, _ in pd.named_parameters()] == ["a", "b"]
    pd["e"] = sg.ones(1)
    assert list(pd.keys())[-1] == "e" and isinstance(pd["e"], nn.Parameter)
    assert pd.pop("e").shape == (1,) and "e" not in pd
    assert pd.popitem()[0] == "d" and pd.get("zz", 7) == 7
    assert pd.setdefault("f", sg.ones(2)).shape == (2,)
    ordered = nn.ParameterDict(OrderedDict([("z", sg.ones(1)), ("y", sg.ones(1))]))
    assert list(ordered) == ["z", "y"]
    assert list(ordered | nn.ParameterDict({"x": sg.ones(1)})) == ["z", "y", "x"]
    assert list(nn.ParameterDict([("q", sg.ones(1)), ("p", sg.ones(1))])) == ["q", "p"]
    copied = pd.copy()
    assert copied["a"] is pd["a"]
    pd.clear()
    assert len(pd) == 0 and repr(pd) == "ParameterDict()"
    with pytest.raises(TypeError, match="Index given to ParameterDict cannot be used as a key"):
        pd[1] = sg.ones(1)
    with pytest.raises(ValueError, match="ParameterDict update sequence element #0 has length "
                                         "3; 2 is required"):
        pd.update([("a", 1, 2)])
    with pytest.raises(TypeError, match="ParametersDict.update should be called with an "
                                        "iterable"):
        pd.update(5)
    with pytest.raises(RuntimeError, match="ParameterDict should not be called."):
        pd(sg.ones(1))


def test_parameter_dict_in_a_module_like_torch():
    torch = pytest.importorskip("torch")
    reprs, keys = [], []
    for T in (torch, sg):
        class Net(T.nn.Module):
            def __init__(self):
                super().__init__()
                self.p = T.nn.ParameterDict({"w": T.nn.Parameter(T.ones(2, 2)),
                                             "s": T.zeros(3, dtype=T.float64)})
                self.lin = T.nn.Linear(2, 1)
        net = Net()
        reprs.append(repr(net))
        keys.append(list(net.state_dict()))
    assert reprs[0] == reprs[1] and keys[0] == keys[1]
