"""torch.nn's Module machinery and layers: Parameter, registration and traversal, modes,
hooks, containers, reprs, dtype conversion; each layer's forward and gradients against NumPy
formulas and (where torch is installed) against torch with the same weights; modules inside
``@symgrad.compile``. Expected values come from NumPy formulas or from torch itself, never
from symgrad.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import symgrad as sg
from symgrad import nn
from symgrad.errors import TracerValueError
from symgrad.nn.utils.stateless import functional_call

R = np.random.default_rng(7)


@pytest.fixture(autouse=True)
def _seeded():
    """Every test's module weights are the same from run to run."""
    sg.manual_seed(1234)


def arr(*shape, lo=-1.0, hi=1.0, dtype=np.float32):
    return R.uniform(lo, hi, shape).astype(dtype)


def copy_weights(src, dst):
    """Load the parameters and buffers of torch module ``src`` into symgrad module ``dst``
    (torch tensors are array-likes: load_state_dict takes them)."""
    dst.load_state_dict({k: v.detach().numpy() for k, v in src.state_dict().items()})


# ---------------------------------------------------------------- Parameter

def test_parameter_is_a_leaf_tensor_sharing_its_data():
    t = sg.tensor([1.0, 2.0])
    p = nn.Parameter(t)
    assert isinstance(p, sg.Tensor) and p.is_leaf and p.requires_grad and p.grad_fn is None
    t.add_(1.0)                                   # the same data, as torch's shares storage
    assert p.tolist() == [2.0, 3.0]
    assert not nn.Parameter(t, requires_grad=False).requires_grad
    assert nn.Parameter().shape == (0,)
    with pytest.raises(TypeError, match="must be Tensor"):
        nn.Parameter([1.0])
    with pytest.raises(RuntimeError, match="floating point"):
        nn.Parameter(sg.tensor([1, 2]))


def test_parameter_in_ops_gives_plain_tensors_and_gradients():
    w = nn.Parameter(sg.tensor([1.0, -2.0, 3.0]))
    y = (w * w + 1.0).sum()
    assert type(y) is sg.Tensor and y.grad_fn.name() == "SumBackward0"
    y.backward()
    np.testing.assert_array_equal(w.grad.numpy(), [2.0, -4.0, 6.0])     # d/dw sum(w^2) = 2w
    assert type(w.grad) is sg.Tensor


def test_parameter_repr_copy_and_pickle():
    p = nn.Parameter(sg.tensor([[1.5, 2.0]], dtype=sg.float64))
    assert repr(p) == ("Parameter containing:\n"
                       "tensor([[1.5000, 2.0000]], dtype=torch.float64, requires_grad=True)")
    for q in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert type(q) is nn.Parameter and q.requires_grad and q.tolist() == p.tolist()
        assert q.dtype is sg.float64
    q = copy.deepcopy(p)
    with sg.no_grad():
        q.mul_(2.0)
    assert p.tolist() == [[1.5, 2.0]]                          # a copy, not the same data


def test_parameter_repr_matches_torch():
    torch = pytest.importorskip("torch")
    for data, rg in (([1.5, 2.0], True), ([[1.0, -3.25]], False)):
        assert repr(nn.Parameter(sg.tensor(data), rg)) == \
            repr(torch.nn.Parameter(torch.tensor(data), rg))


# ---------------------------------------------------------------- registration

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 4)
        self.scale = nn.Parameter(sg.tensor(2.0))
        self.register_buffer("count", sg.tensor(0))
        self.register_buffer("scratch", sg.zeros(2), persistent=False)
        self.blocks = nn.Sequential(nn.Tanh(), nn.Linear(4, 2))
        self.label = "not registered"

    def forward(self, x):
        return self.blocks(self.fc(x)) * self.scale


