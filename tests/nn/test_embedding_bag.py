"""``F.embedding_bag`` and ``nn.EmbeddingBag``: sums, means and maxima of bags of rows (2-D
input, or 1-D with offsets, include_last_offset, padding_idx, per_sample_weights) against a
NumPy loop written here and against torch where it is installed; gradients (weight and
per-sample weights) against central differences, eagerly and compiled; the module's initial
weights after ``manual_seed`` (torch's numbers written here), its repr, and torch's errors.
"""

from __future__ import annotations

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F
from references import central_differences, gradient

R = np.random.default_rng(3)
W = R.standard_normal((10, 3))
IDX = np.array([1, 2, 4, 5, 4, 3, 2, 9])


def np_bag(idx, w, starts, ends, mode, psw=None, padding_idx=None):
    out = np.zeros((len(starts), w.shape[1]))
    for b, (s, e) in enumerate(zip(starts, ends)):
        rows = [w[i] * (1.0 if psw is None else psw[j]) for j, i in enumerate(idx[s:e], s)
                if i != padding_idx]
        if rows:
            out[b] = {"sum": np.sum, "mean": np.mean, "max": np.max}[mode](rows, axis=0)
    return out


CASES = [({"offsets": [0, 3, 5]}, [0, 3, 5], [3, 5, 8]),
         ({"offsets": [0, 0, 3, 8]}, [0, 0, 3, 8], [0, 3, 8, 8]),            # empty bags
         ({"offsets": [0, 3, 8], "include_last_offset": True}, [0, 3], [3, 8]),
         ({"offsets": [0, 2, 6], "padding_idx": 4}, [0, 2, 6], [2, 6, 8])]


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("kw, starts, ends", CASES)
def test_matches_numpy(kw, starts, ends, mode):
    args = {k: sg.tensor(np.array(v)) if k == "offsets" else v for k, v in kw.items()}
    got = F.embedding_bag(sg.tensor(IDX), sg.tensor(W), mode=mode, **args)
    want = np_bag(IDX, W, starts, ends, mode, padding_idx=kw.get("padding_idx"))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_two_dimensional_input_is_bags_of_equal_length(mode):
    idx = IDX.reshape(2, 4)
    got = F.embedding_bag(sg.tensor(idx), sg.tensor(W), mode=mode)
    np.testing.assert_allclose(got.numpy(), np_bag(IDX, W, [0, 4], [4, 8], mode), rtol=1e-12)


def test_per_sample_weights():
    psw = R.standard_normal(8)
    got = F.embedding_bag(sg.tensor(IDX), sg.tensor(W), sg.tensor(np.array([0, 3])),
                          mode="sum", per_sample_weights=sg.tensor(psw))
    np.testing.assert_allclose(got.numpy(), np_bag(IDX, W, [0, 3], [3, 8], "sum", psw),
                               rtol=1e-12)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("kw", [c[0] for c in CASES] + [{"offsets": [0, 3, 5],
                                                          "include_last_offset": True}])
def test_matches_torch(kw, mode):
    """float32 bit for bit (sum, mean, max; torch's count of a last bag that stops before the
    end of the input included)."""
    torch = pytest.importorskip("torch")
    w = W.astype(np.float32)
    want = torch.nn.functional.embedding_bag(
        torch.tensor(IDX), torch.tensor(w), mode=mode,
        **{k: torch.tensor(v) if k == "offsets" else v for k, v in kw.items()})
    got = F.embedding_bag(sg.tensor(IDX), sg.tensor(w), mode=mode,
                          **{k: sg.tensor(np.array(v)) if k == "offsets" else v
                             for k, v in kw.items()})
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_gradients_match_torch():
    torch = pytest.importorskip("torch")
    psw = R.standard_normal(8)
    for mode, extra in [("sum", {"per_sample_weights": psw}), ("mean", {"padding_idx": 2}),
                        ("max", {})]:
        outs = []
        for T in (torch, sg):
            w = T.tensor(W, requires_grad=True)
            p = T.tensor(extra["per_sample_weights"], requires_grad=True) \
                if "per_sample_weights" in extra else None
            y = T.nn.functional.embedding_bag(T.tensor(IDX), w, T.tensor(np.array([0, 3, 3])),
                                              mode=mode, per_sample_weights=p,
                                              padding_idx=extra.get("padding_idx"))
            (y * T.tensor(np.cos(np.arange(9.0)).reshape(3, 3))).sum().backward()
            outs.append((y.detach().numpy(), w.grad.numpy(),
                         None if p is None else p.grad.numpy(), y.grad_fn.name()))
        for a, b in zip(outs[0][:3], outs[1][:3]):
            if a is not None:
                np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-14)
        assert outs[1][3] == outs[0][3] == "EmbeddingBagBackward0"


