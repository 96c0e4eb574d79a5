"""The arithmetic of optimizer updates, on NumPy arrays, rounded as torch's CPU kernels round.

Layer: front end (torch.optim mirror). Input: parameters, gradients and state tensors (eager).
Output: their arrays, and new values written back in place (each write bumps the tensor's
version counter, as an in-place update under no_grad does in torch, and drops a graph node
cached for the old value). The helpers reproduce torch's rounding: its ``add(.., alpha=)``,
``lerp`` and ``addcmul`` kernels compute ``a * b + c`` as one fused multiply-add, emulated
here: for float32 by one float64 product and sum rounded once to float32 (a float32 product
is exact in float64; the double rounding differs from a true FMA in a vanishing fraction of
cases), for float64 by error-free transformations. Scalars are cast to the tensor's dtype
first, as torch casts them. Square roots, dot products and sums are NumPy's (each one
function here, so that a test can substitute torch's), and the state's step counters and
buffers are made as torch makes them. Complex parameters: torch's complex kernels do not
fuse (``a + alpha * b`` is rounded twice), and its optimizers do most of their arithmetic on
``torch.view_as_real`` of the parameter, its gradient and its state: ``real`` and
``real_state`` give those views (the state tensors stay complex; writing a real pair array
into a complex tensor, or into a view, writes the complex tensor). It must not record
autograd history.
"""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..errors import TracerValueError
from ..frontend.core import lazy_updates
from ..frontend.core.tensor import Tensor


def array(t: Tensor, what: str) -> np.ndarray:
    """``t``'s array; a clear error for a traced tensor (compiled code cannot step)."""
    if t._value is None:
        raise TracerValueError(f"optimizer.step() needs the {what} as values, but it is traced "
                               f"(inside @symgrad.compile); step the optimizer outside the "
                               f"compiled function, on the gradients it returns")
    return t._value


@lazy_updates.updates
def write(t: Tensor | RealView, value: np.ndarray) -> None:
    """Store ``value`` as ``t``'s data, in place (NumPy views and aliases see it); real
    pairs ``(..., 2)`` into a complex tensor (or its ``RealView``) as its complex numbers."""
    if t.__class__ is RealView:
        t = t.base
    if t._value.dtype.kind == "c" and value.dtype.kind != "c":
        value = as_complex(value, t._value.dtype)
    if t._value.flags.writeable:
        np.copyto(t._value, value, casting="unsafe")
    else:
        t._value = value.astype(t._value.dtype, copy=True)
    t._node = None
    t._vc[0] += 1


class RealView:
    """A complex tensor as ``torch.view_as_real`` shows it: ``_value`` is the ``(..., 2)``
    real array sharing its memory; ``write`` into the view writes the complex tensor."""

    __slots__ = ("base",)

    def __init__(self, base: Tensor) -> None:
        self.base = base

    @property
    def _value(self) -> np.ndarray:
        return real(array(self.base, "optimizer state"))


def real(arr: np.ndarray) -> np.ndarray:
    """A complex array as pairs of reals ``(..., 2)`` sharing its memory (torch's
    ``view_as_real``); a real array as it is."""
    if arr.dtype.kind != "c":
        return arr
    return arr[..., None].view(arr.real.dtype)