def test_setattr_registers_parameters_modules_and_buffers():
    net = Net()
    assert list(net._parameters) == ["scale"] and list(net._modules) == ["fc", "blocks"]
    assert list(net._buffers) == ["count", "scratch"] and net.__dict__["label"]
    assert [n for n, _ in net.named_parameters()] == \
        ["scale", "fc.weight", "fc.bias", "blocks.1.weight", "blocks.1.bias"]
    assert [n for n, _ in net.named_buffers()] == ["count", "scratch"]
    assert list(net.state_dict()) == ["scale", "count", "fc.weight", "fc.bias",
                                      "blocks.1.weight", "blocks.1.bias"]
    assert [n for n, _ in net.named_modules()] == ["", "fc", "blocks", "blocks.0", "blocks.1"]
    assert [n for n, _ in net.named_children()] == ["fc", "blocks"]
    assert net.get_submodule("blocks.1") is net.blocks[1]
    assert net.get_parameter("blocks.1.bias") is net.blocks[1].bias
    with pytest.raises(AttributeError, match="'Net' object has no attribute 'nope'"):
        net.__getattr__("nope")
    del net.scale
    assert "scale" not in net._parameters and len(list(net.parameters())) == 4


def test_registration_errors_are_torchs():
    net = Net()
    with pytest.raises(TypeError, match=r"cannot assign 'torch.FloatTensor' as parameter "
                                        r"'scale' \(torch.nn.Parameter or None expected\)"):
        net.scale = sg.ones(1)
    with pytest.raises(TypeError, match=r"cannot assign 'int' as child module 'fc'"):
        net.fc = 3
    with pytest.raises(TypeError, match=r"cannot assign 'str' as buffer 'count'"):
        net.count = "x"
    with pytest.raises(KeyError, match="attribute 'label' already exists"):
        net.register_buffer("label", sg.ones(1))
    with pytest.raises(KeyError, match=r"parameter name can\S+t contain"):
        net.register_parameter("a.b", None)
    with pytest.raises(TypeError, match="is not a Module subclass"):
        net.add_module("x", 3)
    with pytest.raises(AttributeError, match="before Module.__init__"):
        class Early(nn.Module):
            def __init__(self):
                self.w = nn.Parameter(sg.ones(1))
        Early()
    p = nn.Parameter(sg.ones(2))
    p.grad_fn = (nn.Parameter(sg.ones(2)) * 2).grad_fn      # a parameter that is not a leaf
    with pytest.raises(ValueError, match="Cannot assign non-leaf Tensor"):
        net.register_parameter("bad", p)


def test_shared_modules_and_parameters_are_listed_once():
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, nn.ReLU(), lin)
    assert len(list(seq.parameters())) == 2 and len(list(seq.modules())) == 3
    assert len(list(seq.named_parameters(remove_duplicate=False))) == 4
    assert list(seq.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_train_eval_requires_grad_zero_grad_and_apply():
    net = Net()
    assert net.training and net.eval() is net and not net.blocks[1].training
    net.train()
    assert all(m.training for m in net.modules())
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("yes")
    net(sg.ones(5, 3)).sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    net.zero_grad(set_to_none=False)
    assert all(p.grad is not None and not p.grad.any() for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())
    seen = []
    net.apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Linear", "Tanh", "Linear", "Sequential", "Net"]


def test_forward_hooks_change_inputs_and_outputs_and_are_removable():
    lin = nn.Linear(2, 2)
    x = sg.tensor([[1.0, 2.0]])
    expected = lin(x * 2.0).detach().numpy() + 1.0
    h1 = lin.register_forward_pre_hook(lambda m, args: (args[0] * 2.0,))
    h2 = lin.register_forward_hook(lambda m, args, out: out + 1.0)
    np.testing.assert_allclose(lin(x).detach().numpy(), expected, rtol=1e-6)
    h1.remove()
    h2.remove()
    np.testing.assert_allclose(lin(x).detach().numpy(),
                               (x @ lin.weight.T + lin.bias).detach().numpy(), rtol=1e-6)


def test_to_double_casts_parameters_in_place_and_keeps_int_buffers():
    bn = nn.BatchNorm1d(3)
    w = bn.weight
    assert bn.double() is bn and bn.weight is w and w.dtype is sg.float64
    assert bn.running_mean.dtype is sg.float64 and bn.num_batches_tracked.dtype is sg.int64
    bn.to(sg.float32)
    assert w.dtype is sg.float32 and bn.to("cpu") is bn and bn.cpu() is bn
    bn.to(sg.device("cpu"), sg.float64)
    assert w.dtype is sg.float64 and bn(sg.ones(2, 3, dtype=sg.float64)).dtype is sg.float64
    with pytest.raises(TypeError, match="only accepts floating point"):
        bn.to(sg.int64)
    with pytest.raises(AssertionError, match="not compiled with CUDA"):
        bn.cuda()


def test_modules_deepcopy_and_pickle_into_independent_equal_models():
    model = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
    model(sg.tensor(arr(4, 3)))                      # running statistics move off 0 and 1
    for other in (copy.deepcopy(model), pickle.loads(pickle.dumps(model))):
        assert repr(other) == repr(model)
        for (k, a), b in zip(other.state_dict().items(), model.state_dict().values()):
            assert a.dtype is b.dtype and np.array_equal(a.numpy(), b.numpy()), k
        assert isinstance(other[0].weight, nn.Parameter) and other[0].weight.requires_grad
        with sg.no_grad():
            other[0].weight.zero_()
        assert model[0].weight.abs().sum().item() > 0


# ---------------------------------------------------------------- containers

def test_sequential_indexing_and_editing():
    a, b, c = nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)
    seq = nn.Sequential(a, b)
    assert len(seq) == 2 and seq[0] is a and seq[-1] is b and list(seq) == [a, b]
    seq.append(c)
    assert seq[2] is c and isinstance(seq[1:], nn.Sequential) and list(seq[1:]) == [b, c]
    del seq[1]
    assert list(seq._modules) == ["0", "1"] and seq[1] is c
    seq.insert(1, b)
    assert list(seq) == [a, b, c]
    assert seq.pop(1) is b and list(seq) == [a, c]
    with pytest.raises(IndexError, match="index 5 is out of range"):
        seq[5]
    x = sg.tensor(arr(4, 2))
    np.testing.assert_allclose(seq(x).detach().numpy(), c(a(x)).detach().numpy())


