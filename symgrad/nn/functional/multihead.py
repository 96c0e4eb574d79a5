"""``multi_head_attention_forward`` of ``torch.nn.functional``: the computation of
``nn.MultiheadAttention`` (torch's slow path, step for step).

Layer: front end (torch.nn mirror). Input: query (L, N, E) / key, value (S, N, Ek/Ev) tensors
(unbatched: no N), the projection weights and biases, masks (``key_padding_mask`` and
``attn_mask``: boolean, True = masked out, or floating, added) and torch's options. Output:
(attention output (L, N, E), weights (N, L, S) averaged over heads, per head, or None). With
``need_weights`` the weights are computed explicitly (q scaled by 1/sqrt(head_dim), bmm, mask
added, softmax, dropout, bmm), else through ``scaled_dot_product_attention``; the projections
are one ``linear`` for self-attention, a query and a key-value one for encoder-decoder
attention, else three, as torch splits them. It must not read or write tensors' arrays.
"""

from __future__ import annotations

import math

from ...frontend.core.apply import as_tensor
from ...frontend.core.tensor import Tensor
from ...frontend.functions.basic import matmul, softmax
from ...frontend.functions.creation import zeros
from ...frontend.functions.shapes import cat
from ...frontend.random.sampling import dropout
from .attention import canonical_mask, none_or_dtype, scaled_dot_product_attention
from .linear import linear, pad


def _check_dims(what: str, t: Tensor | None, allowed: tuple, text: str) -> None:
    if t is not None and t.ndim not in allowed:
        raise AssertionError(f"For {what}, expected `{text}` but found {t.ndim}-D tensor "
                             f"instead")


def _shape_check(query, key, value, key_padding_mask, attn_mask, num_heads: int) -> bool:
    """Whether the input is batched (3-d query), with torch's messages for wrong ranks."""
    if query.ndim not in (2, 3):
        raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received "
                             f"{query.ndim}-D query tensor")
    batched = query.ndim == 3
    what = "batched (3-D) `query`" if batched else "unbatched (2-D) `query`"
    if key.ndim != query.ndim or value.ndim != query.ndim:
        raise AssertionError(f"For {what}, expected `key` and `value` to be {query.ndim}-D but "
                             f"found {key.ndim}-D and {value.ndim}-D tensors respectively")
    kpm_rank = 2 if batched else 1
    _check_dims(what, key_padding_mask, (kpm_rank,),
                f"key_padding_mask` to be `None` or {kpm_rank}-D")
    _check_dims(what, attn_mask, (2, 3), "attn_mask` to be `None`, 2-D or 3-D")
    if not batched and attn_mask is not None and attn_mask.ndim == 3:
        expected = (num_heads, query.shape[0], key.shape[0])
        if tuple(attn_mask.shape) != expected:
            raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                 f"{attn_mask.shape}")
    return batched


def _split_rows(t: Tensor, count: int, rows: int) -> list:
    """A packed (count * rows, ...) weight or bias as ``count`` slices of ``rows``."""
    return [t[i * rows:(i + 1) * rows] for i in range(count)]


def _in_projection_packed(q, k, v, w, b) -> tuple:
    """q, k, v projected by the packed (3E, E) weight: one linear when q, k and v are one
    tensor (then split), a query and a key-value linear when k is v, else three."""
    e = q.shape[-1]
    if k is v:
        if q is k:
            proj = linear(q, w, b).unflatten(-1, (3, e))
            return proj[..., 0, :], proj[..., 1, :], proj[..., 2, :]
        w_q, w_kv = w[:e], w[e:]
        b_q, b_kv = (None, None) if b is None else (b[:e], b[e:])
        kv = linear(k, w_kv, b_kv).unflatten(-1, (2, e))
        return linear(q, w_q, b_q), kv[..., 0, :], kv[..., 1, :]
    ws = _split_rows(w, 3, e)
    bs = [None] * 3 if b is None else _split_rows(b, 3, e)
    return tuple(linear(x, wi, bi) for x, wi, bi in zip((q, k, v), ws, bs))


