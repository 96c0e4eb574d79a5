"""torch's matrix-product family beyond matmul: addmm, addmv, addbmm, baddbmm, addr (and their
in-place methods), mv, vdot, inner, matrix_power.

Layer: front end, above ``functional``. Input: tensors. Output: tensors built from the
``matmul`` primitive (BLAS when large) and elementwise ops, with torch's grad_fns
(``AddmmBackward0``, ``AddmvBackward0``, ``AddbmmBackward0``, ``BaddbmmBackward0``,
``MvBackward0``, ``VdotBackward0``) and torch's shape errors. ``beta=0`` ignores ``input``
entirely, NaNs included, as torch documents (its gradient is zeros). matrix_power of a
negative exponent is the inverse's power, as torch's; integer matrices multiply exactly,
without BLAS.
"""

from __future__ import annotations

import math

import numpy as np

from ... import dtypes
from ...errors import ShapeError
from ...ops.registry import broadcast_shapes
from . import basic as F
from ..core import grad_mode
from ..core.apply import apply, as_tensor, attach_function, full
from ..core.engine import run_backward
from .basic import composite
from .decompositions import inv
from .inplace import update, update_resizing
from .shapes import reshape, transpose, unsqueeze
from ..core.tensor import Tensor
from ..core.arguments import tensor_arg, tensors_only



def _need(name: str, what: str, t: Tensor, ndim: int) -> None:
    if t.ndim != ndim:
        kind = {1: "vector", 2: "matrix", 3: "3D tensor"}[ndim]
        raise RuntimeError(f"{name}: {what} must be a {kind}, got {t.ndim}-D tensor of shape "
                           f"{list(t.shape)}")


def _scaled_sum(name: str, inp: Tensor, product, operands: list, beta, alpha) -> Tensor:
    """``beta * inp + alpha * product(*operands)`` as one composite named ``name``; ``inp``
    must broadcast to the product's shape. Of integer operands, ``beta`` and ``alpha`` are
    truncated to integers (torch converts them to the operands' dtype)."""
    if all(not t.dtype.is_differentiable for t in [inp] + operands):
        beta, alpha = int(beta), int(alpha)

    def body(i, *ops):
        p = product(*ops)
        if alpha != 1:
            p = p * alpha
        if beta == 0:
            return p
        try:
            fits = broadcast_shapes(tuple(i.shape), tuple(p.shape)) == tuple(p.shape)
        except ShapeError:
            fits = False
        if not fits:
            raise RuntimeError(f"{name[:-9].lower()}: input of shape {list(i.shape)} does not "
                               f"broadcast to the product's shape {list(p.shape)}")
        return (i if beta == 1 else i * beta) + p
    if beta != 0:
        return composite(name, body, [inp] + operands)

    def rule(g, out, ins):   # torch's grad * beta: zeros for the input, not None
        with grad_mode.enable_grad():
            again = body(*ins)
        create = grad_mode.is_grad_enabled()
        rest = run_backward([(again, g)], retain_graph=create, create_graph=create,
                            inputs=list(ins[1:]), input_hooks=False)
        return (full(ins[0], 0.0), *rest)
    return composite(name, body, [inp] + operands, rule, holomorphic=False)


def addmm(input, mat1, mat2, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)``."""
    inp, m1, m2 = tensor_arg(input), tensor_arg(mat1), tensor_arg(mat2)
    _need("addmm", "mat1", m1, 2)
    _need("addmm", "mat2", m2, 2)
    return _scaled_sum("AddmmBackward0", inp, F.matmul, [m1, m2], beta, alpha)


def addmv(input, mat, vec, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * (mat @ vec)``."""
    inp, m, v = tensor_arg(input), tensor_arg(mat), tensor_arg(vec)
    _need("addmv", "mat", m, 2)
    _need("addmv", "vec", v, 1)
    return _scaled_sum("AddmvBackward0", inp, F.matmul, [m, v], beta, alpha)


