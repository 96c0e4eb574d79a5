"""The sweep's accuracy test for float32 and complex64 results torch rounds in an order symgrad
cannot reproduce: is symgrad's result at least as accurate as torch's own, both measured
against torch's result in float64 on the same inputs?

Input: a sample, the aspect that differs (``value[i]``, ``grad[j]``), symgrad's and torch's
records and the reference record: torch's run of the ``widened`` sample (float32 arguments
as float64, complex64 as complex128, the same values), which ``store.py`` computes and
stores beside torch's records. Output: ``widened`` (the sample to run for the reference) and
``at_least_as_accurate`` (the verdict).

The measure is the leaf's largest absolute error over the elements the reference holds finite
(a normwise error, the measure of linear algebra's error bounds); where the reference is not
finite, symgrad's value must be torch's. The records hold float32 values to 9 digits (exact)
and float64 ones to 13, well below a float32 rounding.
"""

from __future__ import annotations

import math

from .spec import Sample, T

WIDE = {"float32": "float64", "complex64": "complex128"}


class Widened(T):
    """A float32 (complex64) tensor argument built as float64 (complex128) from the same
    values: its data is the narrow spec's, cast; it prints as the narrow spec."""

    def render(self) -> str:
        return self.narrow().render()

    def narrow(self) -> T:
        dtype = next(k for k, v in WIDE.items() if v == self.dtype)
        return T(self.shape, dtype, self.kind, self.grad, self.seed)

    def data(self, salt: int):
        from .spec import NP
        return self.narrow().data(salt).astype(NP[self.dtype])


def _widen(value):
    if isinstance(value, T) and value.dtype in WIDE:
        return Widened(value.shape, WIDE[value.dtype], value.kind, value.grad, value.seed)
    if isinstance(value, (list, tuple)):
        return type(value)(_widen(v) for v in value)
    return value


def narrow_tensors(sample) -> bool:
    """Whether the sample has a float32 or complex64 tensor argument (what widening changes)."""
    return any(isinstance(a, T) and a.dtype in WIDE for a in sample.args)


def widened(sample) -> Sample:
    """The sample with its float32 (complex64) tensor arguments as float64 (complex128)."""
    return Sample(sample.ns, sample.name, _widen(sample.args),
                  {k: _widen(v) for k, v in sample.kwargs.items()}, sample.tag)


def _leaf(record: dict, aspect: str):
    kind, index = aspect.rstrip("]").split("[")
    leaves = record.get("o" if kind == "value" else "g") or []
    i = int(index)
    leaf = leaves[i] if i < len(leaves) else None
    return None if leaf is None or "v" not in leaf else leaf["v"]


def _error(values: list, reference: list) -> float:
    worst = 0.0
    for x, r in zip(values, reference):
        if math.isfinite(r):
            worst = max(worst, abs(x - r) if math.isfinite(x) else math.inf)
    return worst


def at_least_as_accurate(aspect: str, mine: dict, theirs: dict, reference: dict | None) -> bool:
    """Whether symgrad's ``aspect`` (a value or gradient leaf) is at least as accurate as
    torch's against the float64 ``reference`` record (False without one)."""
    if reference is None or not aspect.startswith(("value[", "grad[")):
        return False
    a, b, r = (_leaf(rec, aspect) for rec in (mine, theirs, reference))
    if a is None or b is None or r is None or not len(a) == len(b) == len(r):
        return False
    for x, y, z in zip(a, b, r):   # where the reference is not finite: torch's value
        if not math.isfinite(z) and not (x == y or (x != x and y != y)):
            return False
    return _error(a, r) <= _error(b, r)