def test_module_list_dict_and_parameter_list():
    ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    ml.append(nn.Tanh())
    ml += [nn.ReLU()]
    assert len(ml) == 5 and isinstance(ml[-1], nn.ReLU) and len(list(ml.parameters())) == 6
    md = nn.ModuleDict({"enc": nn.Linear(2, 3), "act": nn.ReLU()})
    assert list(md.keys()) == ["enc", "act"] and "enc" in md and len(md) == 2
    assert [n for n, _ in md.named_parameters()] == ["enc.weight", "enc.bias"]
    pl = nn.ParameterList([sg.ones(3), nn.Parameter(sg.zeros(2, 2))])
    assert all(isinstance(p, nn.Parameter) for p in pl) and len(pl) == 2
    assert [n for n, _ in pl.named_parameters()] == ["0", "1"]


def _zoo(m):
    """The same modules, built with torch or symgrad (``m``)."""
    n = m.nn
    return n.Sequential(
        n.Linear(20, 64), n.ReLU(), n.Linear(64, 5, bias=False), n.Tanh(), n.Sigmoid(),
        n.GELU(approximate="tanh"), n.SiLU(), n.LeakyReLU(0.2, inplace=True), n.ELU(),
        n.Softplus(beta=2.0), n.Softmax(dim=1), n.LogSoftmax(1), n.Hardtanh(-2.0, 2.0),
        n.ReLU6(), n.Identity(), n.Dropout(0.25), n.Flatten(), n.Unflatten(1, (5, 1)),
        n.LayerNorm((5, 1), bias=False), n.BatchNorm1d(5), n.BatchNorm2d(3, affine=False),
        n.Embedding(10, 3, padding_idx=0), n.Bilinear(3, 4, 2),
        n.ModuleList([n.Linear(2, 2), n.Linear(2, 2), n.ReLU()]),
        n.ModuleDict({"a": n.Linear(1, 1)}),
        n.CrossEntropyLoss(label_smoothing=0.1), n.NLLLoss(), n.MSELoss(), n.L1Loss(),
        n.BCELoss(), n.BCEWithLogitsLoss(), n.SmoothL1Loss(beta=0.5), n.HuberLoss(),
        n.KLDivLoss(reduction="batchmean"), n.ParameterList([n.Parameter(m.ones(2))]))


def test_reprs_match_torch():
    torch = pytest.importorskip("torch")
    assert repr(_zoo(sg)) == repr(_zoo(torch))


def test_state_dict_keys_and_shapes_match_torch():
    torch = pytest.importorskip("torch")
    mine, theirs = _zoo(sg).state_dict(), _zoo(torch).state_dict()
    assert list(mine) == list(theirs)
    assert [tuple(v.shape) for v in mine.values()] == [tuple(v.shape) for v in theirs.values()]
    assert [v.dtype.name for v in mine.values()] == \
        [str(v.dtype).replace("torch.", "") for v in theirs.values()]
    assert dict(mine._metadata) == dict(theirs._metadata)


