"""The tolerance policy of the differential fuzzer: when two results count as the same.

Kinks and ties. Before anything is compared, the program runs once eagerly in float64 with a
``Probe`` after each statement (``Program.source(probes=True)``). For every switch point (abs,
relu, sign at 0; maximum/minimum, where-comparisons and clamp bounds at a tie of their operands;
amax/amin/max/argmax at a tie of the two extreme values; a 2-norm at 0; a cast to int64 at an
integer) it measures the *margin*, the distance of the inputs to the switch relative to the
operands' size: ``|a - b| / (1 + |a| + |b|)``, for ties the gap between the two extreme values
over ``1 + |extreme|``, for casts the distance to the nearest integer over ``1 + |a|``. Then:

- ``0 < margin < KINK_MARGIN``: *near* a switch. float32 and float64, or two implementations
  that round differently, may take different branches; the inputs are rejected
  (``hypothesis.assume``) and others drawn. Programs with tens of thousands of elements use
  ``LARGE_KINK_MARGIN``: at 1e-3 one element in a thousand is near a switch and nearly every
  program would be rejected; 1e-5 still exceeds float32 rounding through a few ops and the
  finite-difference steps.
- ``margin == 0``: an *exact* tie or zero (``grid`` inputs make them on purpose). Every
  implementation computes the same bits on both sides, so they must agree, with torch's
  conventions (relu'(0) = abs'(0) = 0, ties share the gradient); but the function is not
  differentiable there, so the finite-difference check is skipped.

Between implementations (compiled, compiled into ``out=`` arrays, compiled without passes,
interpreter, eager: same dtypes, same rules) results must agree to ``RTOL[precision]`` times
each element's size plus the largest magnitude any value of the program reached
(``Probe.scale``: a sum of large terms that cancels is exact only to that). The precision is
float32 if any value of the program is float32. Shapes and dtypes must equal the model's
prediction exactly, NaN where the reference has NaN, infinities equal, integers equal.

Gradients against central finite differences of the float64 program (the same source with
every float32 spelled float64, evaluated by the NumPy interpreter). Each element's derivative
is estimated with steps h and 2h (h = ``FD_STEP`` * max(1, |x|)); the estimate's own error is
about |D(h) - D(2h)| / 3, so the tolerance is ``FD_RTOL[precision] * (|D| + gradient scale) +
RTOL[precision] * scale + FD_SLACK * |D(h) - D(2h)|``: relative to the derivative and to the
largest one, plus rounding in the computed gradient, which is not relative to it (an exact 0
comes out as 1e-7 in float32), plus the estimate's error. Past ``FD_ELEMENTS`` input elements,
derivatives along ``FD_DIRECTIONS`` random directions ``v`` per input are compared with
``g . v`` the same way (``|g| |v| / sqrt(n)`` as the gradient scale, ``|v|`` times the rounding
term). Skipped when the program has an exact tie (above), a NaN or infinite loss, or may hold
NaN by the model (``Program.special``).

Intended differences the generator avoids (symgrad documents them or refuses clearly): matmul
of int64 tensors (symgrad's matmul is floating only) and of float32 with float64 (symgrad
promotes, torch refuses); softmax, logsumexp and norm of int64 (symgrad computes in float32,
torch refuses); in-place updates through a reshape of a non-contiguous view (symgrad's reshape
is always a view).
"""

from __future__ import annotations

import math

import numpy as np

KINK_MARGIN = 1e-3
LARGE_KINK_MARGIN = 1e-5   # large programs: 1e-3 would reject nearly all of them (see below)
RTOL = {"float32": 2e-5, "float64": 1e-11}
FD_RTOL = {"float32": 2e-3, "float64": 1e-6}
FD_SLACK = 4.0
FD_STEP = 1e-6
FD_ELEMENTS = 96          # up to this many input elements: element by element
FD_DIRECTIONS = 2         # else: random directions per input


class Probe:
    """Collects, during an eager float64 run of the probed source, the smallest margin to a
    switch point and the largest finite magnitude of any value."""

    def __init__(self):
        self.margin = math.inf
        self.scale = 1.0

    @staticmethod
    def _array(x) -> np.ndarray:
        return np.asarray(x, dtype=np.float64)

    def _note(self, d: np.ndarray) -> None:
        d = d[~np.isnan(d)]
        if d.size:
            self.margin = min(self.margin, float(d.min()))

    def zero(self, a, b=0.0) -> None:
        """A switch where ``a == b`` (broadcast)."""
        a, b = self._array(a), self._array(b)
        with np.errstate(all="ignore"):
            self._note(np.abs(a - b) / (1 + np.abs(a) + np.abs(b)))

    def tie(self, a, dims, which: str) -> None:
        """A switch where the two largest (``which='max'``) or smallest values along ``dims``
        (None: all) tie."""
        a = self._array(a)
        if a.ndim == 0 or a.size == 0:
            return
        axes = range(a.ndim) if dims is None else \
            [d % a.ndim for d in ((dims,) if isinstance(dims, int) else dims)]
        rest = [d for d in range(a.ndim) if d not in axes]
        n = math.prod(a.shape[d] for d in axes)
        if n < 2:
            return
        flat = np.sort(np.transpose(a, rest + list(axes)).reshape(-1, n), axis=-1)
        top, second = (flat[:, -1], flat[:, -2]) if which == "max" else (flat[:, 0], flat[:, 1])
        with np.errstate(all="ignore"):
            self._note(np.abs(top - second) / (1 + np.abs(top)))

    def integral(self, a) -> None:
        """A switch where ``a`` crosses an integer (a cast to int64 truncates)."""
        a = self._array(a)
        with np.errstate(all="ignore"):
            self._note(np.abs(a - np.round(a)) / (1 + np.abs(a)))

    def value(self, a) -> None:
        a = self._array(a)
        finite = np.abs(a[np.isfinite(a)])
        if finite.size:
            self.scale = max(self.scale, float(finite.max()))

    def near(self, margin: float = KINK_MARGIN) -> bool:
        return 0 < self.margin < margin

    @property
    def exact_tie(self) -> bool:
        return self.margin == 0


def mismatch(x: np.ndarray, y: np.ndarray, rtol: float, scale: float) -> str | None:
    """Why ``x`` (a result) differs from ``y`` (the reference), or None if they agree: the
    same shape and dtype, NaN at the same places, equal infinities, finite values within
    ``rtol * (|y| + scale)``."""
    x, y = np.asarray(x), np.asarray(y)
    if x.shape != y.shape or x.dtype != y.dtype:
        return f"shape/dtype {x.shape} {x.dtype} vs {y.shape} {y.dtype}"
    if x.dtype.kind != "f":
        bad = x != y
    else:
        with np.errstate(all="ignore"):
            xn, yn = np.isnan(x), np.isnan(y)
            finite = np.isfinite(x) & np.isfinite(y)
            err = np.where(finite, np.abs(x.astype(np.float64) - y), 0.0)
            bad = (xn != yn) | (~finite & ~xn & ~yn & (x != y)) | \
                (err > rtol * (np.abs(y.astype(np.float64)) + scale))
    if not bad.any():
        return None
    i = np.unravel_index(int(np.argmax(bad)), bad.shape) if bad.ndim else ()
    return (f"{int(bad.sum())} of {bad.size} elements differ; at {tuple(map(int, i))}: "
            f"{x[i]!r} vs {y[i]!r} (rtol {rtol:g}, scale {scale:g})")
