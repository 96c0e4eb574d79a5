"""``MultiheadAttention`` (and torch's ``NonDynamicallyQuantizableLinear``, its output
projection's class).

Layer: front end (torch.nn mirror). Input: embed_dim, num_heads and torch's options
(dropout, bias, add_bias_kv, add_zero_attn, kdim, vdim, batch_first, device, dtype). Output: a
module whose parameters are torch's by name, shape, registration order and initial values
after ``manual_seed`` (``in_proj_weight`` or ``q_proj_weight``/``k_proj_weight``/
``v_proj_weight``, ``in_proj_bias``, ``bias_k``/``bias_v``, ``out_proj``: the output
projection's Linear init draws first, then Xavier-uniform projections, zero biases,
Xavier-normal bias_k/bias_v), and whose forward is ``nn.functional.multi_head_attention_forward``
(torch's slow path; its eval-mode fused fast path computes the same math). It must not
compute outside forward and initialization.
"""

from __future__ import annotations

from typing import Any

from ...frontend.core.tensor import Tensor
from .. import functional as F
from .. import init
from ..functional.attention import canonical_mask, none_or_dtype
from ..parameter import Parameter
from ._common import new_empty
from .linear import Linear
from .module import Module


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear under another name (torch's, for MultiheadAttention's ``out_proj``)."""


class MultiheadAttention(Module):
    """Attention of queries over keys and values with ``num_heads`` heads."""

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0,
                 bias: bool = True, add_bias_kv: bool = False, add_zero_attn: bool = False,
                 kdim: int | None = None, vdim: int | None = None, batch_first: bool = False,
                 device: Any = None, dtype: Any = None) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self._projections(device, dtype)
        if bias:
            self.in_proj_bias = Parameter(new_empty((3 * embed_dim,), device, dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        device=device, dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(new_empty((1, 1, embed_dim), device, dtype))
            self.bias_v = Parameter(new_empty((1, 1, embed_dim), device, dtype))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _projections(self, device: Any, dtype: Any) -> None:
        e = self.embed_dim
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(new_empty((e, e), device, dtype))
            self.k_proj_weight = Parameter(new_empty((e, self.kdim), device, dtype))
            self.v_proj_weight = Parameter(new_empty((e, self.vdim), device, dtype))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(new_empty((3 * e, e), device, dtype))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)

    def _reset_parameters(self) -> None:
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def forward(self, query: Tensor, key: Tensor, value: Tensor,
                key_padding_mask: Tensor | None = None, need_weights: bool = True,
                attn_mask: Tensor | None = None, average_attn_weights: bool = True,
                is_causal: bool = False) -> tuple:
        batched = query.ndim == 3
        key_padding_mask = canonical_mask(key_padding_mask, "key_padding_mask",
                                          none_or_dtype(attn_mask), "attn_mask", query.dtype)
        attn_mask = canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, False)
        if self.batch_first and batched:
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = (x.transpose(1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = not self._qkv_same_embed_dim
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            use_separate_proj_weight=separate, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights, is_causal=is_causal)
        if self.batch_first and batched:
            return out.transpose(1, 0), weights
        return out, weights

    def merge_masks(self, attn_mask: Tensor | None, key_padding_mask: Tensor | None,
                    query: Tensor) -> tuple:
        """The two (additive) masks as one (N, heads, L, L) mask and torch's mask type
        (1: padding only, 2: an attention mask), for self-attention of a batch-first query."""
        mask_type, merged = None, None
        if key_padding_mask is not None:
            mask_type, merged = 1, key_padding_mask
        if attn_mask is not None:
            batch, seq, _ = query.shape
            mask_type = 2
            if attn_mask.ndim == 3:
                merged = attn_mask.reshape(batch, -1, seq, seq)
            else:
                merged = attn_mask.reshape(1, 1, seq, seq).expand(batch, self.num_heads, -1, -1)
            if key_padding_mask is not None:
                merged = merged + key_padding_mask.reshape(batch, 1, 1, seq) \
                    .expand(-1, self.num_heads, -1, -1)
        return merged, mask_type