# ---------------------------------------------------------------- state_dict

def test_state_dict_is_detached_and_shares_the_data():
    lin = nn.Linear(3, 2)
    sd = lin.state_dict()
    assert not sd["weight"].requires_grad and type(sd["weight"]) is sg.Tensor
    with sg.no_grad():
        lin.weight.mul_(0.0)
    assert not sd["weight"].any()
    kept = lin.state_dict(keep_vars=True)
    assert kept["weight"] is lin.weight


def test_load_state_dict_copies_in_place_from_tensors_and_arrays():
    lin = nn.Linear(3, 2)
    w = lin.weight
    values = {"weight": arr(2, 3, dtype=np.float64), "bias": sg.tensor(arr(2))}
    result = lin.load_state_dict(values)
    assert repr(result) == "<All keys matched successfully>"
    assert lin.weight is w and w.dtype is sg.float32 and w.requires_grad
    np.testing.assert_array_equal(w.detach().numpy(), values["weight"].astype(np.float32))
    lin.load_state_dict({"weight": sg.ones(2, 3, dtype=sg.float64), "bias": sg.zeros(2)},
                        assign=True)
    assert lin.weight is not w and isinstance(lin.weight, nn.Parameter)
    assert lin.weight.dtype is sg.float64 and lin.weight.requires_grad


def test_load_state_dict_errors_match_torch():
    torch = pytest.importorskip("torch")
    bad = {"0.weight": np.zeros((3, 3), np.float32), "0.bias": np.zeros(64, np.float32),
           "3.weight": np.zeros(1, np.float32), "extra": np.zeros(1, np.float32)}
    mine = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
    theirs = torch.nn.Sequential(torch.nn.Linear(20, 64), torch.nn.ReLU(),
                                 torch.nn.Linear(64, 5))
    with pytest.raises(RuntimeError) as e1:
        mine.load_state_dict(bad)
    with pytest.raises(RuntimeError) as e2:
        theirs.load_state_dict({k: torch.tensor(v) for k, v in bad.items()})
    assert str(e1.value) == str(e2.value)
    ok = {k: v for k, v in bad.items() if k != "0.weight"}
    r1 = mine.load_state_dict(ok, strict=False)
    r2 = theirs.load_state_dict({k: torch.tensor(v) for k, v in ok.items()}, strict=False)
    assert (r1.missing_keys, r1.unexpected_keys) == (r2.missing_keys, r2.unexpected_keys)
    assert repr(r1) == repr(r2)


# ---------------------------------------------------------------- layers vs NumPy

def test_linear_and_embedding_match_numpy_formulas():
    lin = nn.Linear(3, 2)
    x = arr(4, 3)
    w, b = lin.weight.detach().numpy(), lin.bias.detach().numpy()
    out = lin(sg.tensor(x))
    np.testing.assert_allclose(out.detach().numpy(), x @ w.T + b, rtol=1e-6)
    out.sum().backward()
    np.testing.assert_allclose(lin.weight.grad.numpy(), np.ones((2, 4)) @ x, rtol=1e-6)
    np.testing.assert_allclose(lin.bias.grad.numpy(), [4.0, 4.0])
    emb = nn.Embedding(5, 2, padding_idx=3)
    assert not emb.weight[3].any()                        # the padding row starts at zero
    idx = sg.tensor([[3, 1], [1, 4]])
    emb(idx).sum().backward()
    counts = np.array([0, 2, 0, 0, 1], np.float32)[:, None].repeat(2, 1)   # row 3: padding
    np.testing.assert_array_equal(emb.weight.grad.numpy(), counts)
    with pytest.raises(IndexError, match="index out of range in self"):
        emb(sg.tensor([5]))