def addr(input, vec1, vec2, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * outer(vec1, vec2)``, with torch's kernel's order
    (``alpha * vec1[i] * vec2[j]``) and ``AddrBackward0``."""
    inp, v1, v2 = tensor_arg(input), tensor_arg(vec1), tensor_arg(vec2)
    for what, v in (("vec1", v1), ("vec2", v2)):
        if v.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {what}, but got {v.ndim}-D")
    if not any(t.dtype.is_floating or t.dtype.is_complex for t in (inp, v1, v2)) and (
            isinstance(alpha, float) or isinstance(beta, float)):
        raise RuntimeError(f"For integral input tensors, argument "
                           f"{'beta' if isinstance(beta, float) else 'alpha'} must not be a "
                           f"floating point number.")

    result = dtypes.promote_types(dtypes.promote_types(inp.dtype, v1.dtype), v2.dtype)
    mismatch = v1.dtype is not result or v2.dtype is not result

    def outer(a, b):
        p = unsqueeze(a if alpha == 1 else a * alpha, 1) * b
        if mismatch and p.requires_grad:    # torch's backward (grad.mv(vec2)) refuses
            p = attach_function(p.detach(), "AddrBackward0", _mixed_addr, [a, b], saves=False,
                                uses_out=False)
        return p
    return _scaled_sum("AddrBackward0", inp, outer, [v1, v2], beta, 1)


def _mixed_addr(g, out, ins):
    raise RuntimeError(f"addmv input tensors must have the same dtype, but got "
                       f"{ins[0].dtype.scalar_type}, {g.dtype.scalar_type}, and "
                       f"{ins[1].dtype.scalar_type}")


def _check_batches(name: str, b1: Tensor, b2: Tensor) -> None:
    _need(name, "batch1", b1, 3)
    _need(name, "batch2", b2, 3)
    if b1.shape[0] != b2.shape[0]:
        raise RuntimeError(f"{name}: batch1 and batch2 must have the same number of batches, "
                           f"got {b1.shape[0]} and {b2.shape[0]}")


def addbmm(input, batch1, batch2, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * sum_i(batch1[i] @ batch2[i])``."""
    inp, b1, b2 = tensor_arg(input), tensor_arg(batch1), tensor_arg(batch2)
    _check_batches("addbmm", b1, b2)
    if b1.dtype is dtypes.float16 and b1.shape[0]:
        return _addbmm_by_batch(inp, b1, b2, beta, alpha)

    def summed(a, b):   # (F.sum of integers is int64: torch keeps the operands' dtype)
        products = F.bmm(a, b)
        return F.sum(products, 0, dtype=None if products.dtype.is_differentiable else
                     products.dtype)
    return _scaled_sum("AddbmmBackward0", inp, summed, [b1, b2], beta, alpha)


def _addbmm_by_batch(inp: Tensor, b1: Tensor, b2: Tensor, beta, alpha) -> Tensor:
    """addbmm as torch's CPU code computes it: one addmm per batch into the result (the
    first with ``beta``, then 1), each rounded to the result's dtype (float16: each addmm
    accumulates in float32 and rounds once, so the result rounds once per batch)."""
    def body(i, a, b):
        out = i
        for k in range(a.shape[0]):
            out = addmm(out, a[k], b[k], beta=beta if k == 0 else 1, alpha=alpha)
        return out
    return composite("AddbmmBackward0", body, [inp, b1, b2])


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * (batch1 @ batch2)``, batch by batch."""
    inp, b1, b2 = tensor_arg(input), tensor_arg(batch1), tensor_arg(batch2)
    _check_batches("baddbmm", b1, b2)
    return _scaled_sum("BaddbmmBackward0", inp, F.bmm, [b1, b2], beta, alpha)


def addbmm_(self: Tensor, batch1, batch2, *, beta=1, alpha=1) -> Tensor:
    """In-place ``addbmm``. torch resizes its output to the product's (n, p) shape, so a self
    that broadcasts to it (a row, a number) becomes the (n, p) result."""
    b1, b2 = tensor_arg(batch1), tensor_arg(batch2)

    def compute(old):
        return addbmm(old, b1, b2, beta=beta, alpha=alpha)
    if b1.ndim == 3 and b2.ndim == 3 and tuple(self.shape) != (b1.shape[1], b2.shape[2]):
        return update_resizing(self, compute, "addbmm_")
    return update(self, compute, "addbmm_")


def _in_place(fn, name: str):
    def method(self: Tensor, *args, **kwargs) -> Tensor:
        return update(self, lambda old: fn(old, *args, **kwargs), name)
    method.__name__ = name
    method.__doc__ = f"In-place ``{fn.__name__}``."
    return method


def mv(mat, vec) -> Tensor:
    """Matrix times vector."""
    m, v = tensor_arg(mat), tensor_arg(vec)
    if m.ndim != 2 or v.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {m.ndim}, {v.ndim}")
    return F.matmul(m, v)


def vdot(a, b) -> Tensor:
    """The dot product of two vectors, the first conjugated (``VdotBackward0``; real
    tensors: no conjugation)."""
    tensors_only("vdot", input=a, other=b)
    a, b = tensor_arg(a), tensor_arg(b)
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.dtype.is_complex:
        return composite("VdotBackward0", lambda u, v: F.dot(apply("conj", u), v), [a, b])
    return composite("VdotBackward0", F.dot, [a, b])


def inner(a, b) -> Tensor:
    """Sums of products over the last dims: shape ``a.shape[:-1] + b.shape[:-1]``."""
    a, b = tensor_arg(a), tensor_arg(b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if a.shape[-1] != b.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but "
                           f"got shapes {list(a.shape)} and {list(b.shape)}")
    k = a.shape[-1]

    def rows(t):     # (-1, k) unless k is 0 (then -1 is ambiguous)
        return reshape(t, (-1, k) if k else (math.prod(t.shape[:-1]), 0))
    out = F.matmul(rows(a), transpose(rows(b), 0, 1))
    return reshape(out, tuple(a.shape[:-1]) + tuple(b.shape[:-1]))


def _int_matmul(a: Tensor, b: Tensor) -> Tensor:
    """An exact integer matrix product (the matmul primitive is floating only), of the
    operands' dtype as torch's (the sum wraps in int64, then is cast back)."""
    out = F.sum(unsqueeze(a, -1) * unsqueeze(b, -3), -2)
    dtype = dtypes.promote_types(a.dtype, b.dtype)
    return out if out.dtype is dtype else out.to(dtype)


def matrix_power(x, n: int) -> Tensor:
    """``x @ x @ ... @ x`` (``n`` factors; the identity for 0) of square matrices in the last
    two dims, by repeated squaring."""
    x = tensor_arg(x)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        shown = f"{x.shape[-2]} by {x.shape[-1]} matrices" if x.ndim >= 2 else \
            f"a {x.ndim}-D tensor"
        raise RuntimeError(f"linalg.matrix_power: A must be batches of square matrices, but "
                           f"they are {shown}")
    if not isinstance(n, int):
        raise TypeError(f"matrix_power(): n must be an int, got {n!r}")
    if n < 0:   # torch: the inverse's power (LinAlgError for a singular matrix)
        return inv(x) if n == -1 else matrix_power(inv(x), -n)
    if n == 0:      # the identity, with torch's zero gradient
        eye = full(x, 0, x.shape) + as_tensor(np.eye(x.shape[-1]), x.dtype)
        return attach_function(eye, "CopyBackwards", lambda g, out, ins: (full(ins[0], 0),),
                               [x], saves=False, uses_out=False)
    if n == 1:
        return x.clone()
    return F.power_by_squaring(x, n, F.matmul if x.dtype.is_differentiable else _int_matmul)


__all__ = ["addmm", "addmv", "addbmm", "baddbmm", "mv", "vdot", "inner", "matrix_power", "addr"]
METHODS = {name: globals()[name] for name in __all__}
METHODS.update(addmm_=_in_place(addmm, "addmm_"), addmv_=_in_place(addmv, "addmv_"),
               addbmm_=addbmm_, baddbmm_=_in_place(baddbmm, "baddbmm_"),
               addr_=_in_place(addr, "addr_"))
