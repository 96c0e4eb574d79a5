"""torch's grad_fn names where symgrad reaches the same values in other steps, which inputs get a
gradient, and a few values of torch's own choosing (strides of arrays, random_ per dtype, a
factory's out= dtype, typename): the mechanisms behind the sweep's samples, on more cases.

Each table was written from torch 2.13; with torch installed the same cases are run live too.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F


def _ones(*shape):
    return sg.ones(shape, dtype=sg.float64, requires_grad=True)


def _name(t) -> str:
    return type(t.grad_fn).__name__


# ---------------------------------------------------------------- einsum's composition

EINSUM = [("", [()], "PermuteBackward0"), ("i", [(3,)], "PermuteBackward0"),
          ("ii->i", [(3, 3)], "PermuteBackward0"), ("ij->ji", [(2, 3)], "PermuteBackward0"),
          ("ij->j", [(2, 3)], "SumBackward1"), ("i,j->ij", [(3,), (4,)], "MulBackward0"),
          ("ij,jk->ik", [(2, 3), (3, 4)], "ViewBackward0"),
          ("ij,jk->ki", [(2, 3), (3, 4)], "ViewBackward0"),
          (",i->i", [(), (3,)], "MulBackward0"), ("ii,i->i", [(3, 3), (3,)], "MulBackward0"),
          ("i,j,k->ijk", [(2,), (3,), (4,)], "MulBackward0"),
          ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)], "ViewBackward0"),
          ("ij,kl->ilkj", [(2, 3), (4, 5)], "MulBackward0"),
          ("ij,k->", [(2, 3), (4,)], "ViewBackward0")]


@pytest.mark.parametrize("equation,shapes,name", EINSUM)
def test_einsum_shows_torchs_last_node(equation, shapes, name):
    ops = [sg.arange(1.0, 1.0 + float(np.prod(s)), dtype=sg.float64).reshape(s)
           .requires_grad_() for s in shapes]
    out = sg.einsum(equation, *ops)
    assert _name(out) == name
    assert all(out is not t for t in ops)
    # the gradient is the composition's: einsum is linear in each operand, so the gradient
    # of the sum at an element is NumPy's einsum with that operand a unit tensor there
    out.sum().backward()
    arrays = [t.detach().numpy() for t in ops]
    for k, t in enumerate(ops):
        want = np.zeros(arrays[k].shape)
        for at in np.ndindex(*arrays[k].shape):
            unit = np.zeros(arrays[k].shape)
            unit[at] = 1.0
            want[at] = np.sum(np.einsum(equation, *arrays[:k], unit, *arrays[k + 1:]))
        np.testing.assert_allclose(t.grad.numpy(), want)


@pytest.mark.parametrize("equation,shapes,name", EINSUM)
def test_einsum_names_against_torch(equation, shapes, name):
    torch = pytest.importorskip("torch")
    ops = [torch.ones(s, dtype=torch.float64, requires_grad=True) for s in shapes]
    assert type(torch.einsum(equation, *ops).grad_fn).__name__ == name


def test_tensordot_is_a_view_of_a_product():
    assert _name(sg.tensordot(_ones(2, 3), _ones(3, 4), 0)) == "ViewBackward0"
    assert _name(sg.tensordot(_ones(2), _ones(3), 0)) == "ViewBackward0"


# ---------------------------------------------------------------- nodes of other steps

def test_index_ops_of_a_0d_tensor_show_their_own_node():
    s = sg.tensor(2.0, dtype=sg.float64, requires_grad=True)
    i = sg.tensor([0])
    v = sg.tensor([3.0], dtype=sg.float64, requires_grad=True)
    assert _name(sg.index_select(s, 0, i)) == "IndexSelectBackward0"
    assert _name(sg.index_copy(s, 0, i, v)) == "IndexCopyBackward0"
    assert _name(sg.index_fill(s, 0, i, 1.5)) == "IndexFillBackward0"
    assert _name(sg.scatter(s, 0, sg.tensor(0), s)) == "ScatterBackward0"
    assert _name(sg.scatter_add(s, 0, sg.tensor(0), s)) == "ScatterAddBackward0"
    c = s.clone()
    c.index_fill_(0, i, 1.5)
    assert _name(c) == "IndexFillBackward0"
    (sg.index_select(s, 0, i) * 3).backward()
    assert s.grad.item() == 3.0
    (sg.index_copy(s, 0, i, v) * 5).backward()
    assert v.grad.tolist() == [5.0]


def test_views_and_composites_named_as_torch():
    s = sg.tensor(2.0, dtype=sg.float64, requires_grad=True)
    x = _ones(2, 3)
    assert _name(sg.movedim(s, 0, 0)) == "AliasBackward0"
    assert _name(sg.movedim(x, 0, 0)) == "PermuteBackward0"
    assert _name(sg.diag_embed(x, -1, 0, 2)) == "DiagEmbedBackward0"
    assert _name(F.pad(x.reshape(1, 2, 3), (1, 1), "circular")) == "CopySlices"
    y = sg.arange(6.0, dtype=sg.float64).reshape(2, 3).requires_grad_()
    r = sg.repeat_interleave(y, sg.tensor([1, 2]), 0)
    assert _name(r) == "IndexSelectBackward0"
    assert _name(sg.repeat_interleave(y, sg.tensor([2]), 0)) == "IndexSelectBackward0"
    assert _name(sg.repeat_interleave(y, 2, 0)) == "ViewBackward0"
    r.sum().backward()
    assert y.grad.tolist() == [[1.0] * 3, [2.0] * 3]


def test_shown_as_leaves_inputs_and_shared_nodes_alone():
    from symgrad.frontend.core.shown import shown_as
    x = _ones(2)
    y = x * 2
    assert shown_as(y, "ViewBackward0", y) is y and _name(y) == "MulBackward0"
    parts = sg.split(_ones(4), 2)
    shown_as(parts[0], "ViewBackward0")
    assert _name(parts[0]) == "SplitBackward0"


# ---------------------------------------------------------------- which inputs get gradients

def test_cat_gives_skipped_empty_operands_an_empty_gradient():
    a = sg.arange(6.0, dtype=sg.float64).reshape(2, 3).requires_grad_()
    e = sg.zeros(0, dtype=sg.float32, requires_grad=True)
    r = sg.cat([e, a, e])
    assert _name(r) == "CatBackward0" and len(r.grad_fn.next_functions) == 3
    (r * sg.arange(6.0, dtype=sg.float64).reshape(2, 3)).sum().backward()
    assert a.grad.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert e.grad.shape == (0,) and e.grad.dtype is sg.float32
    b = sg.ones(3, dtype=sg.float64, requires_grad=True)
    e2 = sg.zeros(0, dtype=sg.float64, requires_grad=True)
    (sg.hstack([b, e2, b]) * sg.arange(6.0, dtype=sg.float64)).sum().backward()
    assert b.grad.tolist() == [3.0, 5.0, 7.0] and e2.grad.shape == (0,)


def test_samplers_and_counts_give_zero_gradients():
    p = sg.tensor([0.1, 0.5, 0.9, 0.3], dtype=sg.float64, requires_grad=True)
    y = sg.zeros(3, 4, dtype=sg.float64).bernoulli_(p)
    assert _name(y) == "BernoulliBackward1" and len(y.grad_fn.next_functions) == 2
    y.sum().backward()
    assert p.grad.tolist() == [0.0] * 4
    a, b = _ones(2, 3), _ones(2, 4, 3)
    c = sg.cdist(a, b * 2, 0.0)
    assert c[0, 0].tolist() == [3.0] * 4
    c.sum().backward()
    assert a.grad.shape == (2, 3) and not a.grad.abs().sum().item()
    assert b.grad.shape == (2, 4, 3) and not b.grad.abs().sum().item()


def test_fill_of_an_integer_tensor_with_a_value_that_requires_grad():
    v = sg.tensor(1.5, dtype=sg.float64, requires_grad=True)
    y = sg.zeros(2, 3, dtype=sg.int64).fill_(v)
    assert _name(y) == "FillBackward3" and y.requires_grad and y.dtype is sg.int64
    assert y.tolist() == [[1] * 3] * 2
    assert y.grad_fn.next_functions[0][0] is None
    assert sg.zeros(2, dtype=sg.int64).fill_(v.detach()).grad_fn is None


def test_new_with_a_tensor_is_an_alias():
    x = _ones(2, 3)
    d = sg.tensor([1.0, 2.0], dtype=sg.float64, requires_grad=True)
    y = x.new(d)
    assert _name(y) == "AliasBackward0" and y is not d
    (y * sg.tensor([3.0, 4.0], dtype=sg.float64)).sum().backward()
    assert d.grad.tolist() == [3.0, 4.0] and x.grad is None
    assert x.new((2, 3)).tolist() == [2.0, 3.0] and x.new(2, 3).shape == (2, 3)
    with pytest.raises(TypeError, match="expected TensorOptions"):
        x.new(sg.tensor([1, 2]))


def _bags(w, idx, offsets, mode, include_last, fast):
    """NumPy oracle: torch's bags. With include_last_offset the last bag ends at the last
    offset only in torch's fast float32 kernel, and only for its sum (not its count, nor
    max); the generic kernel (float64) runs it to the end of the input."""
    starts = list(offsets[:-1] if include_last else offsets)
    ends = starts[1:] + [len(idx)]
    stop = offsets[-1] if include_last and fast and mode != "max" else len(idx)
    out = []
    for k, (s, e) in enumerate(zip(starts, ends)):
        rows = w[idx[s:min(e, stop) if k == len(starts) - 1 else e]]
        if mode == "max":
            out.append(rows.max(0) if len(rows) else np.zeros(w.shape[1]))
        else:
            total = rows.sum(0) if len(rows) else np.zeros(w.shape[1])
            out.append(total / max(e - s, 1) if mode == "mean" else total)
    return np.stack(out)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("offsets", [[0, 3], [0, 2, 4], [0, 3, 6], [0, 0, 2]])
@pytest.mark.parametrize("include_last", [True, False])
def test_embedding_bag_last_bag_as_torchs_kernels(mode, offsets, include_last, dtype):
    w = np.arange(15.0).reshape(5, 3)
    idx = np.array([0, 2, 4, 1, 3, 2])
    got = F.embedding_bag(sg.tensor(idx), sg.tensor(w, dtype=getattr(sg, dtype)),
                          sg.tensor(offsets), mode=mode, include_last_offset=include_last)
    want = _bags(w, idx, offsets, mode, include_last, dtype == "float32")
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    torch = pytest.importorskip("torch")
    theirs = torch.nn.functional.embedding_bag(
        torch.tensor(idx), torch.tensor(w, dtype=getattr(torch, dtype)),
        torch.tensor(offsets), mode=mode, include_last_offset=include_last)
    np.testing.assert_array_equal(got.numpy(), theirs.numpy())


# ---------------------------------------------------------------- values torch chooses

RANDOM = [("uint8", [172, 47, 117, 192]), ("int8", [44, 47, 117, 64]),
          ("int16", [2732, 10799, 9845, 19648]),
          ("int32", [209652396, 398764591, 924231285, 1478610112]),
          ("int64", [900450186894289455, 3969543146641149120, 1895649597198586619,
                     827948490035658087]),
          ("float16", [1277.0, 1017.0, 1661.0, 999.0]),
          ("float32", [8325664.0, 12888472.0, 1484222.0, 2214888.0]),
          ("float64", [8737460674930124.0, 6375474555111176.0, 4137753702977065.0,
                       8293357854226700.0]),
          ("bool", [False, True, True, False])]


@pytest.mark.parametrize("dtype,values", RANDOM)
def test_random_draws_torchs_uniform_int_per_dtype(dtype, values):
    sg.manual_seed(0)
    assert sg.zeros(4, dtype=getattr(sg, dtype)).random_().tolist() == values


def test_a_factorys_out_makes_outs_dtype():
    out = sg.zeros(3, dtype=sg.float64)
    sg.manual_seed(0)
    assert sg.rand(3, out=out) is out
    assert out.tolist() == [0.9700530018065531, 0.707819864399788, 0.45938294312745087]
    sg.manual_seed(0)
    sg.randn(3, out=out)
    assert out.tolist() == [1.5409961082440433, -0.2934289057609464, -2.1787893820745574]
    s = sg.zeros((), dtype=sg.float32)
    assert sg.sum(sg.ones(3, dtype=sg.float64), 0, out=s).dtype is sg.float32


def test_typename_names_torchs_types():
    assert sg.typename(sg.float32) == "torch.dtype"
    assert sg.typename(sg.device("cpu")) == "torch.device"
    assert sg.typename(sg.Size([2])) == "torch.Size"
    assert sg.typename(sg.zeros(2)) == "torch.FloatTensor"
    assert sg.typename(sg.nn.Linear) == "torch.nn.modules.linear.Linear"
    assert sg.typename((_ones(1) * 2).grad_fn) == "MulBackward0"
    assert sg.typename(2.5) == "float"


STRIDES = [("transposed", lambda a: a.T, "tensor", (1, 3)),
           ("every other", lambda a: a[:, ::2], "tensor", (2, 1)),
           ("every other, shared", lambda a: a[:, ::2], "from_numpy", (3, 2)),
           ("empty", lambda a: np.zeros((0, 3)), "tensor", (0, 0)),
           ("empty 3-d", lambda a: np.zeros((2, 0, 3)), "tensor", (0, 0, 0)),
           ("broadcast", lambda a: np.broadcast_to(a, (2, 2, 3)), "tensor", (6, 3, 1)),
           ("broadcast, shared", lambda a: np.broadcast_to(a, (2, 2, 3)), "from_numpy",
            (0, 3, 1)),
           ("row-major", lambda a: a, "tensor", (3, 1))]


@pytest.mark.parametrize("what,make,how,strides", STRIDES, ids=[s[0] for s in STRIDES])
def test_strides_of_tensors_made_from_arrays(what, make, how, strides):
    array = make(np.arange(6.0).reshape(2, 3))
    assert getattr(sg, how)(array).stride() == strides
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # (torch: a broadcast array is not writable)
        assert getattr(torch, how)(array).stride() == strides


def test_layout_of_an_array_carries_through_ops():
    t = sg.tensor(np.arange(6.0).reshape(2, 3).T)
    assert (t + 1).stride() == (1, 3) and not t.is_contiguous()
    assert t.contiguous().stride() == (2, 1)
    e = sg.tensor(np.zeros((0, 3)))
    assert e.is_contiguous() and (e + 1).stride() == (3, 1) and e.t().stride() == (0, 0)


SDPA = [("4-d", [(2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4)], {}, "Flash"),
        ("3-d", [(2, 3, 4), (2, 5, 4), (2, 5, 4)], {}, "UnsafeViewBackward0"),
        ("empty query", [(2, 0, 4), (2, 5, 4), (2, 5, 4)], {}, "AddBackward0"),
        ("empty keys", [(2, 2, 3, 4), (2, 2, 0, 4), (2, 2, 0, 4)], {}, "AddBackward0"),
        ("dropout", [(2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4)], {"dropout_p": 0.5},
         "UnsafeViewBackward0"),
        ("value dim", [(2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 6)], {}, "UnsafeViewBackward0"),
        ("batch broadcast", [(2, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 4)], {},
         "UnsafeViewBackward0"),
        ("grouped heads", [(2, 4, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4)], {"enable_gqa": True},
         "Flash"),
        ("causal", [(2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4)], {"is_causal": True}, "Flash"),
        ("3-d mask", [(2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4)],
         {"attn_mask": (2, 3, 5)}, "UnsafeViewBackward0"),
        ("4-d mask", [(2, 2, 3, 4), (2, 2, 5, 4), (2, 2, 5, 4)],
         {"attn_mask": (2, 1, 3, 5)}, "Flash")]


@pytest.mark.parametrize("what,shapes,kwargs,name", SDPA, ids=[s[0] for s in SDPA])
@pytest.mark.parametrize("lib", ["symgrad", "torch"])
def test_attention_shows_the_backend_torch_picks(what, shapes, kwargs, name, lib):
    top = sg if lib == "symgrad" else pytest.importorskip("torch")
    functional = F if lib == "symgrad" else top.nn.functional
    ops = [top.ones(s, dtype=top.float64, requires_grad=True) for s in shapes]
    kwargs = dict(kwargs)
    if "attn_mask" in kwargs:
        kwargs["attn_mask"] = top.zeros(kwargs["attn_mask"], dtype=top.float64)
    out = functional.scaled_dot_product_attention(*ops, **kwargs)
    want = "ScaledDotProductFlashAttentionForCpuBackward0" if name == "Flash" else name
    assert type(out.grad_fn).__name__ == want
