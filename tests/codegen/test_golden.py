"""Golden C: the generated C of a small corpus of functions, byte for byte.

A change to code generation (or to a pass or to lowering) that changes the C shows here as a
diff to review. The corpus covers every kind of kernel (loops, scalar and element statements,
matmuls small and BLAS, index, scan, decomposition, sort, guard and control kernels: while,
scan, checkpointed scan, cond), one shape-generic program and one standalone export. The C is
generated through the stages (trace, passes, lower, codegen) with the vector math declarations
on, whatever this machine's toolchain; the shape-generic program is compiled (its trace needs
the two-hint check), as is the guarded one (traced on values), and generated again for that
target; the export is portable C.

Refresh after reviewing: ``make golden`` (``python tests/codegen/test_golden.py --refresh``).
"""

from __future__ import annotations

import difflib
import os
import sys
import tempfile
from pathlib import Path
from unittest import mock

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import symgrad as sg  # noqa: E402
from golden_corpus import CORPUS, arguments  # noqa: E402
from symgrad.codegen.c.csource import Target  # noqa: E402
from symgrad.dims import Dim, recording  # noqa: E402
from symgrad.codegen.c.module import generate  # noqa: E402
from symgrad.lower import lower  # noqa: E402
from symgrad.passes import PIPELINE  # noqa: E402
from symgrad.pipeline import backend, optimize, retarget  # noqa: E402

GOLDEN = HERE / "golden"
TRANSFORMS = {"compile": sg.compile, "grad": lambda f: sg.grad(f, argnums=0),
              "value_and_grad": lambda f: sg.value_and_grad(f, argnums=0),
              "generic": lambda f: sg.compile(sg.value_and_grad(f, argnums=(0, 1)),
                                              dynamic=True),
              "export": sg.compile,
              "grad_on_values": lambda f: sg.grad(f, argnums=0)}
# Compiled, then generated again for the golden target: the shape-generic program (its trace
# needs the two-hint check) and Python control flow on traced values (traced on the values).
COMPILED = ("generic", "grad_on_values")


def c_text(name: str) -> str:
    fn, transform, specs = CORPUS[name]
    cf = TRANSFORMS[transform](fn)
    args = arguments(specs)
    if transform == "export":
        with tempfile.TemporaryDirectory() as out:
            return cf.export_c(out, *args, name=name).files[f"{name}.c"].read_text()
    if transform in COMPILED:
        with _no_warm_start():
            spec, _ = cf.specialize(*args)
        assert transform != "generic" or \
            isinstance(spec.compiled.traced.graph.inputs[0].shape[0], Dim), \
            "the shape-generic program was compiled for one size"
        with recording():    # (the size comparisons codegen makes are the module's guards)
            return retarget(spec.compiled, Target(vector_math=True)).text
    graph = optimize(cf.trace(*args).graph, PIPELINE)[0]
    return generate(lower(graph, backend().capabilities), cf.name,
                    title=f"{cf.name}: compiled by symgrad", target=Target(vector_math=True)).text


def _no_warm_start():
    """Compile here (a warm start would load a module without its stages)."""
    return mock.patch.dict(os.environ, {"SYMGRAD_WARM_START": "0"})


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_generated_c_matches_the_golden_file(name):
    path = GOLDEN / f"{name}.c"
    assert path.exists(), f"no golden file {path}: run `make golden`"
    want, got = path.read_text(), c_text(name)
    if got != want:
        diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                            f"golden/{name}.c", "generated"))
        pytest.fail(f"the C of {name} changed; review the diff, then `make golden`:\n{diff}")


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_golden_programs_compute_what_numpy_does(name):
    """The golden C is the C of programs that compute the right numbers (compiled here, with
    this machine's toolchain), against the NumPy interpreter of their traced graphs (for the
    shape-generic program: of the graph traced for each size, at two sizes)."""
    import numpy as np

    from symgrad.ir import interpret
    fn, transform, specs = CORPUS[name]
    cf = TRANSFORMS[transform](fn)
    sizes = [specs]
    if transform == "generic":
        sizes.append([((7,) + specs[0][0][1:], specs[0][1]), *specs[1:]])
    for each in sizes:
        args = arguments(each)
        with _no_warm_start():
            spec, leaves = cf.specialize(*args)
        graph = (sg.value_and_grad(fn, argnums=(0, 1)).trace(*args) if transform == "generic"
                 else spec.compiled.traced).graph
        for a, b in zip(spec.run(leaves), interpret(graph, leaves)):
            # float32: BLAS and the C loops sum in other orders than NumPy (64 terms)
            np.testing.assert_allclose(a, b, rtol=1e-5 if a.dtype == np.float32 else 1e-12,
                                       atol=1e-5 if a.dtype == np.float32 else 1e-12)


if __name__ == "__main__" and "--refresh" in sys.argv:
    GOLDEN.mkdir(exist_ok=True)
    for name in sorted(CORPUS):
        (GOLDEN / f"{name}.c").write_text(c_text(name))
        print(f"wrote {GOLDEN / name}.c")