def _in_projection(q, k, v, w_q, w_k, w_v, b) -> tuple:
    """q, k, v projected by separate weights (kdim/vdim differ from embed_dim)."""
    e = q.shape[-1]
    for name, w, want in (("query", w_q, (e, e)), ("key", w_k, (e, k.shape[-1])),
                          ("value", w_v, (e, v.shape[-1]))):
        if tuple(w.shape) != want:
            raise AssertionError(f"expecting {name} weights shape of {want}, but got "
                                 f"{w.shape}")
    bs = [None] * 3 if b is None else _split_rows(b, 3, e)
    return tuple(linear(x, wi, bi) for x, wi, bi in zip((q, k, v), (w_q, w_k, w_v), bs))


def _square_mask(attn_mask: Tensor | None, tgt_len: int, src_len: int,
                 heads: int) -> Tensor | None:
    """attn_mask made 3-d, (1 or N * heads, L, S), its shape checked."""
    if attn_mask is None:
        return None
    if attn_mask.ndim == 2:
        if tuple(attn_mask.shape) != (tgt_len, src_len):
            raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but "
                               f"should be {(tgt_len, src_len)}.")
        return attn_mask.unsqueeze(0)
    if tuple(attn_mask.shape) != (heads, tgt_len, src_len):
        raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should "
                           f"be {(heads, tgt_len, src_len)}.")
    return attn_mask


def _pad_masks(masks: list) -> list:
    """Each mask (attn_mask, key_padding_mask) with one more key column of 0."""
    return [None if m is None else pad(m, (0, 1)) for m in masks]


def _static(t: Tensor | None, name: str, heads: int, head_dim: int) -> Tensor | None:
    if t is not None:
        if t.shape[0] != heads:
            raise AssertionError(f"expecting {name}.size(0) of {heads}, but got {t.shape[0]}")
        if t.shape[2] != head_dim:
            raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got "
                                 f"{t.shape[2]}")
    return t


def _heads(x: Tensor, static: Tensor | None, heads: int, head_dim: int) -> Tensor:
    """(S, N, E) -> (N * heads, S, head_dim), or the given static keys/values."""
    if static is not None:
        return static
    return x.reshape(x.shape[0], heads, head_dim).transpose(0, 1)


def _keys(k, v, masks: list, opts: dict, bsz: int, heads: int, head_dim: int) -> tuple:
    """k and v with bias_k/bias_v appended, split into heads, with a zero key appended
    (``add_zero_attn``); the masks padded to match."""
    bias_k, bias_v = opts["bias_k"], opts["bias_v"]
    if bias_k is not None and bias_v is not None:
        if opts["static_k"] is not None:
            raise AssertionError("bias cannot be added to static key.")
        if opts["static_v"] is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        masks = _pad_masks(masks)
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")
    k = _heads(k, _static(opts["static_k"], "static_k", bsz * heads, head_dim), bsz * heads,
               head_dim)
    v = _heads(v, _static(opts["static_v"], "static_v", bsz * heads, head_dim), bsz * heads,
               head_dim)
    if opts["add_zero_attn"]:
        shape = (bsz * heads, 1, head_dim)
        k = cat([k, zeros(shape, dtype=k.dtype)], 1)
        v = cat([v, zeros(shape, dtype=v.dtype)], 1)
        masks = _pad_masks(masks)
    return k, v, masks


def _merge_padding(attn_mask, kpm, bsz: int, heads: int, src_len: int):
    """The key padding mask spread over the heads and added to attn_mask."""
    if kpm is None:
        return attn_mask
    if kpm.shape[0] != bsz:
        raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                             f"{kpm.shape[0]}")
    if kpm.shape[1] != src_len:
        raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                             f"{kpm.shape[1]}")
    kpm = kpm.reshape(bsz, 1, 1, src_len).expand(-1, heads, -1, -1) \
        .reshape(bsz * heads, 1, src_len)
    return kpm if attn_mask is None else attn_mask + kpm


def _with_weights(q, k, v, attn_mask, dropout_p: float, is_causal: bool):
    """The explicit path: the (N * heads, L, S) weights and their product with v."""
    q_scaled = q * math.sqrt(1.0 / float(q.shape[-1]))
    if is_causal and attn_mask is None:
        raise AssertionError("FIXME: is_causal not implemented for need_weights")
    scores = matmul(q_scaled, k.transpose(-2, -1))
    if attn_mask is not None:
        scores = attn_mask + scores
    weights = softmax(scores, -1)
    if dropout_p > 0.0:
        weights = dropout(weights, p=dropout_p)
    return matmul(weights, v), weights


