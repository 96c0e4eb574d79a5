"""torch.fft's transforms: fft ifft rfft irfft hfft ihfft, their 2-D and n-D forms (fft2 ifft2
rfft2 irfft2 hfft2 ihfft2, fftn ifftn rfftn irfftn hfftn ihfftn).

Layer: front end, above ``complexes``. Input: tensors (real, integer or complex), torch's
arguments ``n``/``s``, ``dim``, ``norm`` ("backward", "ortho", "forward") and ``out=``.
Output: tensors built as ATen builds them from the three FFT primitives of ``ops/fft.py``:
the input promoted (integers to the default float; a real input made complex where the
transform needs it: ``ToCopyBackward0``), cut (``SliceBackward0``) or zero-padded
(``ConstantPadNdBackward0``) to the signal's size, transformed (``FftC2CBackward0``,
``FftR2CBackward0``, ``FftC2RBackward0``), and conjugated around (``ConjBackward0``) where
ATen computes an inverse as a conjugated forward transform. So grad_fn chains, dtypes, errors
and gradients (torch's convention for complex ones) are torch's; the values are pocketfft's
(numpy.fft), a few ulps from torch's MKL. Eager only: compiled code does not take complex
tensors yet.
"""

from __future__ import annotations

from collections.abc import Sequence

from ... import dtypes
from ..core.apply import apply
from ..core.tensor import Tensor
from .keywords import write_out


def _tensor(x, fname: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"fft_{fname}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(x).__name__}")
    return x


def _mode(norm, forward: bool) -> str:
    """ATen's normalization of a transform: "none", "sqrt" or "n" (``ops.fft``)."""
    if norm is None or norm == "backward":
        return "none" if forward else "n"
    if norm == "forward":
        return "n" if forward else "none"
    if norm == "ortho":
        return "sqrt"
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _promoted(x: Tensor, require_complex: bool) -> Tensor:
    """torch's promote_tensor_fft: complex stays; integers and bool become the default float;
    float32/float64 only (no float16 on the CPU); complex if required."""
    d = x.dtype
    if d.is_complex:
        return x
    if not d.is_floating:
        d = dtypes.get_default_dtype()
    if d not in (dtypes.float32, dtypes.float64):
        raise RuntimeError(f"Unsupported dtype {d.scalar_type}")
    if require_complex:
        d = d.complex_dtype
    return x if d is x.dtype else x.to(d)


def _wrapped(dim, ndim: int) -> int:
    """torch's maybe_wrap_dim without wrap_scalar: a 0-d tensor has no dimension."""
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, "
                         f"{ndim - 1}], but got {dim})")
    return dim % ndim


def _int_dim(dim, fname: str) -> int:
    if isinstance(dim, bool) or not hasattr(dim, "__index__"):
        raise TypeError(f"fft_{fname}(): argument 'dim' must be int, not {type(dim).__name__}")
    return dim.__index__()


def _resized(x: Tensor, dims: Sequence[int], sizes: Sequence[int]) -> Tensor:
    """``x`` cut (a slice per dim, from the start) or zero-padded at the end (one pad) so that
    ``x.shape[dims[i]] == sizes[i]`` (torch's resize_fft_input)."""
    padded = list(x.shape)
    for d, n in zip(dims, sizes):
        if x.shape[d] > n:
            stops = tuple(n if i == d else s for i, s in enumerate(x.shape))
            x = apply("slice", x, starts=(0,) * x.ndim, stops=stops, steps=(1,) * x.ndim)
        padded[d] = n
    padded = tuple(padded)
    if padded == tuple(x.shape):
        return x
    return apply("unslice", x, shape_to=padded, starts=(0,) * x.ndim, stops=tuple(x.shape),
                 steps=(1,) * x.ndim, _torch_name="ConstantPadNdBackward0")


def _checked_out(out, fname: str, complex_result: bool):
    """torch's check of an ``out=`` tensor's dtype, before anything is computed."""
    if out is None or not isinstance(out, Tensor):
        return
    if complex_result and not out.dtype.is_complex:
        raise RuntimeError(f"{fname} expects a complex output tensor, but got "
                           f"{out.dtype.scalar_type}")
    if not complex_result and not out.dtype.is_floating:
        raise RuntimeError(f"{fname} expects a floating point output tensor, but got "
                           f"{out.dtype.scalar_type}")


_PRIMITIVES = {"FftC2CBackward0": "_fft_c2c", "FftR2CBackward0": "_fft_r2c",
               "FftC2RBackward0": "_fft_c2r"}


def _written(result: Tensor, out) -> Tensor:
    """``result``, or ``out`` holding it; torch's error (naming the FFT primitive that would
    write ``out``) if it needs a gradient."""
    if out is None:
        return result
    fn = result.grad_fn
    if fn is not None:
        while fn.name() not in _PRIMITIVES and fn.next_functions:   # a conj after it
            fn = fn.next_functions[0][0]
        raise RuntimeError(f"{_PRIMITIVES.get(fn.name(), '_fft_r2c')}(): functions with "
                           f"out=... arguments don't support automatic differentiation, but "
                           f"one of the arguments requires grad.")
    return write_out(out, result)


