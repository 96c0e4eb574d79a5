"""Scan primitives: running sums, products, log-sum-exps and extremum indices along one axis,
and the first-order linear recurrence their gradients need.

Layer: ops. Input: nothing. Output: registered ``OpDef``s of kind OTHER, each with attributes
``axis`` (a non-negative int) and, where a gradient needs the other direction, ``reverse``
(scan from the end of the axis towards its start). Lowering gives each one C loop along the
axis (``lower.cumulative.CumulativeKernel``): O(n), where a composition of slices and cats would be
O(n log n) in work and kernels, and a masked matrix product O(n^2).

- ``cumsum``: y_j = x_0 + ... + x_j. Its adjoint is the reverse cumsum.
- ``cumprod``: y_j = x_0 * ... * x_j.
- ``logcumsumexp``: y_j = log(exp(x_0) + ... + exp(x_j)), each step a stable log-add-exp.
- ``linrec``: y_j = a_j * y_{j-1} + b_j with y_{-1} = 0 (reverse: y_j = a_j * y_{j+1} + b_j).
  cumprod's and logcumsumexp's adjoints are linear recurrences, and so is linrec's own: every
  rule here is built from these ops, slices, cats and elementwise ops, and can be
  differentiated again. cumprod's rule divides nowhere, so it is exact with zeros in the input
  (torch's value and second derivative, without torch's first-zero special case).
- ``cumargmax`` / ``cumargmin``: the index of the running extremum (int64; torch's cummax
  and cummin: the latest index on ties, a NaN wins and stays). Their values are a ``gather``
  at these indices in the front end, whose gradient is torch's.

Float32 scans accumulate in float64 and round each output, as torch's CPU kernels do; int64
sums and products wrap modulo 2**64 (the front end turns bool into int64 first).
"""

from __future__ import annotations

import numpy as np

from ..dtypes import int64
from . import batching
from .registry import OTHER, OpDef, ShapeError, float_dtype, inexact_dtype, register, same_dtype


def _check_axis(name: str, shape: tuple, axis: int) -> None:
    if not 0 <= axis < len(shape):
        raise ShapeError(f"{name}: axis {axis} is out of range for a tensor of shape "
                         f"{tuple(shape)} (the front end gives a non-negative axis of an "
                         f"input of at least one dimension)")


def _scan_shape(name: str):
    def shape(s, *, axis, reverse=False):
        _check_axis(name, s, axis)
        return tuple(s)
    return shape


def _accumulating(a: np.ndarray) -> np.ndarray:
    """The array in the type a scan accumulates in: float64 for float32, complex128 for
    complex64 (torch's acc_type)."""
    wider = {np.dtype(np.float32): np.float64, np.dtype(np.complex64): np.complex128}
    return a.astype(wider[a.dtype]) if a.dtype in wider else a


def _directed(fn):
    """A NumPy scan ``fn(a, axis)`` that also runs from the end (``reverse``), accumulating
    float32 in float64 and rounding the result back."""
    def run(a, *, axis, reverse=False):
        src = np.flip(a, axis) if reverse else a
        with np.errstate(all="ignore"):
            out = fn(_accumulating(src), axis).astype(a.dtype)
        return np.flip(out, axis) if reverse else out
    return run


def _shift(b, y, axis: int, toward_end: bool, fill: float):
    """``y`` moved one place along ``axis`` (towards the end if ``toward_end``: out[j] =
    y[j-1]), ``fill`` in the place left empty."""
    n = y.shape[axis]
    if n == 0:
        return y
    one = tuple(1 if d == axis else s for d, s in enumerate(y.shape))
    kept = _window(b, y, axis, 0, n - 1) if toward_end else _window(b, y, axis, 1, n)
    pad = b.full(y, fill, one)
    return b.op("cat", *((pad, kept) if toward_end else (kept, pad)), axis=axis)


