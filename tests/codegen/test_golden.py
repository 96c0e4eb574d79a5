"""Golden C: the generated C of a small corpus of functions, byte for byte.

A change to code generation (or to a pass or to lowering) that changes the C shows here as a
diff to review. The C is generated through the stages (trace, passes, lower, codegen) with the
vector math declarations on, whatever this machine's toolchain, and not built.

Refresh after reviewing: ``make golden`` (``python tests/codegen/test_golden.py --refresh``).
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import symgrad as sg  # noqa: E402
from golden_corpus import CORPUS, arguments  # noqa: E402
from symgrad.codegen.csource import Target  # noqa: E402
from symgrad.codegen.module import generate  # noqa: E402
from symgrad.lower import lower  # noqa: E402
from symgrad.passes import PIPELINE  # noqa: E402
from symgrad.pipeline import optimize  # noqa: E402

GOLDEN = HERE / "golden"
TRANSFORMS = {"compile": sg.compile, "grad": lambda f: sg.grad(f, argnums=0),
              "value_and_grad": lambda f: sg.value_and_grad(f, argnums=0)}


def c_text(name: str) -> str:
    fn, transform, specs = CORPUS[name]
    cf = TRANSFORMS[transform](fn)
    graph = optimize(cf.trace(*arguments(specs)).graph, PIPELINE)[0]
    return generate(lower(graph), cf.name, title=f"{cf.name}: compiled by symgrad",
                    target=Target(vector_math=True)).text


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
    this machine's toolchain), against the NumPy interpreter of their traced graphs."""
    import numpy as np

    from symgrad.ir import interpret
    fn, transform, specs = CORPUS[name]
    cf = TRANSFORMS[transform](fn)
    args = arguments(specs)
    spec, leaves = cf.specialize(*args)
    got = spec.run(leaves)
    want = interpret(spec.compiled.traced.graph, leaves)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=2e-6 if a.dtype == np.float32 else 1e-12,
                                   atol=1e-6 if a.dtype == np.float32 else 1e-12)


if __name__ == "__main__" and "--refresh" in sys.argv:
    GOLDEN.mkdir(exist_ok=True)
    for name in sorted(CORPUS):
        (GOLDEN / f"{name}.c").write_text(c_text(name))
        print(f"wrote {GOLDEN / name}.c")
