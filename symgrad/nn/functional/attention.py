"""Scaled dot-product attention of ``torch.nn.functional``: ``scaled_dot_product_attention``
with torch's reference ("math") arithmetic, and the mask helpers the attention modules share
(``canonical_mask``, ``causal_bias``).

Layer: front end (torch.nn mirror). Input: query (..., L, E), key (..., S, E), value
(..., S, Ev) tensors, eager or traced, and torch's arguments (``attn_mask`` boolean: keep where
True, or floating: added to the scores; ``is_causal``; ``scale``; ``enable_gqa``;
``dropout_p``). Output: (..., L, Ev) tensors built from primitives (matmul, softmax, where),
so the gradient is the composition's. The arithmetic is the math path's: q and k each scaled
by sqrt(scale), q @ k^T, the mask added, a softmax whose fully masked rows are 0 (torch's
``_safe_softmax``), dropout with torch's generator (``bernoulli_(1 - p)``, as ``at::dropout``),
then @ v. torch on the CPU runs a fused "flash" kernel instead when it can (no dropout, 4-d
inputs, equal head dims): its results differ from these by an ulp or so, and the result shows
that kernel's node (``_torch_node`` mirrors torch's choice of backend). It must not read or
write tensors' arrays.
"""

from __future__ import annotations

import math
import warnings

from ... import dtypes
from ...frontend.core import layout
from ...frontend.core.apply import as_tensor
from ...frontend.core.shown import shown_as
from ...frontend.core.tensor import Tensor
from ...frontend.functions.basic import eq, matmul, softmax, where
from ...frontend.functions.creation import ones, zeros_like
from ...frontend.functions.manipulation import repeat_interleave
from ...frontend.random.sampling import dropout

_NEG_INF = float("-inf")


def _check(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None, dropout_p: float,
           is_causal: bool) -> None:
    if not q.dtype is k.dtype is v.dtype:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {q.dtype.cpp_name} key.dtype: {k.dtype.cpp_name} and "
                           f"value.dtype: {v.dtype.cpp_name} instead.")
    if mask is not None and mask.dtype not in (dtypes.bool_, dtypes.float32, q.dtype):
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query "
                           f"dtype, but got attn_mask.dtype: {mask.dtype.cpp_name} and  "
                           f"query.dtype: {q.dtype.cpp_name} instead.")
    if mask is not None and is_causal:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be "
                           "set when is_causal=True")
    if not 0 <= dropout_p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got "
                           f"{dropout_p}")


def causal_bias(length: int, source: int, dtype) -> Tensor:
    """0 on and below the diagonal of an (L, S) matrix, -inf above: the math path's bias for
    ``is_causal`` (a lower-triangular boolean mask turned additive)."""
    keep = ones(length, source, dtype=dtypes.bool_).tril()
    return where(keep, as_tensor(0.0, dtype), _NEG_INF)


def _bias(mask: Tensor | None, is_causal: bool, length: int, source: int,
          dtype) -> Tensor | None:
    """What is added to the scores: -inf where a boolean mask is False, a float mask as is."""
    if is_causal:
        return causal_bias(length, source, dtype)
    if mask is None or mask.dtype is not dtypes.bool_:
        return mask
    return where(mask, as_tensor(0.0, dtype), _NEG_INF)


