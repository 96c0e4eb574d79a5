"""Tensor factories (torch's names): zeros, ones, full, empty, arange, linspace, logspace, eye,
tril_indices, triu_indices, *_like, from_numpy, meshgrid (random ones are ``random.py``'s).

Layer: front end. Input: sizes, fill values, dtypes, and ``device=`` (the CPU; see
``device.py``). Output: new eager leaf tensors. Inside a traced function they become constants
of the graph. ``empty`` gives zeros (torch leaves the memory uninitialized: any value is
allowed, and zeros make programs that read it by mistake reproducible).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ... import dtypes
from ...size import Size
from ...devices import check as check_device
from ...dims import Dim, NotGeneric, span
from ...size import array_strides
from .shapes import reshape
from ..core import grad_mode, layout
from .keywords import write_out
from ..core.conversions import check_fits
from ..core.apply import as_tensor as apply_as_tensor, full as full_like_traced, scalar
from ..core.tensor import Tensor, tensor as copied, traced_numbers
from ..core.arguments import size_args

def _sizes(size: tuple) -> tuple:
    size = size_args(size)
    try:
        out = tuple(s if isinstance(s, Dim) else int(s.__index__()) for s in size)
    except (AttributeError, TypeError):
        raise TypeError(f"expected sizes as ints or one tuple of ints, got "
                        f"({', '.join(type(s).__name__ for s in size)})") from None
    for s in out:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: "
                               f"[{', '.join(str(n) for n in out)}]")
    return out


def _make(value: np.ndarray, dtype, requires_grad: bool, default=None, device=None) -> Tensor:
    check_device(device)
    dt = dtypes.as_dtype(dtype) if dtype is not None else (default or dtypes.DEFAULT_FLOAT)
    return copied(value, dtype=dt, requires_grad=requires_grad)


_FILLED = frozenset((dtypes.float32, dtypes.float64, dtypes.int64, dtypes.int32, dtypes.bool_))


def _filled(sizes: tuple, value, dtype, requires_grad: bool, default=None,
            device=None) -> Tensor:
    """``value`` in every element; with a call-time size (dims.Dim, in a shape-generic
    trace), one traced scalar broadcast to the shape instead of an array of the traced size."""
    dims_ = [s for s in sizes if isinstance(s, Dim)]
    if not dims_:
        if not requires_grad:   # (filled in its dtype at once: what the copy below computes)
            check_device(device)
            dt = dtypes.as_dtype(dtype) if dtype is not None else \
                (default or dtypes.DEFAULT_FLOAT)
            if dt in _FILLED:
                return Tensor(np.full(sizes, value, dt.np), None)
        return _make(np.full(sizes, value), dtype, requires_grad, default, device)
    if requires_grad:
        raise NotGeneric("a leaf tensor of a call-time size")
    check_device(device)
    dt = dtypes.as_dtype(dtype) if dtype is not None else (default or dtypes.DEFAULT_FLOAT)
    return full_like_traced(scalar(dims_[0], dtypes.int64), value, sizes, dt)


def _filled_out(sizes: tuple, value, dtype, requires_grad: bool, device, out) -> Tensor:
    """``_filled``, or with ``out=``: written into ``out``, of its dtype unless ``dtype``
    says otherwise (torch's creation functions take out's dtype)."""
    if out is None:
        return _filled(sizes, value, dtype, requires_grad, device=device)
    made = _filled(sizes, value, out.dtype if dtype is None else dtype, False, device=device)
    with grad_mode.no_grad():
        return write_out(out, made)


def zeros(*size, dtype=None, device=None, requires_grad: bool = False, out=None) -> Tensor:
    """A tensor of zeros (``size=`` may also be given by keyword)."""
    return _filled_out(_sizes(size), 0.0, dtype, requires_grad, device, out)


def ones(*size, dtype=None, device=None, requires_grad: bool = False, out=None) -> Tensor:
    return _filled_out(_sizes(size), 1.0, dtype, requires_grad, device, out)


def empty(*size, dtype=None, device=None, requires_grad: bool = False, out=None,
          **_) -> Tensor:
    """Zeros (torch leaves them uninitialized; see the module's docstring)."""
    return _filled_out(_sizes(size), 0.0, dtype, requires_grad, device, out)


def full(size, fill_value, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    default = dtypes.scalar_dtype(fill_value)
    if dtype is not None and isinstance(fill_value, (int, float)):
        check_fits(fill_value, dtypes.as_dtype(dtype))
    return _filled(_sizes((size,)), fill_value, dtype, requires_grad, default, device)


def arange(start, end=None, step=1, *, dtype=None, device=None,
           requires_grad: bool = False) -> Tensor:
    if end is None:
        start, end = 0, start
    start, end, step = (_real_bound(v.item() if isinstance(v, Tensor) else v)
                        for v in (start, end, step))
    _check_range(start, end, step)
    if isinstance(start, Dim) or isinstance(end, Dim):
        return _call_time_range(start, end, step, dtype, requires_grad)
    is_int = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
    default = dtypes.int64 if is_int else dtypes.DEFAULT_FLOAT
    dt = default if dtype is None else dtypes.as_dtype(dtype)
    if dt.is_bool or dt.is_complex:   # torch's kernel has no bool or complex arange
        raise NotImplementedError(f'"arange_cpu" not implemented for \'{dt.scalar_type}\'')
    if is_int or dt is dtypes.int64:
        values = _int_range(start, end, step)
    elif not dt.is_floating:
        values = np.arange(start, end, step)
    else:
        values = _torch_range(float(start), float(step), len(np.arange(start, end, step)), dt)
    return _make(values, dtype, requires_grad, default, device)


def _real_bound(v):
    """A complex bound or step is torch's Scalar converted to double: its real part when the
    imaginary part is 0 (a float, so a floating result), an error otherwise."""
    if not isinstance(v, (complex, np.complexfloating)):
        return v
    if v.imag != 0:
        raise RuntimeError("value cannot be converted to type double without overflow")
    return float(v.real)


def _check_range(start, end, step) -> None:
    """torch's arange argument checks: a nonzero step whose sign goes from start to end, finite
    bounds and step."""
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if isinstance(start, Dim) or isinstance(end, Dim):
        return
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if not all(math.isfinite(v) for v in (start, end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if not math.isfinite(step):
        raise RuntimeError(f"step must be finite but got {step}")


def _int_range(start, end, step) -> np.ndarray:
    """int64 ``arange`` (or one of only integer arguments) as torch's: the bounds and the step
    truncated to integers first, then counted (a step truncated to 0 is its ValueError)."""
    start, end, step = int(start), int(end), int(step)
    if step == 0:
        raise ValueError("step must be nonzero")
    return np.arange(start, end, step, dtype=np.int64)


def _torch_range(start: float, step: float, n: int, dt) -> np.ndarray:
    """torch's floating ``arange`` values, bit for bit. Its CPU kernel computes in the
    accumulation type (double; float for float16), fused (``start + step * i`` is one fma),
    in vector blocks of 32 bytes (8 float32, 4 float64, 16 float16), taken in pairs: a
    block's first value is computed and rounded to the result type, the block's others are
    ``first + k * step``; the elements after the last pair of blocks are ``start + step * i``
    each."""
    half = dt.np.itemsize == 2
    width = 32 // dt.np.itemsize
    if half:    # float32 arithmetic: its fma is exact in float64, then rounded once
        start, step = float(np.float32(start)), float(np.float32(step))

    def fma(a, c):
        out = _fma(a.astype(np.float64), step, c)
        return out.astype(np.float32) if half else out
    i = np.arange(n)
    k = i % width
    first = fma(i - k, np.full(n, start)).astype(dt.np).astype(np.float64)
    blocked = fma(k, first)
    single = fma(i, np.full(n, start))
    return np.where(i < n - n % (2 * width), blocked, single).astype(dt.np)


def _call_time_range(start, end, step, dtype, requires_grad: bool) -> Tensor:
    """``arange`` to a call-time size (shape-generic traces): start + the running count of
    ones, in int64 (exact), converted to ``dtype``."""
    if step != 1 or not all(isinstance(v, int) for v in (start, end)):
        raise NotGeneric("arange of a call-time size with a step or float bounds")
    ones_ = _filled((span(start, end, 1),), 1, dtypes.int64, requires_grad)
    out = ones_.cumsum(0) + (start - 1)
    return out if dtype is None else out.to(dtypes.as_dtype(dtype))


def linspace(start, end, steps: int, *, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end``, both included."""
    if steps < 0:
        raise RuntimeError("linspace: number of steps must be non-negative")
    start, end = (v.item() if isinstance(v, Tensor) else v for v in (start, end))
    dt = _spacing_dtype("linspace", start, end, dtype)
    if dt.is_complex:   # torch's complex kernel: the real one on each part
        part = dt.real_dtype
        values = (_spaced(complex(start).real, complex(end).real, steps, part) +
                  1j * _spaced(complex(start).imag, complex(end).imag, steps, part))
    else:
        values = _spaced(start, end, steps, dt)
    return _make(values.astype(dt.np), dt, requires_grad, device=device)


def _spacing_dtype(name: str, start, end, dtype):
    """linspace's/logspace's dtype: ``dtype``, else the default float one, or its complex one
    when an end is complex (torch's Scalar), which a given ``dtype`` must then be."""
    if not any(isinstance(v, (complex, np.complexfloating)) for v in (start, end)):
        return dtypes.as_dtype(dtype) if dtype is not None else dtypes.DEFAULT_FLOAT
    inferred = dtypes.get_default_dtype().complex_dtype
    dt = inferred if dtype is None else dtypes.as_dtype(dtype)
    if not dt.is_complex:
        raise RuntimeError(f"torch.{name}(): inferred dtype {inferred.cpp_name} can't be safely "
                           f"cast to passed dtype {dt.scalar_type}")
    return dt


def _spaced(start, end, steps: int, dt) -> np.ndarray:
    """torch's linspace values, bit for bit: ``step = (end - start) / (steps - 1)`` in the
    result's precision; the first half is ``start + i*step``, the second ``end - (steps-1-i)
    * step`` (so both ends are exact), each one fused multiply-add (one rounding), as torch's
    compiled CPU kernel computes them."""
    work = np.dtype(dt.np if dt.is_floating else np.float64).type
    if steps == 1:
        return np.array([work(start)])
    start, end = work(start), work(end)
    step = (end - start) / work(steps - 1)
    i = np.arange(steps)
    first = i < steps // 2
    mult = np.where(first, i, i - (steps - 1)).astype(np.float64)   # i, or -(steps-1-i)
    base = np.where(first, np.float64(start), np.float64(end))
    if work is np.float32:   # float32 products are exact in float64: one rounding to f64
        return (mult * np.float64(step) + base).astype(np.float32)
    return _fma(mult, np.float64(step), base)


def _fma(a: np.ndarray, b: float, c: np.ndarray) -> np.ndarray:
    """``a*b + c`` with one rounding, from error-free transformations in float64 (Dekker's
    product and Knuth's sum); exact but for ties broken twice, which linspace never meets."""
    p = a * b
    split = 134217729.0   # 2**27 + 1
    ta, tb = split * a, split * b
    ah, bh = ta - (ta - a), tb - (tb - b)
    al, bl = a - ah, b - bh
    ep = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    bb = s - p
    es = (p - (s - bb)) + (c - bb)
    return s + (ep + es)


def logspace(start, end, steps: int, base: float = 10.0, *, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """``base ** e`` for ``steps`` evenly spaced exponents ``e`` from ``start`` to ``end``.
    float64 values are torch's bit for bit (exponents ``start + i*step`` / ``end - (steps-1-i)
    * step`` rounded after each operation, then the C library's ``pow``); float32 ones may
    differ from torch's vectorized ``pow`` in the last bit."""
    if steps < 0:
        raise RuntimeError("logspace: number of steps must be non-negative")
    start, end = (v.item() if isinstance(v, Tensor) else v for v in (start, end))
    dt = _spacing_dtype("logspace", start, end, dtype)
    if dt.is_complex:
        return _make(_complex_logspace(start, end, steps, base, dt), dt, requires_grad,
                     device=device)
    if dt is dtypes.float32:
        start, end = float(np.float32(start)), float(np.float32(end))
    s, e = np.float64(start), np.float64(end)
    step = (e - s) / np.float64(max(steps - 1, 1))
    values = [math.pow(base, float(s + step * i if i < max(steps // 2, 1) else
                                   e - step * (steps - 1 - i))) for i in range(steps)]
    return _make(np.array(values, np.float64), dt, requires_grad, device=device)


def _complex_logspace(start, end, steps: int, base: float, dt) -> np.ndarray:
    """torch's complex logspace kernel, in the dtype's precision: ``step = (end - start) /
    (steps - 1)`` as a complex division (each part times the reciprocal), exponents ``start +
    step * i`` (first half) or ``end - step * (steps - 1 - i)``, then the C library's complex
    ``pow`` (``exp(e * log(base))``; NumPy's may differ in the last bits)."""
    c, part = dt.np.type, dt.real_dtype.np.type
    start, end = c(start), c(end)
    if steps == 1:
        exponent = np.array([start])
    else:
        inv = part(1) / part(max(steps - 1, 1))
        step = (end - start).real * inv + 1j * ((end - start).imag * inv)
        i = np.arange(steps)
        k = np.where(i < steps // 2, i, steps - 1 - i).astype(part)
        offset = (step.real * k).astype(part) + 1j * (step.imag * k).astype(part)
        exponent = np.where(i < steps // 2, start + offset.astype(c), end - offset.astype(c))
    with np.errstate(all="ignore"):
        return np.exp(exponent.astype(c) * np.log(c(base))).astype(c)


def eye(n: int, m: int | None = None, *, dtype=None, device=None,
        requires_grad: bool = False) -> Tensor:
    """The ``n`` x ``m`` identity matrix."""
    for what, v in (("n", n), ("m", m)):
        if v is not None and v < 0:
            raise RuntimeError(f"{what} must be greater or equal to 0, got {v}")
    return _make(np.eye(n, n if m is None else m), dtype, requires_grad, device=device)


def _triangle(name: str, row, col, offset, dtype, device, numpy_fn) -> Tensor:
    """The (2, N) int64 coordinates of a ``row`` x ``col`` matrix's triangle, row by row
    (torch's ``tril_indices``/``triu_indices``): a constant, eager or inside a trace."""
    for position, (what, v) in enumerate((("row", row), ("col", col), ("offset", offset)), 1):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{name}(): argument '{what}' (position {position}) must be int, "
                            f"not {type(v).__name__}")
        if what != "offset" and v < 0:
            raise RuntimeError(f"{what} must be non-negative, got{v}")
    check_device(device)
    dt = dtypes.as_dtype(dtype) if dtype is not None else dtypes.int64
    if not dt.is_integer:
        raise NotImplementedError(f'"{name}" not implemented for \'{dt.scalar_type}\'')
    coords = np.stack(numpy_fn(int(row), int(offset), int(col))) if row and col else \
        np.zeros((2, 0), np.int64)
    return copied(coords.astype(dt.np), dtype=dt)


def tril_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None,
                 layout=None) -> Tensor:
    """The indices of the lower triangle of a ``row`` x ``col`` matrix (below and on the
    ``offset``-th diagonal), as a (2, N) tensor: rows, then columns."""
    return _triangle("tril_indices", row, col, offset, dtype, device, np.tril_indices)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None,
                 layout=None) -> Tensor:
    """The indices of the upper triangle of a ``row`` x ``col`` matrix (above and on the
    ``offset``-th diagonal), as a (2, N) tensor: rows, then columns."""
    return _triangle("triu_indices", row, col, offset, dtype, device, np.triu_indices)


def tensor(data, dtype=None, device=None, requires_grad: bool = False,
           pin_memory: bool = False) -> Tensor:
    """``torch.tensor``: ``data`` copied into a new leaf (``core.tensor.tensor``), a NumPy
    array's copy with the strides torch gives it (``size.array_strides``: a transposed array
    stays transposed, an empty one keeps NumPy's zero strides)."""
    t = copied(data, dtype, device, requires_grad, pin_memory)
    if type(data) is np.ndarray and (not data.flags.c_contiguous or not data.size) and \
            not t.is_traced:
        t._strides = array_strides(data.shape, data.strides, data.itemsize, True)
    return t


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing ``array``'s memory: in-place changes to either show in the other."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    dt = dtypes.from_numpy(array.dtype)
    if dt is None or dt.np != array.dtype.newbyteorder("="):
        raise TypeError(f"can't share the memory of a NumPy array of dtype {array.dtype}: "
                        "symgrad computes in float32, float64, int64 and bool (use "
                        "symgrad.tensor(array) to copy and convert it)")
    t = Tensor(array if array.dtype.isnative else array.astype(dt.np), None)
    if not array.flags.c_contiguous or not array.size:   # torch's strides are the array's
        t._strides = array_strides(array.shape, array.strides, array.itemsize, False)
    return t


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """``data`` as a tensor: a tensor is returned as is (cast if ``dtype`` differs), a NumPy
    array of a supported dtype shares its memory, anything else is copied."""
    check_device(device)
    if isinstance(data, Tensor) or traced_numbers(data):
        return apply_as_tensor(data, None if dtype is None else dtypes.as_dtype(dtype))
    if isinstance(data, np.ndarray) and dtype is None and \
            dtypes.from_numpy(data.dtype) is not None and \
            dtypes.from_numpy(data.dtype).np == data.dtype:
        return from_numpy(data)
    return tensor(data, dtype=dtype)


def meshgrid(*tensors, indexing: str | None = None) -> tuple:
    """Coordinate grids of 1-D tensors (``indexing="ij"``, torch's default, or ``"xy"``)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the "
                      "indexing argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but "
                         f"received: {indexing}")
    ts = [t if isinstance(t, Tensor) else tensor(t) for t in tensors]
    for i, t in enumerate(ts):
        if t.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list "
                               f"but got: tensor {i} with {t.ndim} dims")
    if indexing == "xy" and len(ts) >= 2:
        ts[0], ts[1] = ts[1], ts[0]
    shape = tuple(t.numel() for t in ts)
    grids = []
    for d, t in enumerate(ts):
        view = tuple(shape[d] if k == d else 1 for k in range(len(ts)))
        grids.append(reshape(t, view).expand(shape))
    if indexing == "xy" and len(ts) >= 2:   # the "ij" grids of (b, a, ...), swapped back
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def _like(x: Tensor, dtype):
    return x.shape, (dtype if dtype is not None else x.dtype)


def zeros_like(x: Tensor, *, dtype=None, device=None, requires_grad: bool = False,
               **_) -> Tensor:
    shape, dt = _like(x, dtype)
    return layout.preserve(zeros(shape, dtype=dt, device=device, requires_grad=requires_grad), x)


def ones_like(x: Tensor, *, dtype=None, device=None, requires_grad: bool = False,
              **_) -> Tensor:
    shape, dt = _like(x, dtype)
    return layout.preserve(ones(shape, dtype=dt, device=device, requires_grad=requires_grad), x)


def empty_like(x: Tensor, *, dtype=None, device=None, requires_grad: bool = False,
               **_) -> Tensor:
    shape, dt = _like(x, dtype)
    return layout.preserve(empty(shape, dtype=dt, device=device, requires_grad=requires_grad), x)


def full_like(x: Tensor, fill_value, *, dtype=None, device=None,
              requires_grad: bool = False, **_) -> Tensor:
    shape, dt = _like(x, dtype)
    return layout.preserve(full(shape, fill_value, dtype=dt, device=device,
                                requires_grad=requires_grad), x)


# ``x.new_zeros(...)`` and friends: a new tensor of ``x``'s dtype (unless given)
def new_tensor(x: Tensor, data, *, dtype=None, device=None, requires_grad: bool = False):
    return _make(np.asarray(data), dtype or x.dtype, requires_grad, device=device)


def new_zeros(x: Tensor, *size, dtype=None, device=None, requires_grad: bool = False):
    return zeros(*size, dtype=dtype or x.dtype, device=device, requires_grad=requires_grad)


def new_ones(x: Tensor, *size, dtype=None, device=None, requires_grad: bool = False):
    return ones(*size, dtype=dtype or x.dtype, device=device, requires_grad=requires_grad)


def new_empty(x: Tensor, *size, dtype=None, device=None, requires_grad: bool = False):
    return empty(*size, dtype=dtype or x.dtype, device=device, requires_grad=requires_grad)


def new_full(x: Tensor, size, fill_value, *, dtype=None, device=None,
             requires_grad: bool = False):
    return full(size, fill_value, dtype=dtype or x.dtype, device=device,
                requires_grad=requires_grad)


def new(x: Tensor, *args, **kwargs):
    """The legacy ``x.new(...)``: sizes (ints or a torch.Size) give a new (uninitialized:
    zeros here) tensor of ``x``'s dtype, data (a tuple too) a tensor of it, nothing an empty
    one."""
    if not args:
        return new_empty(x, 0, **kwargs)
    if all(isinstance(a, int) and not isinstance(a, bool) for a in args) or \
            (len(args) == 1 and isinstance(args[0], Size)):   # a plain tuple is data
        return new_empty(x, *args, **kwargs)
    return new_tensor(x, args[0], **kwargs)


METHODS = {"new_tensor": new_tensor, "new_zeros": new_zeros, "new_ones": new_ones,
           "new_empty": new_empty, "new_full": new_full, "new": new}