GRADIENTS = {
    "sum": (lambda w: F.embedding_bag(sg.tensor(IDX), w, sg.tensor(np.array([0, 3])),
                                      mode="sum")),
    "mean_padding": (lambda w: F.embedding_bag(sg.tensor(IDX.reshape(2, 4)), w,
                                               padding_idx=4)),
    "max": (lambda w: F.embedding_bag(sg.tensor(IDX), w, sg.tensor(np.array([0, 2, 5])),
                                      mode="max")),
    "per_sample_weights": (lambda p: F.embedding_bag(sg.tensor(IDX.reshape(2, 4)),
                                                     sg.tensor(W), mode="sum",
                                                     per_sample_weights=p.reshape(2, 4))),
}


@pytest.mark.parametrize("how", ["eager", "compiled"])
@pytest.mark.parametrize("name", sorted(GRADIENTS))
def test_gradients_match_central_differences(name, how):
    fn = GRADIENTS[name]

    def loss(t):
        y = fn(t)
        return (y * sg.tensor(np.cos(np.arange(y.numel())).reshape(y.shape))).sum() + \
            (y * y).sum()

    x0 = R.standard_normal((8,)) if name == "per_sample_weights" else \
        R.permutation(np.linspace(-2, 2, 30)).reshape(10, 3)
    np.testing.assert_allclose(gradient(loss, x0, how), central_differences(loss, x0),
                               rtol=1e-6, atol=1e-8)


def test_compiled_with_traced_indices():
    """2-D input and constant offsets compile with traced indices; traced offsets are
    refused (the bags' bounds are their values)."""
    fn = sg.compile(lambda i, w: F.embedding_bag(i, w, mode="mean", padding_idx=2))
    idx = np.array([[1, 2, 2], [3, 0, 9]])
    np.testing.assert_allclose(np.asarray(fn(sg.tensor(idx), sg.tensor(W))),
                               np_bag(idx.reshape(-1), W, [0, 3], [3, 6], "mean",
                                      padding_idx=2), rtol=1e-12)
    offsets = sg.tensor(np.array([0, 3]))
    fn = sg.compile(lambda i, w: F.embedding_bag(i, w, offsets, mode="max"))
    np.testing.assert_allclose(np.asarray(fn(sg.tensor(IDX), sg.tensor(W))),
                               np_bag(IDX, W, [0, 3], [3, 8], "max"), rtol=1e-12)
    with pytest.raises(sg.TracerValueError, match="the bags' bounds come from the values of "
                                                  "`offsets`"):
        sg.compile(lambda i, o: F.embedding_bag(i, sg.tensor(W), o))(sg.tensor(IDX), offsets)


# ---------------------------------------------------------------- module

def test_module_initial_weights_repr_and_forward():
    sg.manual_seed(0)
    m = sg.nn.EmbeddingBag(4, 2)
    np.testing.assert_array_equal(m.weight.detach().numpy().reshape(-1), np.array(
        [1.5409960746765137, -0.293428897857666, -2.1787893772125244, 0.5684312582015991,
         -1.0845223665237427, -1.3985954523086548, 0.40334683656692505, 0.8380263447761536],
        np.float32))                                  # torch 2.13's after manual_seed(0)
    assert repr(m) == "EmbeddingBag(4, 2, mode='mean')"
    m = sg.nn.EmbeddingBag(10, 3, mode="sum", padding_idx=-2, max_norm=1.0)
    assert repr(m) == "EmbeddingBag(10, 3, max_norm=1.0, mode='sum', padding_idx=8)"
    assert not m.weight.detach().numpy()[8].any()
    bag = sg.nn.EmbeddingBag.from_pretrained(sg.tensor(W), mode="max")
    assert not bag.weight.requires_grad
    np.testing.assert_allclose(bag(sg.tensor(IDX), sg.tensor(np.array([0, 4]))).numpy(),
                               np_bag(IDX, W, [0, 4], [4, 8], "max"), rtol=1e-12)
    torch = pytest.importorskip("torch")
    torch.manual_seed(5)
    sg.manual_seed(5)
    t, s = torch.nn.EmbeddingBag(6, 4, padding_idx=1), sg.nn.EmbeddingBag(6, 4, padding_idx=1)
    np.testing.assert_array_equal(s.weight.detach().numpy(), t.weight.detach().numpy())
    assert repr(s) == repr(t)


