"""Fourier transform kernels -> C: the operand copied into double complex scratch, transformed
in place one axis after the other, scaled and written out.

Layer: codegen (the ``fft`` kernel family). Input: an ``FftKernel`` (``lower.fft``; the ops of
``ops.fft``). Output: the kernel's C text and its work. The transforms are
``templates/helper_fft.c.j2``'s: radix-2 Cooley-Tukey for a power-of-two length, Bluestein's
chirp-z (a convolution by radix-2 transforms) for any other, O(n log n) with an error of a few
units of rounding for every length (a plain O(n^2) sum would be simpler but slow beyond small
n, and its error grows with n). Everything runs in double and is rounded once (complex64:
float parts): within a few ulps of torch's pocketfft/MKL float results and of the eager
values, never bit for bit (their algorithms split the lengths into other factors).

- ``fft_c2c``: every axis transformed, exp(-2 pi i jk/n) when forward, else exp(+...).
- ``fft_r2c``: the real operand transformed as complex; one-sided keeps the first n//2 + 1
  points of the last axis, two-sided fills the rest with the conjugates of the mirrored
  points (over every transformed axis), as torch fills them: exact conjugates.
- ``fft_c2r``: inverse transforms along all axes but the last, then the Hermitian line of the
  last axis rebuilt from its first half (``sgm_fft_c2r``) and transformed: the real parts.
"""

from __future__ import annotations

import math

from ...dtypes import float64
from ...lower.fft import FftKernel
from ...lower.loopir import View
from ...size import contiguous_strides
from .emitted import Emitted
from .literals import c_literal
from .render import render_kernel
from .nest import Nest, counted
from .text import index, loc_comment


def emit(ctx, number: int, k: FftKernel) -> Emitted:
    ctx.loops.calls.add("sgm_fft")
    return Emitted(*fft_kernel(ctx.env, number, k))


def _scale(k: FftKernel, in_shape: tuple, out_shape: tuple) -> float:
    shape = out_shape if k.kind == "fft_c2r" else in_shape
    points = math.prod(shape[a] for a in k.axes)
    norm = k.attrs["norm"]
    return 1.0 if norm == "none" else 1 / math.sqrt(points) if norm == "sqrt" else 1 / points


def _copy_in(operand: View, work: View) -> Nest:
    dims = [(f"i{d}", d) for d in range(len(operand.shape))]
    loops = [counted(var, operand.shape[d]) for var, d in dims]
    return Nest(loops, [f"W_[{index(work, dims)}] = {operand.buffer.name}"
                        f"[{index(operand, dims)}];"]).scoped()


def _transforms(shape: tuple, axes, sign: int) -> list:
    lines = []
    for a in axes:
        outer, inner = math.prod(shape[:a]), math.prod(shape[a + 1:])
        lines.append(f"sgm_fft_axis(W_, {outer}, {shape[a]}, {inner}, {sign}, S_);")
    return lines


def _copy_out(k: FftKernel, work: View, source: str, scale: float) -> Nest:
    """``out = scale * source`` (``W_``'s values; ``R_``'s real parts for c2r), two-sided r2c
    filling its second half with conjugates."""
    out = k.out
    dims = [(f"i{d}", d) for d in range(len(out.shape))]
    loops = [counted(var, out.shape[d]) for var, d in dims]
    factor = "" if scale == 1.0 else f" * {c_literal(scale, float64)}"
    ctype = out.buffer.dtype.ctype
    value = f"{source}[{index(work, dims)}]"
    if k.kind == "fft_c2r":
        value = f"creal({value})"
    body = [f"{out.buffer.name}[{index(out, dims)}] = ({ctype})({value}{factor});"]
    if k.kind == "fft_r2c" and not k.attrs["onesided"] and k.axes:
        last, n = k.axes[-1], work.shape[k.axes[-1]]
        mirrored = [(f"(i{d} ? {work.shape[d]} - i{d} : 0)", d) for d in k.axes] + \
            [(var, d) for var, d in dims if d not in k.axes]
        twin = f"conj({source}[{index(work, mirrored)}])"
        body = [f"{out.buffer.name}[{index(out, dims)}] = ({ctype})((i{last} < {n // 2 + 1} "
                f"? {value} : {twin}){factor});"]
    return Nest(loops, body).scoped()


def fft_kernel(env, number: int, k: FftKernel) -> tuple[str, int]:
    """(the kernel's C, its work in elements); "" when it has no elements."""
    operand, out = k.inputs[0], k.out
    in_shape, out_shape = tuple(operand.shape), tuple(out.shape)
    if math.prod(in_shape) == 0 or math.prod(out_shape) == 0:
        return "", 0
    scratch = k.scratch
    n_in = math.prod(in_shape)
    work = View(scratch.buffer, 0, in_shape, contiguous_strides(in_shape))
    init = [f"double _Complex *const W_ = {scratch.buffer.name} + {scratch.offset};",
            f"double _Complex *const S_ = W_ + {n_in};"]
    nests = [_copy_in(operand, work)]
    source = "W_"
    if k.kind == "fft_c2r":
        last = k.axes[-1]
        length = out_shape[last]
        init.append(f"double _Complex *const R_ = S_ + "
                    f"{scratch.buffer.size - n_in - math.prod(out_shape)};")
        calls = _transforms(in_shape, k.axes[:-1], 1) + [
            f"sgm_fft_c2r(W_, {math.prod(in_shape[:last])}, {in_shape[last]}, {length}, "
            f"{math.prod(in_shape[last + 1:])}, R_, S_);"]
        work = View(scratch.buffer, 0, out_shape, contiguous_strides(out_shape))
        source = "R_"
    else:
        sign = -1 if k.kind == "fft_r2c" or k.attrs["forward"] else 1
        calls = _transforms(in_shape, k.axes, sign)
    nests += [Nest([], calls), _copy_out(k, work, source, _scale(k, in_shape, out_shape))]
    axes = ", ".join(map(str, k.axes))
    title = f"{k.kind} {list(in_shape)} over axes ({axes}) -> {out.buffer.name}"
    text = render_kernel(env, number, title, [loc_comment(k.loc, k.kind)], nests, init)
    work_elements = sum(math.prod(in_shape) * max(1, math.ceil(math.log2(max(n, 2)))) * 4
                        for n in in_shape) + math.prod(out_shape)
    return text, work_elements
