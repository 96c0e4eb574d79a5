"""``torch.nn.functional.embedding_bag``: sums, means or maxima of bags of embedding rows,
without materializing the rows of each bag as a separate tensor.

Layer: front end (torch.nn mirror). Input: int64 or int32 indices, 2-D (B, L: B bags of L) or
1-D with ``offsets`` (each bag's start; ``include_last_offset``: the last entry ends the last
bag, as far as torch's kernel for the dtype honours it: ``_fast_path``), a (num_embeddings,
D) weight, ``mode`` sum/mean/max, ``per_sample_weights`` (sum only) and ``padding_idx``
(entries equal to it are left out, and out of the mean's count), with torch's checks and
messages. Output: (B, D), one node ``EmbeddingBagBackward0`` built from
primitives: the rows are gathered (times their weights), masked, and added into their bags in
index order (``scatter_add``), the mean divided by each bag's count; max takes each bag's
rows padded to the longest bag and the first maximum per column. An empty bag gives zeros.
The bags' bounds come from the offsets' values: traced offsets inside ``@symgrad.compile`` are
refused (traced indices and weights work). ``max_norm``, ``scale_grad_by_freq`` and
``sparse`` are not supported (as in ``embedding``).
"""

from __future__ import annotations

import numpy as np

from ... import dtypes
from ...errors import TracerValueError
from ...frontend.core.apply import apply, as_tensor
from ...frontend.core.tensor import Tensor
from .embedding_renorm import embedding_renorm_
from ...frontend.functions.basic import composite, logical_and, ne, where
from ...frontend.functions.basic import max as max_along

_MODES = {"sum": 0, "mean": 1, "max": 2}


def _check(idx: Tensor, w: Tensor, offsets, psw, mode: str) -> None:
    """torch's Python-level checks, in its order."""
    if psw is not None and tuple(psw.shape) != tuple(idx.shape):
        raise ValueError(f"embedding_bag: If per_sample_weights (torch.Size({list(psw.shape)})) "
                         f"is not None, then it must have the same shape as the input "
                         f"(torch.Size({list(idx.shape)}))")
    if w.ndim != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {w.ndim}")
    if idx.ndim == 2 and offsets is not None:
        raise ValueError(f"if input is 2D, then offsets has to be None, as input is treated is a "
                         f"mini-batch of fixed length sequences. However, found offsets of type "
                         f"{type(offsets)}")
    if idx.ndim == 1 and offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    if idx.ndim == 1 and as_tensor(offsets).ndim != 1:
        raise ValueError("offsets has to be a 1D Tensor")
    if idx.ndim not in (1, 2):
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{idx.ndim}")
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if psw is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. "
                                  f"per_sample_weights is only supported for mode='sum' (got "
                                  f"mode='{mode}'). Please open a feature request on GitHub.")
    if idx.dtype.is_complex or idx.dtype.is_bool:   # torch's arange of the indices' dtype
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{idx.dtype.scalar_type}'")
    if idx.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the "
                           f"following scalar types: Long, Int; but got {idx.type()} instead "
                           f"(while checking arguments for embedding_bag)")