def _window(b, y, axis: int, start: int, stop: int):
    """``y[start:stop]`` along ``axis``."""
    starts = tuple(start if d == axis else 0 for d in range(y.ndim))
    stops = tuple(stop if d == axis else s for d, s in enumerate(y.shape))
    return b.op("slice", y, starts=starts, stops=stops, steps=(1,) * y.ndim)


def _adjoint_recurrence(b, a, g, axis: int, reverse: bool):
    """λ with λ_j = g_j + a_{j+1} λ_{j+1} (the adjoint of the recurrence with coefficients
    ``a`` run in direction ``reverse``): a reverse linrec of g with a moved one place."""
    coeff = _shift(b, a, axis, toward_end=reverse, fill=0.0)
    return b.op("linrec", coeff, g, axis=axis, reverse=not reverse)


# ---------------------------------------------------------------- cumsum

register(OpDef(
    name="cumsum", kind=OTHER, shape=_scan_shape("cumsum"), dtype=same_dtype, saves=False,
    kernel="cumulative",
    dependence="prefix",
    batch=batching.leading,
    numpy=_directed(lambda a, axis: np.cumsum(a, axis=axis)),
    vjp=lambda b, g, out, ins, *, axis, reverse=False: (
        b.op("cumsum", g, axis=axis, reverse=not reverse),),
    torch_name="CumsumBackward0", doc="running sum along axis (from the end if reverse)"))


# ---------------------------------------------------------------- cumprod

def _cumprod_vjp(b, g, out, ins, *, axis, reverse=False):
    # d y_i / d x_j = (product of x_k, k < j) * (product of x_k, j < k <= i) for i >= j, so
    # dx_j = y_{j-1} * r_j with r_j = g_j + x_{j+1} r_{j+1}: no division, exact at zeros.
    x = ins[0]
    if x.shape[axis] <= 1:
        return (g,)
    before = _shift(b, out, axis, toward_end=not reverse, fill=1.0)
    return (before * _adjoint_recurrence(b, x, g, axis, reverse),)


register(OpDef(
    name="cumprod", kind=OTHER, shape=_scan_shape("cumprod"), dtype=same_dtype, uses_out=True,
    kernel="cumulative",
    dependence="prefix",
    batch=batching.leading,
    numpy=_directed(lambda a, axis: np.cumprod(a, axis=axis)), vjp=_cumprod_vjp,
    torch_name="CumprodBackward0", doc="running product along axis (from the end if reverse)"))


# ---------------------------------------------------------------- logcumsumexp

def _logcumsumexp_vjp(b, g, out, ins, *, axis, reverse=False):
    # dx_j = sum_{i >= j} g_i exp(x_j - y_i) = exp(x_j - y_j) r_j with
    # r_j = g_j + exp(y_j - y_{j+1}) r_{j+1}: every exponent <= 0 (y only grows), so no
    # overflow.
    x = ins[0]
    if x.shape[axis] <= 1:
        return (g,)
    n = x.shape[axis]
    first = _window(b, out, axis, 0, n - 1)
    rest = _window(b, out, axis, 1, n)
    one = tuple(1 if d == axis else s for d, s in enumerate(x.shape))
    pad = b.full(x, 0.0, one)
    if reverse:      # r_j = g_j + exp(y_j - y_{j-1}) r_{j-1}
        coeff = b.op("cat", pad, b.op("exp", rest - first), axis=axis)
    else:
        coeff = b.op("cat", b.op("exp", first - rest), pad, axis=axis)
    r = b.op("linrec", coeff, g, axis=axis, reverse=not reverse)
    grad = b.op("exp", x - out) * r
    # torch's formula (exp(x_j + a reverse logcumsumexp of log|g_i| - y_i)) gives +0 where
    # x_j = -inf, but NaN there too where y_j = -inf (a prefix of -infs) or a y_i it sums
    # is NaN (then the last one is): the mask reads x and y only, so the rule stays linear.
    last = _window(b, out, axis, 0, 1) if reverse else _window(b, out, axis, n - 1, n)
    zero = b.op("logical_and", b.op("eq", x, float("-inf")), b.op("logical_and", b.op(
        "ne", out, float("-inf")), b.op("eq", last, last)))
    return (b.op("where", zero, b.full(grad, 0.0, ()), grad),)