def _attend(q, k, v, attn_mask, dropout_p, is_causal, shape: tuple, need_weights: bool,
            average: bool):
    """(N * heads, L, head_dim) attention output rows as (L * N, E), and the weights."""
    tgt_len, bsz, heads, head_dim, src_len = shape
    embed = heads * head_dim
    if need_weights:
        out, weights = _with_weights(q, k, v, attn_mask, dropout_p, is_causal)
        out = out.transpose(0, 1).reshape(tgt_len * bsz, embed)
        weights = weights.reshape(bsz, heads, tgt_len, src_len)
        return out, (weights.mean(dim=1) if average else weights)
    if attn_mask is not None:
        attn_mask = attn_mask.unsqueeze(0) if attn_mask.shape[0] == 1 else \
            attn_mask.reshape(bsz, heads, -1, src_len)
    out = scaled_dot_product_attention(q.reshape(bsz, heads, tgt_len, head_dim),
                                       k.reshape(bsz, heads, src_len, head_dim),
                                       v.reshape(bsz, heads, src_len, head_dim), attn_mask,
                                       dropout_p, is_causal)
    return out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed), None


def _prepare_masks(query, key_padding_mask, attn_mask, need_weights: bool,
                   is_causal: bool) -> tuple:
    """torch's mask handling: both masks made additive; a causal hint alone (no padding
    mask, no weights wanted) drops attn_mask and lets the attention apply causality."""
    key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask",
                                      none_or_dtype(attn_mask), "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        return None, None, True
    attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, False)
    return key_padding_mask, attn_mask, is_causal and key_padding_mask is None


def _project(query, key, value, embed_dim: int, opts: dict) -> tuple:
    if opts["use_separate_proj_weight"]:
        if tuple(key.shape[:2]) != tuple(value.shape[:2]):
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match "
                                 f"value's {value.shape[:2]}")
        for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
            if opts[name] is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name} is None")
        return _in_projection(query, key, value, opts["q_proj_weight"], opts["k_proj_weight"],
                              opts["v_proj_weight"], opts["in_proj_bias"])
    if tuple(key.shape) != tuple(value.shape):
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
    if opts["in_proj_weight"] is None:
        raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
    return _in_projection_packed(query, key, value, opts["in_proj_weight"],
                                 opts["in_proj_bias"])


def multi_head_attention_forward(query, key, value, embed_dim_to_check: int, num_heads: int,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v,
                                 add_zero_attn: bool, dropout_p: float, out_proj_weight,
                                 out_proj_bias, training: bool = True, key_padding_mask=None,
                                 need_weights: bool = True, attn_mask=None,
                                 use_separate_proj_weight: bool = False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights: bool = True,
                                 is_causal: bool = False) -> tuple:
    """Multi-head attention of (L, N, E) queries over (S, N, E) keys and values."""
    opts = dict(in_proj_weight=in_proj_weight, in_proj_bias=in_proj_bias, bias_k=bias_k,
                bias_v=bias_v, add_zero_attn=add_zero_attn, static_k=static_k,
                static_v=static_v, use_separate_proj_weight=use_separate_proj_weight,
                q_proj_weight=q_proj_weight, k_proj_weight=k_proj_weight,
                v_proj_weight=v_proj_weight)
    batched = _shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = as_tensor(key_padding_mask).unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    key_padding_mask, attn_mask, is_causal = _prepare_masks(
        query, key_padding_mask, attn_mask, need_weights, is_causal)
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but "
                             f"got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    q, k, v = _project(query, key, value, embed_dim, opts)
    attn_mask = _square_mask(attn_mask, tgt_len, key.shape[0], bsz * num_heads)
    q = q.reshape(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k, v, (attn_mask, key_padding_mask) = _keys(k, v, [attn_mask, key_padding_mask], opts,
                                                bsz, num_heads, head_dim)
    src_len = k.shape[1]
    attn_mask = _merge_padding(attn_mask, key_padding_mask, bsz, num_heads, src_len)
    out, weights = _attend(q, k, v, attn_mask, dropout_p if training else 0.0, is_causal,
                           (tgt_len, bsz, num_heads, head_dim, src_len), need_weights,
                           average_attn_weights)
    out = linear(out, out_proj_weight, out_proj_bias).reshape(tgt_len, bsz, -1)
    if not batched:
        out = out.squeeze(1)
        weights = None if weights is None else weights.squeeze(0)
    return out, weights