def _bounds(offsets, n: int, include_last_offset: bool) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of the bags, from the offsets' values, with torch's checks."""
    off = as_tensor(offsets)
    if off.is_traced:
        raise TracerValueError("embedding_bag inside @symgrad.compile: the bags' bounds come "
                               "from the values of `offsets`, which are not known until the "
                               "compiled code runs. Pass the offsets as a constant (close over "
                               "them) or use 2-D input (bags of equal length).")
    starts = off.numpy().astype(np.int64)
    if starts.size and starts[0] != 0:
        raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the "
                           f"mini-batch has to start from position 0. However, got {starts[0]}")
    if starts.size and starts[-1] > n:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {n} but got "
                           f"offsets[-1] of {starts[-1]}")
    if np.any(np.diff(starts) < 0):
        raise RuntimeError("Expected i < index_size to be true, but got false.  (Could this "
                           "error message be improved?  If so, please report an enhancement "
                           "request to PyTorch.)")
    if include_last_offset:
        return starts[:-1], starts[1:]
    return starts, np.append(starts[1:], n)


def _check_values(idx: Tensor, rows: int) -> None:
    if idx.is_traced or not idx.numel():
        return
    flat = idx.numpy().reshape(-1)
    bad = np.flatnonzero((flat < 0) | (flat >= rows))
    if bad.size:
        raise RuntimeError(f"Index {bad[0]} of input takes value {flat[bad[0]]} which is not in "
                           f"the valid range [0, {rows})")


def _padding(padding_idx, rows: int):
    if padding_idx is None:
        return None
    if not -rows <= padding_idx < rows:
        raise RuntimeError(f"padding_idx must be within the number of embeddings, -{rows} "
                           f"through {rows - 1}, but got {padding_idx}")
    return padding_idx % rows


def _pooled(w: Tensor, idx: Tensor, psw: Tensor | None, starts: np.ndarray, ends: np.ndarray,
            mode: str, padding_idx, counts_to: np.ndarray) -> Tensor:
    """The (B, D) result: rows of ``w`` at ``idx`` pooled over [start, end) bags."""
    n, dim, bags = idx.shape[0], w.shape[1], starts.shape[0]
    if mode == "max":       # torch's max runs the last bag to the end of the input
        ends = ends + counts_to
    seg = np.zeros(n, np.int64)
    inside = np.zeros(n, np.bool_)
    for b, (s, e) in enumerate(zip(starts, ends)):
        seg[s:e], inside[s:e] = b, True
    valid = Tensor(inside, None)
    if padding_idx is not None:
        valid = logical_and(valid, ne(idx, padding_idx))
    if mode == "max":
        return _bag_max(w, idx, valid, starts, ends)
    spread = Tensor(np.broadcast_to(seg[:, None], (n, dim)), None)
    rows = apply("gather", w, idx.to(dtypes.int64).reshape(n, 1).expand(n, dim), axis=0)
    if psw is not None:
        rows = rows * psw.reshape(n, 1)
    rows = where(valid.reshape(n, 1), rows, 0.0)
    total = apply("scatter_add", rows, spread, axis=0, shape_to=(bags, dim))
    if mode == "sum":
        return total
    counts = apply("scatter_add", valid.to(w.dtype), Tensor(seg, None), axis=0,
                   shape_to=(bags,))
    # torch counts the last bag to the end of the input (include_last_offset or not)
    counts = counts + Tensor(counts_to.astype(w.dtype.np), None)
    nonempty = counts > 0
    safe = where(nonempty, counts, 1.0).reshape(bags, 1)        # (an empty bag: zeros)
    return where(nonempty.reshape(bags, 1), total / safe, 0.0)


def _bag_max(w: Tensor, idx: Tensor, valid: Tensor, starts: np.ndarray,
             ends: np.ndarray) -> Tensor:
    """Each bag's rows padded to the longest bag (invalid slots at -inf), the first maximum
    per column; an empty bag is zeros."""
    bags, dim = starts.shape[0], w.shape[1]
    longest = int((ends - starts).max()) if bags else 0
    if longest == 0:                  # every bag empty: zeros (still a function of w)
        return where(Tensor(np.zeros((bags, dim), np.bool_), None), w.sum(), 0.0)
    slots = starts[:, None] + np.arange(longest)[None, :]
    used = slots < ends[:, None]
    where_at = Tensor(np.where(used, slots, 0).reshape(-1), None)
    picked = apply("gather", idx.to(dtypes.int64), where_at, axis=0)
    ok = logical_and(apply("gather", valid, where_at, axis=0), Tensor(used.reshape(-1), None))
    rows = apply("gather", w, picked.reshape(-1, 1).expand(bags * longest, dim), axis=0)
    low = -np.inf if w.dtype.is_floating else np.iinfo(w.dtype.np).min
    rows = where(ok.reshape(-1, 1), rows, low).reshape(bags, longest, dim)
    values = max_along(rows, 1)[0]
    return where(ok.reshape(bags, longest).any(1).reshape(bags, 1), values, 0.0)


def _fast_path(w: Tensor, padding_idx) -> bool:
    """Whether torch takes its fast (fbgemm) kernel: float32/float16/bfloat16 rows of stride
    1 and no padding_idx. There a last bag that ends before the input does (include_last_offset)
    sums to its offset but counts (for the mean) and takes the max to the input's end; the
    generic kernel (float64...) runs the whole last bag to the end."""
    return w.dtype in (dtypes.float32, dtypes.float16, dtypes.bfloat16) and \
        padding_idx is None and w.stride()[-1] == 1


def embedding_bag(input, weight, offsets=None, max_norm=None,  # noqa: A002
                  norm_type: float = 2, scale_grad_by_freq: bool = False, mode: str = "mean",
                  sparse: bool = False, per_sample_weights=None,
                  include_last_offset: bool = False, padding_idx=None) -> Tensor:
    """The sum, mean or max of each bag of rows of ``weight``: (B, D)."""
    idx, w = as_tensor(input), as_tensor(weight)
    psw = None if per_sample_weights is None else as_tensor(per_sample_weights)
    _check(idx, w, offsets, psw, mode)
    if scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding_bag: scale_grad_by_freq and sparse are not "
                                  "supported")
    rows = w.shape[0]
    padding_idx = _padding(padding_idx, rows)
    _check_values(idx, rows)
    if max_norm is not None:        # torch: the rows read are renormalized in place first
        embedding_renorm_(w, idx, max_norm, norm_type)
    if idx.ndim == 2:
        b, length = idx.shape
        starts = np.arange(b, dtype=np.int64) * length
        ends = starts + length
        idx = idx.reshape(-1)
        psw = None if psw is None else psw.reshape(-1)
    else:
        starts, ends = _bounds(offsets, idx.shape[0], include_last_offset)
    extra = np.zeros(starts.shape[0], np.int64)
    if starts.shape[0] and ends[-1] < idx.shape[0]:     # include_last_offset, short of the end
        if _fast_path(w, padding_idx):   # its sum stops there, its count and max do not
            extra[-1] = idx.shape[0] - ends[-1]
        else:                            # the generic kernel's last bag runs to the end
            ends = np.append(ends[:-1], idx.shape[0])
    inputs = [w] + ([] if psw is None else [psw])
    return composite("EmbeddingBagBackward0",
                     lambda wt, *p: _pooled(wt, idx, p[0] if p else None, starts, ends, mode,
                                            padding_idx, extra), inputs, uses_out=False)
