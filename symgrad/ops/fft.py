"""The discrete Fourier transforms: complex to complex, real to complex, complex to real.

Layer: ops. Input: nothing. Output: three OpDefs of kind OTHER, torch's FFT primitives (ATen's
``_fft_c2c``, ``_fft_r2c``, ``_fft_c2r``), each over the axes ``axes`` (non-negative, in the
caller's order: the last one is the halved one of r2c and c2r) and scaled by ``norm``:
"none", "sqrt" (1/sqrt(n)) or "n" (1/n), n the number of points of the signal (the product
of the transformed sizes: the input's for c2c and r2c, the output's for c2r). ``torch.fft``'s
functions (``frontend.functions.spectral``) are these three with resizing, promotion and
conjugation around them.

- ``fft_c2c(z, axes, norm, forward)``: sum_j z_j exp(-+2 pi i jk/n), the minus sign when
  ``forward``; complex in and out.
- ``fft_r2c(x, axes, norm, onesided)``: the forward transform of a real ``x``; ``onesided``
  keeps the first n//2 + 1 points of the last axis (the others are their conjugates).
- ``fft_c2r(z, axes, norm, last_dim_size)``: the inverse transform of the Hermitian signal
  whose first half ``z`` is (the last axis has ``last_dim_size // 2 + 1`` points), real: the
  imaginary parts of the last axis's first (and, for an even size, middle) points are not
  read, as in pocketfft and MKL.

The NumPy references are ``numpy.fft`` (pocketfft) unscaled, times the scale once, in the
result's dtype (complex64 stays single precision); a two-sided r2c is the one-sided one with
the other half filled with conjugates, as torch computes it. The VJP rules are torch's (its
``derivatives.yaml``: ``fft_r2c_backward``, ``fft_c2r_backward``), written in torch's convention
for complex gradients (``holomorphic=False``; see ``dtypes``): the adjoint of a transform is the
transform the other way with the same scale; r2c's zero-fills the dropped half before it and
keeps the real part; c2r's is an r2c whose points standing for two (their conjugate twins are
not stored) count twice. They build graph nodes from these ops, slices and cats, so gradients
can be differentiated again.

Compiled, each is one kernel of the ``fft`` family (``lower.fft``, ``codegen.c.fft``: radix-2
and Bluestein transforms in double precision, rounded once).
"""

from __future__ import annotations

import math

import numpy as np

from .registry import OTHER, OpDef, ShapeError, register

NORMS = ("none", "sqrt", "n")


def _check_axes(name: str, shape: tuple, axes: tuple, norm: str) -> None:
    if norm not in NORMS:
        raise ValueError(f"{name}: norm must be one of {NORMS}, got {norm!r}")
    if len(set(axes)) != len(axes) or any(not 0 <= a < len(shape) for a in axes):
        raise ShapeError(f"{name}: axes {tuple(axes)} are not distinct axes of a tensor of "
                         f"shape {tuple(shape)}")


def _scaled(out: np.ndarray, norm: str, points: int) -> np.ndarray:
    """``out`` times the scale ``norm`` gives a signal of ``points`` points, in its dtype."""
    if norm == "none":
        return out
    scale = 1 / math.sqrt(points) if norm == "sqrt" else 1 / points
    return out * out.real.dtype.type(scale)


def _points(shape: tuple, axes: tuple) -> int:
    return math.prod(shape[a] for a in axes)


def _batched(b, name, args, batched, size, *, axes, **attrs):
    """vmap: the batch dimension in front moves every transformed axis one further."""
    return b.op(name, args[0], axes=tuple(a + 1 for a in axes), **attrs)


# ---------------------------------------------------------------- complex to complex

def _c2c_shape(shape, *, axes, norm, forward):
    _check_axes("fft_c2c", shape, axes, norm)
    return tuple(shape)


def _c2c_dtype(d, **_):
    if not d.is_complex:
        raise TypeError(f"fft_c2c: expected a complex operand, got {d.name}")
    return d


def _np_c2c(a, *, axes, norm, forward):
    if not axes:
        return a.copy()
    # unscaled both ways ("forward" leaves numpy's inverse transform unscaled)
    out = np.fft.fftn(a, axes=axes) if forward else np.fft.ifftn(a, axes=axes, norm="forward")
    return _scaled(out, norm, _points(a.shape, axes))


register(OpDef(
    name="fft_c2c", kind=OTHER, kernel="fft",
    shape=_c2c_shape, dtype=_c2c_dtype, numpy=_np_c2c,
    vjp=lambda b, g, out, ins, *, axes, norm, forward: (
        b.op("fft_c2c", g, axes=axes, norm=norm, forward=not forward),),
    holomorphic=False, saves=False, batch=_batched, torch_name="FftC2CBackward0",
    doc="discrete Fourier transform over axes (inverse unless forward), scaled by norm"))


# ---------------------------------------------------------------- real to complex

