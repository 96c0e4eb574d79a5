"""What code generation hands to the build: the C text and, as data, everything about it the
build needs to know.

Layer: codegen (the C backend). The compiler derives its flags from ``BuildNeeds``, the units'
kinds and the ``defines``; it never searches the text (a user's source line, which the text
quotes in comments, must not be able to change how the text is built).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class BuildNeeds:
    """The features a C text uses, which the build must provide."""

    openmp: bool = False            # `omp parallel` loops: compile and link with OpenMP
    vector_math: tuple = ()         # libm functions declared `omp declare simd` (libmvec)
    blas: bool = False              # calls scipy_cblas_?gemm or ?gemv: link OpenBLAS


@dataclass(frozen=True)
class Target:
    """Who builds and calls the C text: symgrad's own build (the default), or a user's
    (``standalone``, for ``export_c`` and ``c_function``).

    ``vector_math``: loops marked ``omp simd`` call glibc's SIMD math (libmvec). ``blas``: what
    a matmul above ``matmul.BLAS_MIN_FLOPS`` calls: ``"scipy"`` (the scipy-openblas32 wheel's
    prefixed names, which symgrad's build links), ``"cblas"`` (the standard ``cblas_?gemm``
    and ``cblas_?gemv`` names, for the user's BLAS) or ``"none"`` (always the plain C loop).
    ``standalone``: the pragmas go through the ``SG_PARALLEL``/``SG_SIMD`` macros, so that the
    text compiles with or without OpenMP, without warnings; the text is one translation unit;
    the entry point is ``static`` (the exported wrapper is the public function).
    ``threads``: large loops may run on ``nthreads`` threads (OpenMP)."""

    vector_math: bool = False
    blas: str = "scipy"
    standalone: bool = False
    threads: bool = True

    def __post_init__(self):
        if self.blas not in ("scipy", "cblas", "none"):
            raise ValueError(f"blas must be 'scipy', 'cblas' or 'none', got {self.blas!r}")


@dataclass(frozen=True)
class CSource:
    text: str
    entry: str
    cdef: str
    workspace_bytes: int = 0     # temporaries, plus the spill slots of a split function
    # The translation units the build compiles the text as, each by its kind: "main" (the
    # entry point and the hot loops: full optimization) or "cold" (scalar statements and small
    # loops: compiled for compile speed); the build maps a kind to its flags. One unit: the
    # whole text, as is. Several: unit k is the text compiled with -DSG_TU=k (see
    # ``split.assign_units``).
    units: tuple = ("main",)
    needs: BuildNeeds = field(default_factory=BuildNeeds)
    # The nonzero statuses the entry point can return: (status, what went wrong, e.g. "an
    # index passed to gather is out of range (from f.py:3: ...)").
    errors: tuple = ()
    # The entry point takes the interrupt parameters last (``sg_sigint``, ``sg_since``) and
    # may return ``interrupt.INTERRUPT_STATUS``: a loop of it polls for Ctrl-C.
    interrupt: bool = False
    # Preprocessor definitions for every unit ("NAME" or "NAME=value"), e.g. the POSIX level
    # a text needs.
    defines: tuple = ()
    # The entry point's parameters as data, (C type, name) pairs in order, e.g.
    # ("const float *", "in0"), ("int", "nthreads"): what the build's calling convention
    # (``build.c.adapter``) is made from. Empty: the text is not called through it (an
    # exported function, reached by its C signature: ``cdef``).
    params: tuple = ()

    @property
    def threaded(self) -> bool:
        """Whether the text reads ``nthreads``: a parallel loop, or BLAS (whose threads
        follow it). Else a call passes 1 without asking the thread governor (~0.14 us of a
        small kernel's call)."""
        return self.needs.openmp or self.needs.blas
