"""Complex numbers' own primitives: real, imag, conj, complex (from parts), angle, sgn.

Layer: ops. Input: nothing. Output: their OpDefs. None of them is analytic, so each VJP rule
is written in torch's convention (``dtypes``: the gradient of a real loss with respect to
z = x + iy is dL/dx + i dL/dy, and a rule receives the output's cotangent that way):

- ``real(z)``: the cotangent g (real) is the gradient's real part: ``g + 0i``;
- ``imag(z)``: ``0 + ig`` (of a real operand: 0; torch.imag refuses one, the front end too);
- ``conj(z)``: ``conj(g)``;
- ``complex(x, y)``: ``real(g)`` and ``imag(g)``;
- ``angle(z)``: ``g * i z / |z|^2`` (0 at 0; for a real operand, 0);
- ``sgn(z)`` = z / |z| (torch's sign for real numbers): torch's ``sgn_backward``.

The analytic ops (exp, mul, matmul...) keep one rule for real and complex operands: the
autograd applies it conjugated (``OpDef.holomorphic``). The scalar (SymPy) expressions are
those of real operands (angle: 0 or pi, NaN kept; sgn: torch's sign), what a real tensor
compiles to (angle of NaN: 0 here; torch's angle keeps NaN, as the front end's does); complex
values compile through ``codegen/c/complex_ops.py``'s table instead.
"""

from __future__ import annotations

import numpy as np

from .elementwise import _np_sign, elementwise
from .registry import PROMOTE, DType, same_dtype


def _complex_of(*dtypes: DType, **_) -> DType:
    d = same_dtype(*dtypes)
    if not d.is_floating:
        raise TypeError(f"complex: expected both parts of one floating dtype, got {d.name}")
    return d.complex_dtype


def _parts(d: DType, **_) -> DType:
    return d.real_dtype


def _np_sgn(a):
    if not np.iscomplexobj(a):
        return _np_sign(a)
    with np.errstate(all="ignore"):
        magnitude = np.abs(a)
        return np.where(magnitude == 0, 0, a / np.where(magnitude == 0, 1, magnitude)) \
            .astype(a.dtype)


def _np_angle(a):
    if np.iscomplexobj(a):
        return np.angle(a)
    return np.where(a < 0, np.pi, 0).astype(a.dtype)   # (the front end keeps NaN: torch's)


def _complex_part(b, g, zero_real: bool):
    zero = b.full(g, 0.0)
    return b.op("complex", zero, g) if zero_real else b.op("complex", g, zero)


def _angle_vjp(b, g, out, ins):
    z = ins[0]
    if not z.dtype.is_complex:
        return (b.full(g, 0.0),)
    magnitude = b.op("abs", z)
    i_z = b.op("complex", -b.op("imag", z), b.op("real", z))           # i * z
    scaled = b.op("cast", g / (magnitude * magnitude), dtype=z.dtype) * i_z
    return (b.op("where", b.op("eq", magnitude, 0.0), b.full(scaled, 0.0), scaled),)


def _sgn_vjp(b, g, out, ins):
    """torch's sgn_backward: (g - sgn Re(g conj(sgn))) / |z|, 0 at 0; sign's zeros for reals."""
    z = ins[0]
    if not z.dtype.is_complex:
        return (b.full(g, 0.0),)
    magnitude = b.op("abs", z)
    along = b.op("real", g * b.op("conj", out))
    grad = (g - out * b.op("cast", along, dtype=z.dtype)) / b.op("cast", magnitude,
                                                                 dtype=z.dtype)
    return (b.op("where", b.op("eq", magnitude, 0.0), b.full(grad, 0.0), grad),)


elementwise("real", lambda sp, x: sp.re(x), np.real, dtype=_parts, promotion=PROMOTE,
            vjp=lambda b, g, out, ins: (g,), saves=False, holomorphic=False,
            torch="SelectBackward0")
elementwise("imag", lambda sp, x: sp.im(x), np.imag, dtype=_parts, promotion=PROMOTE,
            vjp=lambda b, g, out, ins: (_complex_part(b, g, True),), saves=False,
            holomorphic=False, torch="SelectBackward0")
elementwise("conj", lambda sp, x: sp.conjugate(x), np.conjugate, dtype=same_dtype,
            promotion=PROMOTE, vjp=lambda b, g, out, ins: (b.op("conj", g),), saves=False,
            holomorphic=False, torch="ConjBackward0")
def _np_complex(x, y):
    x, y = np.broadcast_arrays(x, y)
    out = np.empty(x.shape, np.result_type(x.dtype, np.complex64))
    out.real, out.imag = x, y
    return out


elementwise("complex", lambda sp, x, y: x + sp.I * y, _np_complex,
            dtype=_complex_of, promotion=PROMOTE, saves=False, holomorphic=False,
            vjp=lambda b, g, out, ins: (b.op("real", g), b.op("imag", g)),
            torch="ComplexBackward0")
elementwise("angle", lambda sp, x: sp.Piecewise((sp.pi, x < 0), (0, True)),
            _np_angle, dtype=_parts, promotion=PROMOTE,
            vjp=_angle_vjp, holomorphic=False, torch="AngleBackward0")
elementwise("sgn", lambda sp, x: sp.Piecewise((1, x > 0), (-1, x < 0), (0, True)), _np_sgn,
            dtype=same_dtype, promotion=PROMOTE,
            vjp=_sgn_vjp, uses_out=True, holomorphic=False, torch="SgnBackward0")
