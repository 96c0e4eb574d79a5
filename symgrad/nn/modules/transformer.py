"""``TransformerEncoder``, ``TransformerDecoder`` (stacks of deep copies of one layer) and
``Transformer`` (an encoder-decoder with final layer norms), with
``Transformer.generate_square_subsequent_mask``.

Layer: front end (torch.nn mirror). Input: a layer module and a count (or, for Transformer,
d_model, nhead, the layer counts and the layers' options). Output: modules whose layers are
``copy.deepcopy``'d from the given one, as torch's (so all start with its weights; a
Transformer then redraws every matrix with ``xavier_uniform_`` in parameter order), with
torch's state_dict keys, warnings (``enable_nested_tensor`` ...) and messages. A causal
``mask`` is detected as torch does and passed on as ``is_causal``. torch's evaluation-mode
"nested tensor" fast path of the encoder (inference without gradients, a batch-first
left-aligned ``src_key_padding_mask``) computes the same math but leaves padded positions
zero before the final norm, and warns that nested tensors are a prototype: both are
mirrored. It must not compute outside forward.
"""

from __future__ import annotations

import copy
import warnings
from typing import Any
from collections.abc import Callable

from ... import dtypes
from ...frontend.core import grad_mode
from ...frontend.core.tensor import Tensor
from ...frontend.functions.creation import full
from .. import functional as F
from .. import init
from ..functional.attention import canonical_mask, none_or_dtype
from .container import ModuleList
from .module import Module
from .normalization import LayerNorm
from .transformer_layer import TransformerDecoderLayer, TransformerEncoderLayer


def square_subsequent_mask(sz: int, device: Any = None, dtype: Any = None) -> Tensor:
    """An (sz, sz) float mask: 0 on and below the diagonal, -inf above."""
    dt = dtypes.as_dtype(dtype) if dtype is not None else None
    return full((sz, sz), float("-inf"), dtype=dt, device=device).triu(diagonal=1)


def _seq_len(src: Tensor, batch_first: bool) -> int:
    if src.ndim == 2:
        return src.shape[0]
    return src.shape[1 if batch_first else 0]


def detect_is_causal_mask(mask: Tensor | None, is_causal: bool | None = None,
                          size: int | None = None) -> bool:
    """``is_causal`` if given, else whether ``mask`` equals the causal mask of its size (a
    traced mask's values are unknown: not detected, which computes the same)."""
    if is_causal is not None or mask is None:
        return is_causal is True
    sz = size if size is not None else mask.shape[-2]
    if tuple(mask.shape) != (sz, sz) or mask.is_traced:
        return False
    return bool((mask == square_subsequent_mask(sz, dtype=mask.dtype)).all())


_NESTED_PROTOTYPE = ("The PyTorch API of nested tensors is in prototype stage and will change in "
                     "the near future. We recommend specifying layout=torch.jagged when "
                     "constructing a nested tensor, as this layout receives active development, "
                     "has better operator coverage, and works with torch.compile.")


def _clones(module: Module, n: int) -> ModuleList:
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