def _np_logcumsumexp(a, axis):
    return np.logaddexp.accumulate(a, axis=axis)


register(OpDef(
    name="logcumsumexp", kind=OTHER, shape=_scan_shape("logcumsumexp"), dtype=float_dtype,
    kernel="cumulative",
    dependence="prefix",
    batch=batching.leading,
    uses_out=True, numpy=_directed(_np_logcumsumexp), vjp=_logcumsumexp_vjp,
    torch_name="LogcumsumexpBackward0",
    doc="running log(sum(exp)) along axis (from the end if reverse)"))


# ---------------------------------------------------------------- linrec

def _linrec_shape(a, b, *, axis, reverse=False):
    if tuple(a) != tuple(b):
        raise ShapeError(f"linrec: coefficient shape {tuple(a)} must equal input shape "
                         f"{tuple(b)}")
    _check_axis("linrec", a, axis)
    return tuple(a)


def _np_linrec(a, b, *, axis, reverse=False):
    dtype = b.dtype
    a, b = np.moveaxis(_accumulating(a), axis, 0), np.moveaxis(_accumulating(b), axis, 0)
    out = np.empty_like(b)
    order = range(b.shape[0] - 1, -1, -1) if reverse else range(b.shape[0])
    y = np.zeros_like(b[:1][0]) if b.shape[0] else None
    with np.errstate(all="ignore"):
        for j in order:
            y = a[j] * y + b[j]
            out[j] = y
    return np.moveaxis(out, 0, axis).astype(dtype)


def _linrec_vjp(b, g, out, ins, *, axis, reverse=False):
    a = ins[0]
    lam = _adjoint_recurrence(b, a, g, axis, reverse)
    previous = _shift(b, out, axis, toward_end=not reverse, fill=0.0)
    return (lam * previous, lam)


register(OpDef(
    name="linrec", kind=OTHER, shape=_linrec_shape, dtype=inexact_dtype, uses_out=True,
    kernel="cumulative",
    dependence="prefix",
    batch=batching.leading,
    numpy=_np_linrec, vjp=_linrec_vjp, torch_name="LinearRecurrenceBackward0",
    doc="y_j = a_j * y_{j-1} + b_j along axis from y_{-1} = 0 (y_{j+1}, from the end, if "
        "reverse)"))


# ---------------------------------------------------------------- cumargmax / cumargmin

def _np_cumarg(a, axis, larger: bool):
    """Index of the running extremum: a new element wins on ties (>=) and when it is NaN;
    after a NaN, only a later NaN wins."""
    a = np.moveaxis(a, axis, -1)
    run = (np.maximum if larger else np.minimum).accumulate(a, axis=-1)
    wins = a == run
    if a.dtype.kind == "f":
        wins = np.where(np.isnan(run), np.isnan(a), wins)
    at = np.where(wins, np.arange(a.shape[-1]), 0)
    out = np.maximum.accumulate(at, axis=-1) if a.shape[-1] else at
    return np.moveaxis(out.astype(np.int64), -1, axis)


def _arg_shape(name: str):
    def shape(s, *, axis):
        _check_axis(name, s, axis)
        return tuple(s)
    return shape


for _name, _larger in (("cumargmax", True), ("cumargmin", False)):
    register(OpDef(
        name=_name, kind=OTHER, shape=_arg_shape(_name), dtype=lambda d, **_: int64, vjp=None,
        kernel="cumulative",
        dependence="none",
        batch=batching.leading,
        numpy=lambda a, *, axis, _l=_larger: _np_cumarg(a, axis, _l),
        doc="index of the running extremum along axis (latest on ties; NaN wins)"))