def _group_heads(q: Tensor, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
    """``enable_gqa``: key and value heads repeated to the query's number of heads."""
    hq, hk, hv = q.shape[-3], k.shape[-3], v.shape[-3]
    if hq % hk or hq % hv:
        raise RuntimeError("Number of heads in key and value must divide the number of heads "
                           "in query")
    if hq == hk == hv:
        return k, v
    return repeat_interleave(k, hq // hk, -3), repeat_interleave(v, hq // hv, -3)


def safe_softmax(scores: Tensor, masked: bool) -> Tensor:
    """softmax over the last dim, 0 in rows that are all -inf (torch's ``_safe_softmax``;
    those rows get no gradient). ``masked``: whether such rows can exist at all."""
    if not masked:
        return softmax(scores, -1)
    # (no branch on whether any row is dead: the values are softmax's bit for bit where none
    # is, and a step that reads no value mid-way can run compiled, captured or traced)
    dead = eq(scores, _NEG_INF).all(dim=-1, keepdim=True)
    return where(dead, 0.0, softmax(where(dead, 0.0, scores), -1))


def scaled_dot_product_attention(query, key, value, attn_mask=None,
                                 dropout_p: float = 0.0, is_causal: bool = False,
                                 scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """softmax(q @ k^T * scale + bias) @ v, with dropout on the weights when ``dropout_p``."""
    q, k, v = as_tensor(query), as_tensor(key), as_tensor(value)
    mask = None if attn_mask is None else as_tensor(attn_mask)
    _check(q, k, v, mask, dropout_p, is_causal)
    if q.dtype.is_storage and q.dtype.is_floating:   # torch's math path: float16 in float32
        wide = q.dtype.computes_in
        return scaled_dot_product_attention(q.to(wide), k.to(wide), v.to(wide), mask,
                                            dropout_p, is_causal, scale, enable_gqa).to(q.dtype)
    negative = scale is not None and scale < 0
    factor = math.sqrt((1.0 / math.sqrt(q.shape[-1]) if q.shape[-1] else math.inf)
                       if scale is None else abs(scale))
    qs = q * ((0.0 - factor) if negative else factor)
    if enable_gqa:
        k, v = _group_heads(q, k, v)
    scores = matmul(qs, k.transpose(-2, -1) * factor)
    bias = _bias(mask, is_causal, q.shape[-2], k.shape[-2], q.dtype)
    if bias is not None:
        added = scores + bias
        scores = added if added.dtype is scores.dtype else added.to(scores.dtype)
    weights = safe_softmax(scores, bias is not None)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, True)
    out = matmul(weights, v)
    shown = _torch_node(query, key, value, mask, dropout_p, enable_gqa)
    return out if shown is None else shown_as(out, shown, q, k, v)


_FLASH = "ScaledDotProductFlashAttentionForCpuBackward0"


def _torch_node(q: Tensor, k: Tensor, v: Tensor, mask, dropout_p: float,
                enable_gqa: bool) -> str | None:
    """The node torch's result shows, by the backend torch picks on the CPU: an empty input
    is its zeros-plus-result (AddBackward0); its fused flash kernel when every check of its
    ``use_flash_attention_cpp`` passes (no dropout, 4-d inputs of the same batch and heads --
    key/value heads grouped with ``enable_gqa`` --, equal head dims, nonempty sequences, last
    dims of stride 1, a mask without grad of 2 or 4 dims broadcasting to the scores); else
    None: the math path's own last node (matmul's)."""
    if not (q.numel() and k.numel() and v.numel()):
        return "AddBackward0"
    if dropout_p > 0.0 or not q.ndim == k.ndim == v.ndim == 4:
        return None
    (b, h, length, e), (bk, hk, source, ek) = q.shape, k.shape
    heads = hk == v.shape[1] and (h == hk or enable_gqa and h % hk == 0)
    if not (b == bk == v.shape[0] and heads and e == ek == v.shape[3]):
        return None
    if any(layout.strides(t)[-1] != 1 for t in (q, k, v)):
        return None
    if mask is not None and (mask.requires_grad or mask.ndim not in (2, 4) or
                             mask.shape[-2] not in (1, length) or
                             mask.shape[-1] not in (1, source) or
                             mask.ndim == 4 and (mask.shape[0] not in (1, b) or
                                                 mask.shape[1] not in (1, h))):
        return None
    return _FLASH


def canonical_mask(mask, mask_name: str, other_type, other_name: str, target_type,
                   check_other: bool = True) -> Tensor | None:
    """A mask as the attention modules take it: a boolean one becomes 0 / -inf of
    ``target_type`` (True: masked out), a floating one is kept; torch's warning when its
    dtype differs from ``other_type`` (the other mask's)."""
    if mask is None:
        return None
    mask = as_tensor(mask)
    is_float = mask.dtype.is_floating
    if mask.dtype is not dtypes.bool_ and not is_float:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype is not other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use "
                      f"same type for both instead.", UserWarning, stacklevel=3)
    if is_float:
        return mask
    return zeros_like(mask, dtype=target_type).masked_fill(mask, _NEG_INF)


def none_or_dtype(t) -> object:
    """The dtype of a tensor, None for None (torch's ``_none_or_dtype``)."""
    if t is None:
        return None
    if isinstance(t, Tensor):
        return t.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")