def _why_not_nested(layer: Any) -> str:
    """Why torch's encoder will not use nested tensors with this layer ("" if it will)."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    attn = layer.self_attn
    reasons = ((layer.norm_first, f"{name}.norm_first was True"),
               (not attn.batch_first, f"{name}.self_attn.batch_first was not True(use "
                                      f"batch_first for better inference performance)"),
               (not attn.kdim == attn.vdim == attn.embed_dim,
                f"{name}.self_attn._qkv_same_embed_dim was not True"),
               (attn.in_proj_bias is None, f"{name}.self_attn was passed bias=False"),
               (not layer.activation_relu_or_gelu,
                f"{name}.activation_relu_or_gelu was not True"),
               (layer.norm1.eps != layer.norm2.eps,
                f"{name}.norm1.eps was not equal to {name}.norm2.eps"),
               (attn.num_heads % 2 == 1, f"{name}.self_attn.num_heads is odd"))
    return next((why for bad, why in reasons if bad), "")


def _left_aligned(padding: Tensor) -> bool:
    """Whether every row of a (N, S) padding mask is kept positions, then padded ones."""
    kept = (~padding).to(dtypes.int64)
    return bool((kept[:, 1:] <= kept[:, :-1]).all()) if padding.shape[1] > 1 else True


class TransformerEncoder(Module):
    """``num_layers`` copies of an encoder layer, applied in turn, then ``norm``."""

    def __init__(self, encoder_layer: Module, num_layers: int, norm: Module | None = None,
                 enable_nested_tensor: bool = True, mask_check: bool = True) -> None:
        super().__init__()
        self.layers = _clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why = _why_not_nested(encoder_layer)
        if enable_nested_tensor and why:
            warnings.warn(f"enable_nested_tensor is True, but self.use_nested_tensor is False "
                          f"because {why}", UserWarning, stacklevel=2)
            self.use_nested_tensor = False

    def _nested(self, src: Tensor, padding: Tensor | None, mask: Tensor | None) -> bool:
        """Whether torch would run the stack on nested tensors (see the module docstring)."""
        first = self.layers[0]
        if not self.use_nested_tensor or first.training or src.ndim != 3 or padding is None \
                or mask is not None or padding.is_traced or src.is_traced:
            return False
        if self.mask_check and not _left_aligned(padding != 0):
            return False
        attn = first.self_attn
        tensors = [src, attn.in_proj_weight, attn.in_proj_bias, attn.out_proj.weight,
                   attn.out_proj.bias] + [p for m in (first.norm1, first.norm2, first.linear1,
                                                     first.linear2) for p in (m.weight, m.bias)]
        return not (grad_mode.is_grad_enabled() and any(t.requires_grad for t in tensors))

    def forward(self, src: Tensor, mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None,
                is_causal: bool | None = None) -> Tensor:
        src_key_padding_mask = canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                              none_or_dtype(mask), "mask", src.dtype)
        mask = canonical_mask(mask, "mask", None, "", src.dtype, False)
        nested = self._nested(src, src_key_padding_mask, mask)
        if nested:      # torch's C++ warning (once: the default filter shows it once here)
            warnings.warn(_NESTED_PROTOTYPE, UserWarning, stacklevel=2)
        batch_first = self.layers[0].self_attn.batch_first
        is_causal = detect_is_causal_mask(mask, is_causal, _seq_len(src, batch_first))
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=mask, is_causal=is_causal,
                         src_key_padding_mask=src_key_padding_mask)
        if nested:
            output = output.masked_fill((src_key_padding_mask != 0).unsqueeze(-1), 0.0)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerDecoder(Module):
    """``num_layers`` copies of a decoder layer, applied in turn over ``memory``, then
    ``norm``."""

    def __init__(self, decoder_layer: Module, num_layers: int,
                 norm: Module | None = None) -> None:
        super().__init__()
        self.layers = _clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Tensor | None = None,
                memory_mask: Tensor | None = None, tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None,
                tgt_is_causal: bool | None = None, memory_is_causal: bool = False) -> Tensor:
        seq_len = _seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask,
                         memory_key_padding_mask=memory_key_padding_mask,
                         tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Module):
    """An encoder (``num_encoder_layers`` layers and a LayerNorm) and a decoder
    (``num_decoder_layers`` layers and a LayerNorm)."""

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable = F.relu,
                 custom_encoder: Any = None, custom_decoder: Any = None,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        options = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                   batch_first, norm_first, bias)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(*options, **factory)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(*options, **factory)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src: Tensor, tgt: Tensor, src_mask: Tensor | None = None,
                tgt_mask: Tensor | None = None, memory_mask: Tensor | None = None,
                src_key_padding_mask: Tensor | None = None,
                tgt_key_padding_mask: Tensor | None = None,
                memory_key_padding_mask: Tensor | None = None,
                src_is_causal: bool | None = None, tgt_is_causal: bool | None = None,
                memory_is_causal: bool = False) -> Tensor:
        batch_dim = 0 if self.batch_first else 1
        if src.ndim == 3 and src.shape[batch_dim] != tgt.shape[batch_dim]:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device: Any = None,
                                        dtype: Any = None) -> Tensor:
        """An (sz, sz) float mask: 0 on and below the diagonal, -inf above."""
        return square_subsequent_mask(sz, device=device, dtype=dtype)

    def _reset_parameters(self) -> None:
        for p in self.parameters():
            if p.ndim > 1:
                init.xavier_uniform_(p)
