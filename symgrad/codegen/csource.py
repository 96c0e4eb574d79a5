"""What code generation hands to the build: the C text and, as data, everything about it the
build needs to know.

Layer: codegen. The compiler derives its flags from ``BuildNeeds`` and the units from
``units``; it never searches the text (a user's source line, which the text quotes in
comments, must not be able to change how the text is built).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class BuildNeeds:
    """The features a C text uses, which the build must provide."""

    openmp: bool = False            # `omp parallel` loops: compile and link with OpenMP
    vector_math: tuple = ()         # libm functions declared `omp declare simd` (libmvec)
    blas: bool = False              # calls scipy_cblas_?gemm: link OpenBLAS


@dataclass(frozen=True)
class CSource:
    text: str
    entry: str
    cdef: str
    workspace_bytes: int = 0     # temporaries, plus the spill slots of a split function
    # The translation units the build compiles the text as: extra compiler flags for each
    # (after the default ones). One unit: the whole text, as is. Several: unit k is the text
    # compiled with -DSG_TU=k (see ``split.assign_units``).
    units: tuple = ((),)
    needs: BuildNeeds = field(default_factory=BuildNeeds)
    # The nonzero statuses the entry point can return: (status, what went wrong, e.g. "an
    # index passed to gather is out of range (from f.py:3: ...)").
    errors: tuple = ()