def _points(n: int) -> int:
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return n


# ---------------------------------------------------------------- one dimension

def _c2c(fname: str, x: Tensor, n, dim: int, norm, forward: bool) -> Tensor:
    if not x.dtype.is_complex:
        raise RuntimeError(f"{fname} expects a complex input tensor, but got "
                           f"{x.dtype.scalar_type}")
    d = _wrapped(dim, x.ndim)
    if n is not None:
        x = _resized(x, (d,), (_points(n),))
    _points(x.shape[d])
    return apply("fft_c2c", x, axes=(d,), norm=_mode(norm, forward), forward=forward)


def _r2c(fname: str, x: Tensor, n, dim: int, norm, forward: bool, onesided: bool) -> Tensor:
    if x.dtype.is_complex:
        raise RuntimeError(f"{fname} expects a real input tensor, but got "
                           f"{x.dtype.scalar_type}")
    x = _promoted(x, False)
    d = _wrapped(dim, x.ndim)
    if n is not None:
        x = _resized(x, (d,), (_points(n),))
    _points(x.shape[d])
    out = apply("fft_r2c", x, axes=(d,), norm=_mode(norm, forward), onesided=onesided)
    return out if forward else apply("conj", out)


def _c2r(fname: str, x: Tensor, n, dim: int, norm, forward: bool) -> Tensor:
    x = _promoted(x, True)
    d = _wrapped(dim, x.ndim)
    size = _points(2 * (x.shape[d] - 1) if n is None else n)
    if n is not None:
        x = _resized(x, (d,), (size // 2 + 1,))
    mode = _mode(norm, forward)
    if forward:
        x = apply("conj", x)
    return apply("fft_c2r", x, axes=(d,), norm=mode, last_dim_size=size)


def _one(fname: str, kind: str, forward: bool, onesided: bool = False):
    """torch.fft.<fname>(input, n=None, dim=-1, norm=None, *, out=None)."""
    def transform(input, n=None, dim=-1, norm=None, *, out=None) -> Tensor:  # noqa: A002
        x = _tensor(input, fname)
        dim = _int_dim(dim, fname)
        _checked_out(out, fname, kind != "c2r")
        if kind == "c2r":
            result = _c2r(fname, x, n, dim, norm, forward)
        elif kind == "c2c" and x.dtype.is_complex:
            result = _c2c(fname, x, n, dim, norm, forward)
        else:
            result = _r2c(fname, x, n, dim, norm, forward, onesided)
        return _written(result, out)
    transform.__name__ = transform.__qualname__ = fname
    return transform


fft = _one("fft", "c2c", True)
ifft = _one("ifft", "c2c", False)
rfft = _one("rfft", "r2c", True, onesided=True)
ihfft = _one("ihfft", "r2c", False, onesided=True)
irfft = _one("irfft", "c2r", False)
hfft = _one("hfft", "c2r", True)
for _f, _doc in ((fft, "The discrete Fourier transform along ``dim`` (complex result)."),
                 (ifft, "The inverse discrete Fourier transform along ``dim``."),
                 (rfft, "The first n//2 + 1 points of the transform of a real signal."),
                 (ihfft, "The first n//2 + 1 points of the inverse transform of a real "
                         "signal."),
                 (irfft, "The real inverse of ``rfft``: the signal of n points (default "
                         "2 (m - 1)) whose half spectrum the input is."),
                 (hfft, "The real transform of a Hermitian signal given by its first half.")):
    _f.__doc__ = _doc


# ---------------------------------------------------------------- n dimensions

def _dims(x: Tensor, dim) -> tuple:
    dim = (dim,) if not isinstance(dim, Sequence) else tuple(dim)
    dims = tuple(_wrapped(d, x.ndim) for d in dim)
    if len(set(dims)) != len(dims):
        raise RuntimeError("FFT dims must be unique")
    return dims


def _shape_and_dims(x: Tensor, s, dim) -> tuple:
    """torch's canonicalize_fft_shape_and_dim_args: (signal sizes, dims), neither None."""
    dims = None if dim is None else _dims(x, dim)
    if s is None:
        dims = tuple(range(x.ndim)) if dims is None else dims
        shape = tuple(x.shape[d] for d in dims)
    else:
        s = (s,) if not isinstance(s, Sequence) else tuple(s)
        if dims is not None and len(dims) != len(s):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        if len(s) > x.ndim:
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has "
                               f"{x.ndim} dimensions.")
        dims = tuple(range(x.ndim - len(s), x.ndim)) if dims is None else dims
        shape = tuple(x.shape[d] if n == -1 else n for n, d in zip(s, dims))
    for n in shape:
        _points(n)
    return shape, dims


def _c2r_shape_and_dims(fname: str, x: Tensor, s, dim) -> tuple:
    """(input sizes, dims, size of the last dim of the output) of an n-D c2r transform."""
    shape, dims = _shape_and_dims(x, s, dim)
    if not shape:
        raise RuntimeError(f"{fname} must transform at least one axis")
    if s is None or tuple(s if isinstance(s, Sequence) else (s,))[-1] == -1:
        last = 2 * (x.shape[dims[-1]] - 1)
    else:
        last = shape[-1]
    _points(last)
    return shape[:-1] + (last // 2 + 1,), dims, last


def _fftn(fname: str, forward: bool, input, s, dim, norm) -> Tensor:  # noqa: A002
    x = _tensor(input, fname)
    shape, dims = _shape_and_dims(x, s, dim)
    x = _resized(_promoted(x, True), dims, shape)
    return apply("fft_c2c", x, axes=dims, norm=_mode(norm, forward), forward=forward)


def _rfftn(input, s, dim, norm) -> Tensor:  # noqa: A002
    x = _tensor(input, "rfftn")
    if x.dtype.is_complex:
        raise RuntimeError(f"rfftn expects a real-valued input tensor, but got "
                           f"{x.dtype.scalar_type}")
    shape, dims = _shape_and_dims(x, s, dim)
    if not shape:
        raise RuntimeError("rfftn must transform at least one axis")
    x = _resized(_promoted(x, False), dims, shape)
    return apply("fft_r2c", x, axes=dims, norm=_mode(norm, True), onesided=True)


def _irfftn(input, s, dim, norm) -> Tensor:  # noqa: A002
    x = _tensor(input, "irfftn")
    shape, dims, last = _c2r_shape_and_dims("irfftn", x, s, dim)
    x = _resized(_promoted(x, True), dims, shape)
    return apply("fft_c2r", x, axes=dims, norm=_mode(norm, False), last_dim_size=last)


def _hfftn(input, s, dim, norm) -> Tensor:  # noqa: A002
    x = _tensor(input, "hfftn")
    shape, dims, last = _c2r_shape_and_dims("hfftn", x, s, dim)
    x = _resized(_promoted(x, True), dims, shape)
    mode = _mode(norm, True)
    if len(dims) > 1:
        x = apply("fft_c2c", x, axes=dims[:-1], norm=mode, forward=True)
    return apply("fft_c2r", apply("conj", x), axes=dims[-1:], norm=mode, last_dim_size=last)


def _ihfftn(input, s, dim, norm) -> Tensor:  # noqa: A002
    x = _tensor(input, "ihfftn")
    shape, dims = _shape_and_dims(x, s, dim)
    if not shape:
        raise RuntimeError("ihfftn must transform at least one axis")
    x = _promoted(x, False)
    if x.dtype.is_complex:
        raise RuntimeError(f"Only supports floating-point dtypes, but found: "
                           f"{x.dtype.scalar_type}")
    x = _resized(x, dims, shape)
    mode = _mode(norm, False)
    half = apply("fft_r2c", x, axes=dims[-1:], norm=mode, onesided=True)
    if len(dims) == 1:
        return apply("conj", half)
    half = apply("conj", half, _torch_name="ConjPhysicalBackward0")
    return apply("fft_c2c", half, axes=dims[:-1], norm=mode, forward=False)


_N_D = {"fftn": (lambda x, s, d, n: _fftn("fftn", True, x, s, d, n), True),
        "ifftn": (lambda x, s, d, n: _fftn("ifftn", False, x, s, d, n), True),
        "rfftn": (_rfftn, True), "irfftn": (_irfftn, False), "hfftn": (_hfftn, False),
        "ihfftn": (_ihfftn, True)}


def _many(fname: str, base: str, default_dim):
    """torch.fft.<fname>(input, s=None, dim=<default_dim>, norm=None, *, out=None)."""
    body, complex_result = _N_D[base]

    def transform(input, s=None, dim=default_dim, norm=None, *, out=None) -> Tensor:  # noqa: A002
        _checked_out(out, base, complex_result)
        return _written(body(input, s, dim, norm), out)
    transform.__name__ = transform.__qualname__ = fname
    transform.__doc__ = (f"torch.fft.{fname}: ``{base}`` over ``dim`` "
                         f"({'the last two dims' if default_dim else 'all dims'} by default), "
                         f"the signal cut or zero-padded to ``s``.")
    return transform


fftn, ifftn, rfftn, irfftn, hfftn, ihfftn = (_many(n, n, None) for n in _N_D)
fft2, ifft2, rfft2, irfft2, hfft2, ihfft2 = (_many(n[:-1] + "2", n, (-2, -1)) for n in _N_D)

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
           "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"]
