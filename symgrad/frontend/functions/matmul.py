"""torch's matrix products: ``matmul`` (and ``@``), ``mm``, ``dot``, ``bmm``.

Layer: front end, above ``apply`` and ``shapes``. Input: tensors of torch's 1-D, 2-D and
broadcast-batched forms. Output: one ``matmul`` primitive on (..., M, K) @ (..., K, N)
operands, with torch's grad_fn names (Dot, Mv, Mm, and for batches the view torch's folded
product ends with) and torch's errors for shapes and dtypes (integer products compute, as
torch's CPU kernels do; bools and mixed dtypes raise).
"""

from __future__ import annotations

import math

from ...dims import same_shape
from ...ops.registry import broadcast_shapes
from ..core import grad_mode
from ..core.apply import apply
from ..core.arguments import tensor_arg, tensors_only
from ..core.tensor import Tensor
from .shapes import broadcast_to, reshape


def matmul(a, b, *, _batched_name: str = "UnsafeViewBackward0") -> Tensor:
    """torch.matmul: 1-D, 2-D and broadcast-batched operands (with torch's grad_fn names:
    Dot, Mv, Mm, and for batches the view torch's folded product ends with)."""
    if isinstance(a, Tensor) and isinstance(b, Tensor) and len(a.shape) == 2 == len(b.shape) \
            and a.dtype is b.dtype and a.dtype.is_floating and not a.dtype.is_storage \
            and a.shape[1] == b.shape[0]:   # (the common case, at once: two float matrices)
        return apply("matmul", a, b, _torch_name="MmBackward0")
    tensors_only("matmul", input=a, other=b)
    a, b = tensor_arg(a), tensor_arg(b)
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{a.ndim}D and {b.ndim}D")
    _check_product_dtypes(a, b)
    if a.dtype.is_storage:   # int32, float16...: the product of their compute type, rounded
        return matmul(a.to(a.dtype.computes_in), b.to(a.dtype.computes_in),
                      _batched_name=_batched_name).to(a.dtype)
    a2 = reshape(a, (1,) + a.shape) if a.ndim == 1 else a
    b2 = reshape(b, b.shape + (1,)) if b.ndim == 1 else b
    if a2.shape[-1] != b2.shape[-2]:
        raise RuntimeError(_mismatch(a.shape, b.shape))
    batch = broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    a3 = broadcast_to(a2, batch + a2.shape[-2:]) if not same_shape(a2.shape[:-2], batch) else a2
    b3 = broadcast_to(b2, batch + b2.shape[-2:]) if not same_shape(b2.shape[:-2], batch) else b2
    name = "MmBackward0" if a.ndim == 2 and b.ndim == 2 else (
        "DotBackward0" if a.ndim == 1 and b.ndim == 1 else
        "MvBackward0" if b.ndim == 1 and a.ndim == 2 else
        "SqueezeBackward4" if a.ndim == 1 and b.ndim == 2 else _batched_name)
    shape = batch + ((a.shape[-2],) if a.ndim > 1 else ()) + ((b.shape[-1],) if b.ndim > 1 else ())
    if name == "UnsafeViewBackward0" and _folds_transposed(a, b):
        name = "CloneBackward0" if math.prod(shape) else "TransposeBackward0"
    out = apply("matmul", a3, b3, _torch_name=name)
    return out if same_shape(out.shape, shape) else \
        apply("reshape", out, shape_to=shape, _torch_name=name)


def _folds_transposed(a: Tensor, b: Tensor) -> bool:
    """Whether torch computes matrix ``a`` @ batched ``b`` as (b^T folded @ a^T)^T, made
    contiguous (its ``should_fold``: when ``a`` requires grad, so that its gradient is one
    mm, not a batch of them); torch 2.13 takes a 3-D ``a`` of batch 1 against a 3-D ``b`` of
    another batch for a matrix there. The result's node is then CloneBackward0 (or the
    transpose's, for an empty result, which is contiguous as it is)."""
    matrix = a.ndim == 2 or a.ndim == 3 and b.ndim == 3 and a.shape[0] == 1 != b.shape[0]
    return matrix and b.ndim >= 3 and a._requires_grad and grad_mode.is_grad_enabled()


def _mismatch(sa: tuple, sb: tuple) -> str:
    """torch's message for operands whose inner sizes differ."""
    if len(sa) == 2 and len(sb) == 1:
        return f"size mismatch, got input ({sa[0]}), mat ({sa[0]}x{sa[1]}), vec ({sb[0]})"
    if len(sa) == 1 and len(sb) == 1:
        return (f"inconsistent tensor size, expected tensor [{sa[0]}] and src [{sb[0]}] to "
                f"have the same number of elements, but got {sa[0]} and {sb[0]} elements "
                f"respectively")
    rows = math.prod(sa[:-1]) if len(sa) > 1 else 1
    cols = sb[-1] if len(sb) > 1 else 1
    return (f"mat1 and mat2 shapes cannot be multiplied ({rows}x{sa[-1]} and "
            f"{sb[-2] if len(sb) > 1 else sb[0]}x{cols})")


def _check_product_dtypes(a: Tensor, b: Tensor) -> None:
    """torch's errors for a matrix product of two dtypes, or of bools (its CPU kernels exist
    for every other dtype; integer products give no gradient)."""
    kernel = "dot" if a.ndim == b.ndim == 1 else "addmv_impl_cpu" if b.ndim == 1 and \
        a.ndim == 2 else "bmm" if a.ndim > 2 and b.ndim > 2 else "addmm_impl_cpu_"
    if a.dtype is not b.dtype:
        raise RuntimeError(
            f"dot : expected both vectors to have same dtype, but found {a.dtype.scalar_type} "
            f"and {b.dtype.scalar_type}" if kernel == "dot" else
            f"addmv input tensors must have the same dtype, but got {b.dtype.scalar_type}, "
            f"{a.dtype.scalar_type}, and {b.dtype.scalar_type}" if kernel == "addmv_impl_cpu"
            else f"expected scalar type {a.dtype.scalar_type} but found "
            f"{b.dtype.scalar_type}" if kernel == "bmm" else
            f"expected m1 and m2 to have the same dtype, but got: {a.dtype.cpp_name} != "
            f"{b.dtype.cpp_name}")
    if a.dtype.is_bool:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


def mm(a, b) -> Tensor:
    a, b = tensor_arg(a), tensor_arg(b)
    if a.ndim != 2 or b.ndim != 2:
        raise RuntimeError(f"mm: both arguments must be 2-D, got {a.ndim}-D and {b.ndim}-D")
    return matmul(a, b)


def dot(a, b) -> Tensor:
    tensors_only("dot", input=a, tensor=b)
    a, b = tensor_arg(a), tensor_arg(b)
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if not same_shape(a.shape, b.shape):
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src "
                           f"[{b.shape[0]}] to have the same number of elements, but got "
                           f"{a.shape[0]} and {b.shape[0]} elements respectively")
    return matmul(a, b)


def bmm(a, b) -> Tensor:
    a, b = tensor_arg(a), tensor_arg(b)
    if a.ndim != 3 or b.ndim != 3:
        raise RuntimeError(f"bmm: both arguments must be 3-D, got {a.ndim}-D and {b.ndim}-D")
    return matmul(a, b, _batched_name="BmmBackward0")
