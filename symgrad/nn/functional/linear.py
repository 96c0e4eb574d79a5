"""Layer functions of ``torch.nn.functional``: ``linear``, ``bilinear``, ``embedding``,
``one_hot``, ``pad`` (constant, reflect, replicate, circular), and ``dropout`` (re-exported from
``symgrad.frontend.random.sampling``, which draws with torch's generator).

Layer: front end (torch.nn mirror). Input: tensors and torch's arguments. Output: tensors built
from primitives (matmul, gather/scatter_add, slice/unslice, where), with torch's grad_fn where
torch shows one (``AddmmBackward0``, ``EmbeddingBackward0``, ``ConstantPadNdBackward0``...) and
backward rules written with the same functions (differentiable again). Index checks that need
values (embedding, one_hot) run eagerly; a traced index's values are not known. It must not
read or write tensors' arrays beyond those checks.
"""

from __future__ import annotations

import numpy as np

from ... import dtypes
from ...frontend.core.apply import apply, as_tensor
from ...frontend.core.backward_graph import exact
from ...frontend.core.shown import shown_as
from ...frontend.functions.creation import arange
from ...frontend.functions.basic import amax, composite, eq, matmul, sum, where
from ...frontend.functions.manipulation import index_select
from ...frontend.random.sampling import dropout  # noqa: F401  (torch.nn.functional.dropout)
from ...frontend.functions.shapes import broadcast_to, getitem
from ...frontend.core.tensor import Tensor
from .embedding_renorm import embedding_renorm_

# ---------------------------------------------------------------- linear maps

def linear(input, weight, bias=None) -> Tensor:  # noqa: A002
    """input @ weight.T + bias, over any leading dims of ``input``."""
    x, w = as_tensor(input), as_tensor(weight)
    b = None if bias is None else as_tensor(bias)
    if w.ndim == 2 and (x.ndim > 2 or x.ndim == 1 and b is not None):
        flat = linear(x.reshape(-1, x.shape[-1]), w, b)
        shape = tuple(x.shape[:-1]) + (flat.shape[-1],)
        # torch's matmul folds the batch dims into one product and views the result back
        return apply("reshape", flat, shape_to=shape,
                     _torch_name="ViewBackward0" if b is not None else "UnsafeViewBackward0")
    if x.ndim == 2 and b is not None and w.ndim != 2:     # torch's addmm(bias, x, w.t())
        raise RuntimeError(f"mat2 must be a matrix, got {w.ndim}-D tensor")
    if b is None or x.ndim != 2 or w.ndim != 2:
        out = matmul(x, w.t() if w.ndim == 2 else w)
        return out if b is None else out + b

    @exact   # (the products' derivative: no point where it is a convention)
    def rule(g, out, ins):
        a, wt, _ = ins
        return matmul(g, wt), matmul(g.t(), a), sum(g, 0)
    return composite("AddmmBackward0", lambda a, wt, bs: matmul(a, wt.t()) + bs, [x, w, b],
                     rule, uses_out=False, pure=True)


def bilinear(input1, input2, weight, bias=None) -> Tensor:
    """out[..., k] = input1 @ weight[k] @ input2 + bias[k]."""
    x1, x2, w = as_tensor(input1), as_tensor(input2), as_tensor(weight)
    if w.ndim != 3:
        raise RuntimeError(f"bilinear(): weight must be three-dimensional, but got "
                           f"{w.ndim}-dimensional weight")
    if x1.shape[:-1] != x2.shape[:-1]:
        raise RuntimeError(f"bilinear(): input batch dimensions do not match: got "
                           f"{list(x1.shape[:-1])} and {list(x2.shape[:-1])}")
    out_f, in1, in2 = w.shape
    if x1.shape[-1] != in1 or x2.shape[-1] != in2:
        raise RuntimeError(f"bilinear(): input sizes do not match the weight: got "
                           f"{x1.shape[-1]} and {x2.shape[-1]}, expected {in1} and {in2}")
    lead = tuple(x1.shape[:-1])
    a, c = x1.reshape(-1, in1), x2.reshape(-1, in2)
    mixed = matmul(a, w.permute(1, 0, 2).reshape(in1, out_f * in2)).reshape(-1, out_f, in2)
    out = sum(mixed * c.unsqueeze(1), -1).reshape(lead + (out_f,))
    if not out.dtype.is_differentiable:   # integers: the operands' dtype, as torch's
        out = out.to(dtypes.promote_types(dtypes.promote_types(x1.dtype, x2.dtype), w.dtype))
    return out if bias is None else out + as_tensor(bias)