def as_complex(pairs: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Real pairs ``(..., 2)`` as the complex array of ``dtype`` (``view_as_complex``)."""
    pairs = np.ascontiguousarray(pairs, np.empty(0, dtype).real.dtype)
    return pairs.view(dtype)[..., 0]


def real_state(state: dict, param: np.ndarray) -> dict:
    """A complex parameter's state with its complex tensors seen as ``RealView`` (what
    torch's step calls ``view_as_real`` on); a real parameter's state as it is."""
    if param.dtype.kind != "c":
        return state
    return {k: RealView(v) if isinstance(v, Tensor) and v._value.dtype.kind == "c" else v
            for k, v in state.items()}


def scalar(value: float, like: np.ndarray):
    """A Python number as a scalar of ``like``'s dtype (torch casts Scalars so)."""
    return like.dtype.type(value)


def fma(a: np.ndarray, b, c: np.ndarray) -> np.ndarray:
    """a * b + c, rounded once (torch's vectorized fmadd): float32 through float64; float64
    by error-free transformations (Dekker's product and Knuth's sum); complex numbers are
    not fused (torch's complex kernels multiply, then add)."""
    if c.dtype.kind == "c":
        return a * b + c
    if c.dtype == np.float32:
        return (np.multiply(a, b, dtype=np.float64) + c).astype(np.float32)
    with np.errstate(all="ignore"):
        p = a * b
        ah, al = _split(a)
        bh, bl = _split(np.asarray(b, c.dtype))
        e = ((ah * bh - p) + ah * bl + al * bh) + al * bl     # p + e = a * b exactly
        s = p + c
        bb = s - p
        t = (p - (s - bb)) + (c - bb)                          # s + t = p + c exactly
        out = s + (t + e)
    return np.where(np.isfinite(out), out, p + c)


def _split(x: np.ndarray) -> tuple:
    """Veltkamp's split of float64 x into two halves of 26 bits each (x = hi + lo)."""
    scaled = x * 134217729.0           # 2**27 + 1
    hi = scaled - (scaled - x)
    return hi, x - hi


def add_scaled(a: np.ndarray, b: np.ndarray, alpha: float) -> np.ndarray:
    """torch's ``a.add(b, alpha=alpha)``: a + alpha * b, fused."""
    if alpha == 1:
        return a + b
    return fma(b, scalar(alpha, a), a)


def lerp(start: np.ndarray, end: np.ndarray, weight: float) -> np.ndarray:
    """torch's ``start.lerp(end, weight)``: start + w (end - start) for |w| < 0.5, else
    end - (1 - w)(end - start), each fused."""
    w = scalar(weight, start)
    diff = end - start
    if abs(w) < 0.5:
        return fma(diff, w, start)
    return fma(diff, w - start.dtype.type(1), end)


def addcmul(a: np.ndarray, b: np.ndarray, c: np.ndarray, value: float) -> np.ndarray:
    """torch's ``a.addcmul(b, c, value=v)``: (v * b) * c + a, the last two fused."""
    return fma(scalar(value, a) * b, c, a)


def addcdiv(a: np.ndarray, b: np.ndarray, c: np.ndarray, value: float) -> np.ndarray:
    """torch's ``a.addcdiv(b, c, value=v)``: a + (v * b) / c."""
    return a + (scalar(value, a) * b) / c


def sqrt(x: np.ndarray) -> np.ndarray:
    """The square root, correctly rounded (torch 2.13's CPU sqrt is within an ulp but not
    always correctly rounded, at any size: about 1.5% of elements differ even for 2-64
    elements; tests substitute torch's here to check the rest bit for bit)."""
    return np.sqrt(x)


def dot(a: np.ndarray, b: np.ndarray):
    """The inner product of two flat vectors, a scalar of their dtype (NumPy's BLAS; torch
    takes MKL's, which may add in another order: tests substitute torch's here)."""
    return np.dot(a, b)


def abs_sum(a: np.ndarray):
    """The sum of |a| (NumPy's pairwise sum; torch's vectorized sum may add in another
    order)."""
    return np.abs(a).sum()


def new_step(value: float = 0.0) -> Tensor:
    """A step counter as torch keeps one: a 0-d tensor of the default float dtype (float64
    when that is the default, else float32)."""
    return Tensor(np.array(value, dtypes.get_default_dtype().np), None)


def bump(step_t: Tensor) -> float:
    """``step_t += 1`` in its own dtype; the new count as a Python float."""
    write(step_t, step_t._value + step_t._value.dtype.type(1))
    return float(step_t._value)


def state_tensor(like: np.ndarray, fill: float = 0.0) -> Tensor:
    """A state buffer shaped and typed as the parameter, filled with ``fill``."""
    return Tensor(np.full_like(like, fill), None)


def first_state(state: dict, p: Tensor, buffers: tuple, **counters: float) -> dict:
    """A parameter's ``state`` as torch creates it at its first step (an existing one as it
    is): ``step``, the ``counters`` (0-d, like ``step``, from their given values), then a
    zero buffer like the parameter per name in ``buffers``, in torch's key order."""
    if not state:
        state["step"] = new_step()
        for name, start in counters.items():
            state[name] = new_step(start)
        param = array(p, "parameter")
        for name in buffers:
            state[name] = state_tensor(param)
    return state


def stepped(group: dict):
    """``(p, its array, its gradient's array)`` for each parameter of ``group`` that has a
    gradient, in order; the gradient negated when the group maximizes."""
    for p in group["params"]:
        if p._grad is None:
            continue
        grad = array(p._grad, "gradient")
        yield p, array(p, "parameter"), (-grad if group["maximize"] else grad)