def test_batch_norm_running_statistics_follow_the_formula():
    bn = nn.BatchNorm1d(3, momentum=0.25)
    x = arr(8, 3, dtype=np.float64).astype(np.float32)
    out = bn(sg.tensor(x))
    mean, var = x.mean(0), x.var(0)
    np.testing.assert_allclose(out.detach().numpy(), (x - mean) / np.sqrt(var + 1e-5),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bn.running_mean.numpy(), 0.25 * mean, rtol=1e-6)
    np.testing.assert_allclose(bn.running_var.numpy(), 0.75 + 0.25 * x.var(0, ddof=1),
                               rtol=1e-6)
    assert bn.num_batches_tracked.item() == 1
    bn.eval()
    rm, rv = bn.running_mean.numpy(), bn.running_var.numpy()
    np.testing.assert_allclose(bn(sg.tensor(x)).detach().numpy(),
                               (x - rm) / np.sqrt(rv + 1e-5), rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="Expected more than 1 value per channel"):
        bn.train()(sg.ones(1, 3))


def test_dropout_module_passes_through_in_eval_and_scales_in_training():
    drop = nn.Dropout(0.5)
    x = sg.ones(200, 10)
    assert drop.eval()(x) is x
    y = drop.train()(x).numpy()
    assert set(np.unique(y)) <= {0.0, 2.0} and 0.3 < (y == 0).mean() < 0.7
    with pytest.raises(ValueError, match="between 0 and 1"):
        nn.Dropout(1.5)


def test_flatten_unflatten_identity():
    x = sg.tensor(arr(2, 3, 4))
    assert nn.Flatten()(x).shape == (2, 12) and nn.Flatten(0, 1)(x).shape == (6, 4)
    assert nn.Unflatten(1, (3, -1))(nn.Flatten()(x)).shape == (2, 3, 4)
    assert nn.Identity(54, unused="x")(x) is x


# ---------------------------------------------------------------- layers vs torch

def _layer_pairs(m):
    n = m.nn
    return [
        (n.Linear(6, 4), (arr(5, 6),)), (n.Linear(6, 3, bias=False), (arr(2, 5, 6),)),
        (n.Bilinear(6, 3, 2), (arr(5, 6), arr(5, 3))),
        (n.LayerNorm(6), (arr(5, 6),)), (n.LayerNorm((2, 3), bias=False), (arr(4, 2, 3),)),
        (n.BatchNorm1d(6), (arr(5, 6),)), (n.BatchNorm1d(3, momentum=None), (arr(4, 3, 2),)),
        (n.BatchNorm2d(2), (arr(3, 2, 2, 2),)),
        (n.Sequential(n.Linear(6, 8), n.GELU(approximate="tanh"), n.Linear(8, 3), n.SiLU(),
                      n.ELU(0.5), n.Softplus(2.0, 1.0), n.LeakyReLU(0.1), n.ReLU6(),
                      n.Hardtanh(-0.5, 0.5)), (arr(5, 6, lo=-3, hi=3),)),
    ]


@pytest.mark.parametrize("index", range(9))
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
def test_layers_match_torch_with_the_same_weights(index, dtype):
    torch = pytest.importorskip("torch")
    theirs, inputs = _layer_pairs(torch)[index]
    mine, _ = _layer_pairs(sg)[index]
    if dtype is np.float64:
        theirs.double()
        mine.double()
    copy_weights(theirs, mine)
    for _ in range(2):                             # twice: batch norm's running statistics
        xs_t = [torch.tensor(x.astype(dtype), requires_grad=True) for x in inputs]
        xs_s = [sg.tensor(x.astype(dtype), requires_grad=True) for x in inputs]
        out_t, out_s = theirs(*xs_t), mine(*xs_s)
        tol = 2e-5 if dtype is np.float32 else 1e-12
        np.testing.assert_allclose(out_s.detach().numpy(), out_t.detach().numpy(), rtol=tol,
                                   atol=tol)
        assert out_s.grad_fn.name() == out_t.grad_fn.name()
        (out_t * out_t).sum().backward()
        (out_s * out_s).sum().backward()
        for a, b in zip(xs_s, xs_t):
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=tol * 10, atol=tol)
        for (name, a), (_, b) in zip(mine.named_parameters(), theirs.named_parameters()):
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=tol * 10,
                                       atol=tol, err_msg=name)
        for (name, a), (_, b) in zip(mine.state_dict().items(), theirs.state_dict().items()):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=tol, atol=tol, err_msg=name)