# ---------------------------------------------------------------- indices

def legacy_name(dt: dtypes.DType) -> str:
    """How torch's argument checks name a CPU tensor's type: ``torch.FloatTensor`` where a
    legacy type class exists, ``CPUBoolType``/``CPUComplexFloatType`` otherwise."""
    return (f"CPU{dt.scalar_type}Type" if dt.is_complex or dt.is_bool else
            f"torch.{dt.scalar_type}Tensor")


def _check_indices(idx: Tensor, what: str) -> Tensor:
    """The indices as int64, after torch's check (int64 or int32)."""
    if idx.dtype is dtypes.int32:
        return idx.to(dtypes.int64)
    if idx.dtype is not dtypes.int64:
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the "
                           f"following scalar types: Long, Int; but got {legacy_name(idx.dtype)} "
                           f"instead (while checking arguments for {what})")
    return idx


def embedding(input, weight, padding_idx: int | None = None, max_norm=None,  # noqa: A002
              norm_type: float = 2.0, scale_grad_by_freq: bool = False,
              sparse: bool = False) -> Tensor:
    """The rows of ``weight`` at the indices ``input`` (any shape): shape input.shape + (D,).
    The row ``padding_idx`` gets no gradient."""
    idx, w = as_tensor(input), as_tensor(weight)
    idx = _check_indices(idx, "embedding")
    if w.ndim != 2:
        raise RuntimeError(f"'weight' must be 2-D, got {w.ndim}-D")
    if scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding: scale_grad_by_freq and sparse are not supported")
    rows, dim = w.shape
    if padding_idx is not None:
        if not -rows <= padding_idx < rows:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx %= rows
    if idx._value is not None and idx._value.size and (
            idx._value.min() < 0 or idx._value.max() >= rows):
        raise IndexError("index out of range in self")
    if max_norm is not None:        # torch: the rows read are renormalized in place first
        embedding_renorm_(w, idx, max_norm, norm_type)
    flat = idx.reshape(-1)
    spread = broadcast_to(flat.reshape(-1, 1), (flat.shape[0], dim))
    shape = tuple(idx.shape) + (dim,)

    def rule(g, out, ins):
        gf = g.reshape(-1, dim)
        if padding_idx is not None:
            gf = where((flat != padding_idx).reshape(-1, 1), gf, 0.0)
        return (apply("scatter_add", gf, spread, axis=0, shape_to=(rows, dim)),)
    return composite("EmbeddingBackward0",
                     lambda wt: apply("gather", wt, spread, axis=0).reshape(shape), [w], rule,
                     saves=False, uses_out=False)


def one_hot(tensor, num_classes: int = -1) -> Tensor:
    """An int64 tensor of shape tensor.shape + (num_classes,): 1 at each index, else 0;
    ``num_classes=-1`` takes the largest index + 1 (eagerly)."""
    t = as_tensor(tensor)
    if t.dtype is not dtypes.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        if t.numel() == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(amax(t)) + 1
    if t._value is not None and t._value.size:
        if t._value.min() < 0:
            raise RuntimeError("Class values must be non-negative.")
        if t._value.max() >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    return eq(t.unsqueeze(-1), arange(num_classes)).to(dtypes.int64)


# ---------------------------------------------------------------- padding