@pytest.mark.parametrize("call, kind, message", [
    (lambda: F.embedding_bag(sg.tensor(IDX), sg.tensor(W), sg.tensor([0, 4]),
                             per_sample_weights=sg.ones(8)), NotImplementedError,
     r"embedding_bag: per_sample_weights was not None. per_sample_weights is only supported "
     r"for mode='sum' \(got mode='mean'\)"),
    (lambda: F.embedding_bag(sg.tensor(IDX), sg.tensor(W), sg.tensor([0, 4]), mode="sum",
                             per_sample_weights=sg.ones(7)), ValueError,
     r"embedding_bag: If per_sample_weights \(torch.Size\(\[7\]\)\) is not None, then it must "
     r"have the same shape as the input \(torch.Size\(\[8\]\)\)"),
    (lambda: F.embedding_bag(sg.tensor(IDX.reshape(2, 4)), sg.tensor(W), sg.tensor([0, 4])),
     ValueError, r"if input is 2D, then offsets has to be None"),
    (lambda: F.embedding_bag(sg.tensor(IDX), sg.tensor(W)), ValueError,
     r"offsets has to be a 1D Tensor but got None"),
    (lambda: F.embedding_bag(sg.tensor(IDX.reshape(2, 2, 2)), sg.tensor(W)), ValueError,
     r"input has to be 1D or 2D Tensor, but got Tensor of dimension 3"),
    (lambda: F.embedding_bag(sg.tensor(IDX), sg.tensor(W), sg.tensor([0, 4]), mode="min"),
     ValueError, r"mode has to be one of sum, mean or max"),
    (lambda: F.embedding_bag(sg.tensor([1, 12]), sg.tensor(W), sg.tensor([0])), RuntimeError,
     r"Index 1 of input takes value 12 which is not in the valid range \[0, 10\)"),
    (lambda: F.embedding_bag(sg.tensor(IDX), sg.tensor(W), sg.tensor([1, 4])), RuntimeError,
     r"offsets\[0\] has to be 0, i.e., the first sequence in the mini-batch has to start from "
     r"position 0. However, got 1"),
    (lambda: F.embedding_bag(sg.tensor(IDX), sg.tensor(W), sg.tensor([0, 9])), RuntimeError,
     r"offsets\[-1\] can not be greater than input's length 8 but got offsets\[-1\] of 9"),
    (lambda: F.embedding_bag(sg.tensor(IDX), sg.tensor(W), sg.tensor([[0, 4]])), ValueError,
     r"offsets has to be a 1D Tensor"),
    (lambda: F.embedding_bag(sg.tensor(IDX).to(sg.float32), sg.tensor(W), sg.tensor([0])),
     RuntimeError, r"Expected tensor for argument #1 'indices' to have one of the following "
                   r"scalar types: Long, Int; but got torch.FloatTensor instead"),
    (lambda: F.embedding_bag(sg.tensor(IDX), sg.tensor(W[:, 0]), sg.tensor([0])), ValueError,
     r"weight has to be a 2D Tensor, but got Tensor of dimension 1"),
    (lambda: F.embedding_bag(sg.tensor(IDX), sg.tensor(W), sg.tensor([0]), padding_idx=10),
     RuntimeError, r"padding_idx must be within the number of embeddings, -10 through 9, but "
                   r"got 10"),
])
def test_errors(call, kind, message):
    with pytest.raises(kind, match=message):
        call()
