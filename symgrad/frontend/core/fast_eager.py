"""An elementwise op on eager values computed straight by NumPy, when its rules need not run.

Layer: front end, beside ``apply`` (which calls it first for every eager elementwise op).
Input: an op and its operands. Output: the result's NumPy array, or None where the general path
must decide (traced operands, mixed dtypes, integers). Most of a small eager op's time is
bookkeeping: this path skips the promotion, shape and dtype rules where NumPy's own broadcasting
and promotion give the same result.
"""

from __future__ import annotations

import warnings

import numpy as np

from ... import dtypes
from .halfprec import IN_OWN_DTYPE, widened_values
from .tensor import Tensor


# NumPy's floating-point RuntimeWarnings (overflow, log(0), 0/0) from the ops' NumPy references
# are not the user's business: torch computes inf/NaN silently. The fast path computes
# without entering np.errstate (a context manager costs about as much as a small op); these
# filters silence the warnings it may raise, and only those: they match warnings attributed to
# this module and the op definitions. A user's np.seterr(all="raise") or a warnings filter
# turning them into errors makes the op raise instead; it is then computed again inside
# np.errstate(all="ignore"), which is what the other paths do.
warnings.filterwarnings("ignore", category=RuntimeWarning,
                        module=r"symgrad\.frontend\.core\.fast_eager$")
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"symgrad\.ops\.")


def fast_elementwise(op, args: tuple):
    """The value of elementwise ``op`` on ``args``, computed by NumPy without consulting the
    op's promotion, shape and dtype rules, when that is safe: every tensor operand is eager
    and of one floating dtype (bool masks aside) and Python numbers become scalars of that
    dtype, so NumPy broadcasts and promotes as the rules would; a result of another dtype
    only as ``_as_its_rule`` says (a complex number's parts). None: the general path."""
    # why not split: every eager elementwise op runs this; a helper call costs more than
    # the loop (one loop over the operands for their dtype and values)
    dtype = None
    values = []
    numbers = masks = False
    for a in args:
        if isinstance(a, Tensor):
            v = a._value
            if v is None:
                return None
            dt = v.dtype
            if dt.kind == "f" or dt.kind == "c":
                if dtype is None:
                    dtype = dt
                elif dt != dtype:
                    return None
            elif dt.kind == "b":
                masks = True
            else:
                return None
            values.append(v)
        elif type(a) is float or type(a) is int:
            values.append(a)
            numbers = True
        else:
            return None
    if dtype is None or dtype.kind == "c" and _kernel_dtype(op, len(values), dtype) is None:
        return None
    if numbers:
        to_scalar = dtype.type
        values = [v if type(v) is np.ndarray else to_scalar(v) for v in values]
    half = dtype.itemsize == 2
    if half and op.name not in IN_OWN_DTYPE:   # float16: in float32, rounded once
        values = widened_values(values)
    value = kernel_value(op.numpy_fast, values)
    if value is None:
        return None
    if half and value.dtype.kind == "f":
        value = value.astype(dtype)
    return value if _as_its_rule(op, len(values), dtype, value.dtype, numbers or masks) \
        else None


def kernel_value(kernel, values) -> np.ndarray | None:
    """``kernel(*values)`` as an array, NumPy's floating-point warnings silenced (the filters
    above; a user's ``np.seterr`` or warnings filter that raises: computed again inside
    ``np.errstate``). None: shapes that do not broadcast, an op of integers only
    (``bitwise_and``): the general path says so, torch's way."""
    try:
        value = kernel(*values)
    except (FloatingPointError, RuntimeWarning):
        with np.errstate(all="ignore"):
            value = kernel(*values)
    except (ValueError, TypeError):
        return None
    return value if type(value) is np.ndarray else np.asarray(value)


def _as_its_rule(op, n: int, dtype: np.dtype, result: np.dtype, promoted: bool) -> bool:
    """Whether NumPy's ``result`` dtype, of ``n`` operands of ``dtype`` (``promoted``: Python
    numbers or bool masks among them), is what the op's rules give: the same floating dtype or
    a mask; another only where ``_kernel_dtype`` says so, of tensors of ``dtype`` alone."""
    if dtype.kind == "c":
        return result == _kernel_dtype(op, n, dtype) and not (result.kind == "f" and promoted)
    return result == dtype or result.kind == "b" or (
        not promoted and result == _kernel_dtype(op, n, dtype))


_KERNELS: dict = {}   # (op name, arity, NumPy dtype) -> ``_kernel_dtype``


def _kernel_dtype(op, n: int, dtype: np.dtype):
    """The NumPy dtype of ``op`` of ``n`` operands of ``dtype`` by its own rule, if its fast
    kernel is its reference (not add's and sub's: torch's complex ``x + alpha * y``); None
    when the fast path may not take them (the rule refuses them: a complex ``lt``)."""
    key = (op.name, n, dtype)
    if key not in _KERNELS:
        d = dtypes.from_numpy(dtype)
        try:
            out = op.dtype(*[d] * n).np if op.numpy_fast is op.numpy else None
        except TypeError:
            out = None
        _KERNELS[key] = out
    return _KERNELS[key]