def _r2c_shape(shape, *, axes, norm, onesided):
    _check_axes("fft_r2c", shape, axes, norm)
    if not onesided or not axes:
        return tuple(shape)
    last = axes[-1]
    return tuple(n // 2 + 1 if i == last else n for i, n in enumerate(shape))


def _r2c_dtype(d, **_):
    if d.name not in ("float32", "float64"):
        raise TypeError(f"fft_r2c: expected a float32 or float64 operand, got {d.name}")
    return d.complex_dtype


def _np_r2c(a, *, axes, norm, onesided):
    if not axes:
        return a.astype(np.result_type(a.dtype, np.complex64))
    half = _scaled(np.fft.rfftn(a, axes=axes), norm, _points(a.shape, axes))
    return half if onesided else _conjugate_filled(half, a.shape, axes)


def _conjugate_filled(half: np.ndarray, shape: tuple, axes: tuple) -> np.ndarray:
    """The whole spectrum of a real signal from its first half along ``axes[-1]``: X[k] =
    conj(X[-k]) (indices modulo the sizes, over every transformed axis), as torch fills it
    (so the two halves are exact conjugates, zeros' signs included)."""
    last, n, h = axes[-1], shape[axes[-1]], half.shape[axes[-1]]
    mirrored = half
    for ax in axes[:-1]:
        mirrored = np.take(mirrored, (-np.arange(shape[ax])) % shape[ax], axis=ax)
    rest = np.take(mirrored, n - np.arange(h, n), axis=last)
    return np.concatenate([half, np.conj(rest)], axis=last)


def _window(b, x, axis: int, start: int, stop: int):
    """``x[start:stop]`` along ``axis``."""
    starts = tuple(start if d == axis else 0 for d in range(x.ndim))
    stops = tuple(stop if d == axis else s for d, s in enumerate(x.shape))
    return b.op("slice", x, starts=starts, stops=stops, steps=(1,) * x.ndim)


def _r2c_vjp(b, g, out, ins, *, axes, norm, onesided):
    # the adjoint of "transform, keep the first half": put zeros in the other half, transform
    # back with the same scale, keep the real part (the operand was real)
    x = ins[0]
    if onesided and axes and g.shape[axes[-1]] < x.shape[axes[-1]]:
        g = b.op("unslice", g, shape_to=tuple(x.shape), starts=(0,) * g.ndim,
                 stops=tuple(g.shape), steps=(1,) * g.ndim)
    return (b.op("real", b.op("fft_c2c", g, axes=axes, norm=norm, forward=False)),)


register(OpDef(
    name="fft_r2c", kind=OTHER, kernel="fft",
    shape=_r2c_shape, dtype=_r2c_dtype, numpy=_np_r2c,
    vjp=_r2c_vjp, holomorphic=False, saves=False, batch=_batched,
    torch_name="FftR2CBackward0",
    doc="forward Fourier transform of a real tensor (the last axis halved if onesided)"))


# ---------------------------------------------------------------- complex to real

def _c2r_shape(shape, *, axes, norm, last_dim_size):
    _check_axes("fft_c2r", shape, axes, norm)
    if not axes:
        raise ShapeError("fft_c2r: transforms at least one axis")
    last = axes[-1]
    if last_dim_size < 1 or shape[last] != last_dim_size // 2 + 1:
        raise ShapeError(f"fft_c2r: axis {last} of shape {tuple(shape)} must have "
                         f"last_dim_size // 2 + 1 points for last_dim_size={last_dim_size}")
    return tuple(last_dim_size if i == last else n for i, n in enumerate(shape))


def _c2r_dtype(d, **_):
    if not d.is_complex:
        raise TypeError(f"fft_c2r: expected a complex operand, got {d.name}")
    return d.real_dtype


def _np_c2r(a, *, axes, norm, last_dim_size):
    sizes = [a.shape[x] for x in axes[:-1]] + [last_dim_size]
    out = np.fft.irfftn(a, s=sizes, axes=axes, norm="forward")   # unscaled
    return _scaled(out, norm, math.prod(sizes))


def _c2r_vjp(b, g, out, ins, *, axes, norm, last_dim_size):
    # the adjoint of "fill in the conjugate twins, transform back, keep the real part": a
    # forward r2c of g, the points whose twins are not stored (1 .. n - n//2 - 1) counted
    # twice (the first is its own twin, and so is the middle one of an even n)
    grad = b.op("fft_r2c", g, axes=axes, norm=norm, onesided=True)
    last = axes[-1]
    half = grad.shape[last]
    twice = last_dim_size - half
    if twice <= 0:
        return (grad,)
    doubled = _window(b, grad, last, 1, 1 + twice)
    parts = [_window(b, grad, last, 0, 1), doubled + doubled]
    if 1 + twice < half:
        parts.append(_window(b, grad, last, 1 + twice, half))
    return (b.op("cat", *parts, axis=last),)


register(OpDef(
    name="fft_c2r", kind=OTHER, kernel="fft",
    shape=_c2r_shape, dtype=_c2r_dtype, numpy=_np_c2r,
    vjp=_c2r_vjp, holomorphic=False, saves=False, batch=_batched,
    torch_name="FftC2RBackward0",
    doc="inverse Fourier transform of a Hermitian signal given by its first half: real"))