def _loss_pairs(m):
    n = m.nn
    logits, target = arr(6, 4, lo=-2, hi=2), np.array([0, 3, 1, 3, 2, -100])
    p = 1 / (1 + np.exp(-arr(6, 4)))
    return [
        (n.CrossEntropyLoss(), logits, np.array([0, 3, 1, 3, 2, 1])),
        (n.CrossEntropyLoss(weight=m.tensor(arr(4, lo=0.5, hi=2)), label_smoothing=0.2),
         logits, target),
        (n.CrossEntropyLoss(reduction="sum", label_smoothing=0.1), logits,
         np.exp(arr(6, 4)) / 3),
        (n.NLLLoss(reduction="none"), logits, np.array([0, 3, 1, 3, 2, 1])),
        (n.MSELoss(), logits, arr(6, 4)), (n.L1Loss(reduction="sum"), logits, arr(6, 4)),
        (n.BCELoss(weight=m.tensor(arr(6, 4, lo=0.5, hi=1))), p, arr(6, 4, lo=0, hi=1)),
        (n.BCEWithLogitsLoss(pos_weight=m.tensor(arr(4, lo=0.5, hi=2))), logits,
         arr(6, 4, lo=0, hi=1)),
        (n.SmoothL1Loss(beta=0.3), logits, arr(6, 4)), (n.HuberLoss(delta=0.4), logits,
                                                         arr(6, 4)),
        (n.KLDivLoss(reduction="batchmean", log_target=True), logits, arr(6, 4)),
    ]


@pytest.mark.parametrize("index", range(11))
def test_loss_modules_match_torch(index):
    torch = pytest.importorskip("torch")
    crit_t, x, y = _loss_pairs(torch)[index]
    crit_s, _, _ = _loss_pairs(sg)[index]
    xt = torch.tensor(x, requires_grad=True)
    xs = sg.tensor(x, requires_grad=True)
    yt = torch.tensor(y.astype(np.float32) if y.dtype.kind == "f" else y)
    ys = sg.tensor(y.astype(np.float32) if y.dtype.kind == "f" else y)
    if crit_s.__dict__.get("_buffers", {}).get("weight") is not None:
        crit_s.weight = sg.tensor(crit_t.weight.numpy())
    if crit_s.__dict__.get("_buffers", {}).get("pos_weight") is not None:
        crit_s.pos_weight = sg.tensor(crit_t.pos_weight.numpy())
    lt, ls = crit_t(xt, yt), crit_s(xs, ys)
    np.testing.assert_allclose(ls.detach().numpy(), lt.detach().numpy(), rtol=2e-6, atol=1e-6)
    lt.sum().backward()
    ls.sum().backward()
    np.testing.assert_allclose(xs.grad.numpy(), xt.grad.numpy(), rtol=1e-5, atol=1e-7)


def test_clip_grad_norm_matches_torch():
    torch = pytest.importorskip("torch")
    grads = [arr(3, 4), arr(5)]
    for norm_type, max_norm in ((2.0, 0.5), (1.0, 100.0), (float("inf"), 0.3)):
        ps = [nn.Parameter(sg.zeros(*g.shape)) for g in grads]
        pt = [torch.nn.Parameter(torch.zeros(*g.shape)) for g in grads]
        for a, b, g in zip(ps, pt, grads):
            a.grad, b.grad = sg.tensor(g), torch.tensor(g)
        n1 = nn.utils.clip_grad_norm_(ps, max_norm, norm_type)
        n2 = torch.nn.utils.clip_grad_norm_(pt, max_norm, norm_type)
        np.testing.assert_allclose(n1.numpy(), n2.numpy(), rtol=1e-6)
        for a, b in zip(ps, pt):
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-6, atol=1e-8)


# ---------------------------------------------------------------- inside @symgrad.compile

def _mlp():
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3), nn.LayerNorm(3))


def test_a_module_called_in_a_compiled_function_reads_its_parameters_at_each_call():
    model = _mlp()
    x = arr(5, 4)
    f = sg.compile(lambda x: model(x))
    np.testing.assert_allclose(f(x), model(sg.tensor(x)).detach().numpy(), rtol=1e-4,
                               atol=1e-5)
    with sg.no_grad():
        model[0].bias.add_(1.0)
    # the parameters are inputs of the compiled code (torch.compile's semantics), not
    # constants of the moment it was traced
    np.testing.assert_allclose(f(x), model(sg.tensor(x)).detach().numpy(), rtol=1e-4,
                               atol=1e-5)
    assert f.last_specialization.artifact.captures     # (read through pointers)
    # called on a tensor with grad mode on, it records autograd through the parameters
    out = f(sg.tensor(x))
    out.sum().backward()
    assert model[0].bias.grad is not None