def _pad_pairs(x: Tensor, pad) -> list:
    """``pad`` as (dim, before, after) triples, last dim first as torch reads it."""
    pad = [int(p) for p in pad]
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > x.ndim:
        raise RuntimeError(f"Padding length should be less than or equal to two times the "
                           f"input dimension but got padding length {len(pad)} and input of "
                           f"dimension {x.ndim}")
    return [(x.ndim - 1 - i, pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]


def _constant_pad(x: Tensor, pairs: list, value: float) -> Tensor:
    """Crop (negative pads), then place the rest in a tensor filled with ``value``."""
    crop = [slice(None)] * x.ndim
    for d, lo, hi in pairs:
        crop[d] = slice(max(-lo, 0), x.shape[d] - max(-hi, 0))
        if crop[d].start > crop[d].stop:
            raise RuntimeError(f"The input size {x.shape[d]}, plus negative padding {lo} and "
                               f"{hi} resulted in a negative output size, which is invalid. "
                               f"Check dimension {d} of your input.")
    core = getitem(x, tuple(crop)) if any(lo < 0 or hi < 0 for _, lo, hi in pairs) else x
    starts, stops = [0] * x.ndim, list(core.shape)
    for d, lo, _ in pairs:
        starts[d] = max(lo, 0)
        stops[d] = starts[d] + core.shape[d]
    highs = [0] * x.ndim
    for d, _, hi in pairs:
        highs[d] = max(hi, 0)
    shape = tuple(stop + high for stop, high in zip(stops, highs))
    placed = apply("unslice", core, shape_to=shape, starts=tuple(starts), stops=tuple(stops),
                   steps=(1,) * x.ndim)
    if value == 0:
        return placed
    mask = np.zeros(shape, np.bool_)
    mask[tuple(slice(a, b) for a, b in zip(starts, stops))] = True
    return where(Tensor(mask, None), placed, as_tensor(value, placed.dtype))   # torch's cast


def _source_index(n: int, lo: int, hi: int, mode: str) -> np.ndarray:
    """Where each element of a dim of size n, padded by (lo, hi), is read from."""
    pos = np.arange(-lo, n + hi)
    if mode == "reflect":
        if lo >= n or hi >= n:
            raise RuntimeError(f"Padding size should be less than the corresponding input "
                               f"dimension, but got: padding ({lo}, {hi}) of a dimension of "
                               f"size {n}")
        pos = np.abs(pos)
        return np.where(pos > n - 1, 2 * (n - 1) - pos, pos)
    if mode == "replicate":
        return np.clip(pos, 0, n - 1)
    if lo > n or hi > n:
        raise ValueError("Padding value causes wrapping around more than once.")
    return pos % n


def pad(input, pad, mode: str = "constant", value: float | None = None) -> Tensor:  # noqa: A002
    """Pad the last len(pad) // 2 dims: ``pad`` = (left, right, top, bottom, ...), last dim
    first. ``constant`` fills with ``value`` (negative pads crop); ``reflect``, ``replicate``
    and ``circular`` repeat the input's own elements."""
    x = as_tensor(input)
    pairs = _pad_pairs(x, pad)
    if mode == "constant":
        fill = 0.0 if value is None else value

        def rule(g, out, ins):
            return (_constant_pad(g, [(d, -lo, -hi) for d, lo, hi in pairs], 0.0),)
        return composite("ConstantPadNdBackward0", lambda a: _constant_pad(a, pairs, fill),
                         [x], rule, saves=False, uses_out=False)
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if value:
        raise AssertionError(f'Padding mode "{mode}" doesn\'t take in value argument')
    k = len(pairs)
    if k > 3 or x.ndim not in (k + 1, k + 2):
        raise NotImplementedError(
            f"Padding size {2 * k} is not supported for {x.ndim}D input tensor.\nSupported "
            f"combinations for non-constant padding:\n  - 2D or 3D input: padding size = 2 "
            f"(pads last dimension)\n  - 3D or 4D input: padding size = 4 (pads last 2 "
            f"dimensions)\n  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")

    def body(a):
        for d, lo, hi in pairs:
            a = index_select(a, d, Tensor(_source_index(a.shape[d], lo, hi, mode), None))
        return a
    if mode == "circular":   # torch copies the wrapped pieces into slices of its result
        return shown_as(body(x), "CopySlices", x)
    name = "ReflectionPad" if mode == "reflect" else "ReplicationPad"
    return composite(f"{name}{k}DBackward0", body, [x], saves=False, uses_out=False)