def test_parameters_as_arguments_of_a_compiled_function():
    """A Parameter requires grad, so the compiled function runs eagerly on it (its result has
    a grad_fn and backward reaches the parameter); detached, it is compiled as an array."""
    lin = nn.Linear(3, 2)
    x = arr(4, 3)
    f = sg.compile(lambda w, b, x: ((x @ w.T + b) ** 2).sum())
    out = f(lin.weight, lin.bias, sg.tensor(x))
    assert out.grad_fn is not None
    out.backward()
    y = x @ lin.weight.detach().numpy().T + lin.bias.detach().numpy()
    np.testing.assert_allclose(lin.weight.grad.numpy(), 2 * y.T @ x, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(lin.bias.grad.numpy(), 2 * y.sum(0), rtol=1e-5, atol=1e-6)
    compiled = f(lin.weight.detach(), lin.bias.detach(), x)
    assert isinstance(compiled, np.ndarray)
    np.testing.assert_allclose(compiled, (y ** 2).sum(), rtol=1e-5)


def test_backward_inside_compile_into_module_parameters_is_refused():
    model = _mlp()

    @sg.compile
    def f(x):
        loss = model(x).sum()
        loss.backward()
        return loss
    with pytest.raises(TracerValueError, match="created outside the compiled function"):
        f(arr(2, 4))


def test_gradients_wrt_parameters_passed_as_arguments_with_functional_call():
    model = _mlp()
    x, t = arr(6, 4), np.array([0, 2, 1, 1, 0, 2])
    params = {k: v.detach().numpy() for k, v in model.named_parameters()}

    def loss_fn(params, x, t):
        return nn.functional.cross_entropy(functional_call(model, params, (x,)), t)
    value, grads = sg.value_and_grad(loss_fn)(params, x, t)
    eager = loss_fn({k: sg.tensor(v) for k, v in params.items()}, sg.tensor(x), sg.tensor(t))
    model.zero_grad()
    ref = nn.functional.cross_entropy(model(sg.tensor(x)), sg.tensor(t))
    ref.backward()
    np.testing.assert_allclose(value, ref.item(), rtol=1e-5)
    np.testing.assert_allclose(eager.item(), ref.item(), rtol=1e-6)
    for name, p in model.named_parameters():
        np.testing.assert_allclose(grads[name], p.grad.numpy(), rtol=1e-4, atol=1e-6,
                                   err_msg=name)
    assert all(type(p) is nn.Parameter for p in model.parameters())   # put back


def test_backward_inside_compile_on_parameters_passed_as_arguments():
    model = _mlp()
    x = arr(6, 4)

    @sg.compile
    def step(params, x):
        for p in params.values():
            p.requires_grad_()
        loss = (functional_call(model, params, (x,)) ** 2).mean()
        loss.backward()
        return loss, {k: p.grad for k, p in params.items()}
    loss, grads = step({k: v.detach().numpy() for k, v in model.named_parameters()}, x)
    model.zero_grad()
    ref = (model(sg.tensor(x)) ** 2).mean()
    ref.backward()
    np.testing.assert_allclose(loss, ref.item(), rtol=1e-5)
    for name, p in model.named_parameters():
        np.testing.assert_allclose(grads[name], p.grad.numpy(), rtol=1e-4, atol=1e-6)


def test_compiled_batch_norm_training_needs_its_statistics_as_arguments():
    bn = nn.BatchNorm1d(3)
    x = arr(8, 3)
    with pytest.raises(TracerValueError, match="running statistic created outside"):
        sg.compile(lambda x: bn(x))(x)
    bn = nn.BatchNorm1d(3)
    buffers = {k: v.numpy().copy() for k, v in bn.named_buffers()}

    @sg.compile
    def f(buffers, x):
        out = functional_call(bn, buffers, (x,))
        return out, buffers["running_mean"], buffers["running_var"]
    out, rm, rv = f(buffers, x)
    ref = bn(sg.tensor(x))
    np.testing.assert_allclose(out, ref.detach().numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rm, bn.running_mean.numpy(), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(rv, bn.running_var.numpy(), rtol=1e-6)
