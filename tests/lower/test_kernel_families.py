"""The kernel protocol (lower.loopir): every op is lowered somehow, every kernel family named
by an op has its lowering and its C emitter, every kernel class keeps the protocol, and a
family with no module is one clear error (never another family's emitter)."""

import dataclasses
import importlib
import pkgutil

import pytest

import symgrad.lower
from symgrad.codegen.c.emitted import emitter_of
from symgrad.lower.loopir import Buffer, View
from symgrad.lower.lowering import lowering_of
from symgrad.ops import OPS
from symgrad.ops.registry import ELEMENTWISE, REDUCE, SOURCE
from symgrad import dtypes

FAMILIES = sorted({op.kernel for op in OPS.values() if op.kernel})


def _kernel_classes() -> list:
    """Every class of the lower package that declares a kernel family."""
    found = []
    for info in pkgutil.iter_modules(symgrad.lower.__path__):
        module = importlib.import_module(f"symgrad.lower.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module.__name__ and \
                    isinstance(getattr(value, "family", None), str):
                found.append(value)
    return found


# One-operand ops whose every application has a complex operand or result: the lowering
# refuses complex values for now (lower.lowering), so they need no kernel yet.
COMPLEX_ONLY = {"fft_c2c", "fft_r2c", "fft_c2r"}


def _complex_only(op) -> bool:
    """Whether ``op`` is listed above and its dtype rule indeed gives or takes complex only."""
    if op.name not in COMPLEX_ONLY:
        return False
    for d in (dtypes.float32, dtypes.float64, dtypes.int64):
        try:
            if not op.dtype(d).is_complex:
                return False
        except TypeError:
            continue
    return True


def test_every_op_is_fused_a_view_or_names_its_kernel():
    for name, op in OPS.items():
        assert op.kind in (ELEMENTWISE, REDUCE, SOURCE) or op.view or op.kernel \
            or _complex_only(op), \
            f"op {name!r} ({op.kind}) has no lowering: give its OpDef kernel='<family>'"


@pytest.mark.parametrize("family", FAMILIES)
def test_every_named_family_has_a_lowering(family):
    assert callable(lowering_of(family))


def test_every_kernel_class_has_an_emitter_and_keeps_the_protocol():
    classes = _kernel_classes()
    assert {c.__name__ for c in classes} >= {
        "ScalarStmt", "ElementStmt", "LoopKernel", "MatmulKernel", "IndexKernel",
        "CumulativeKernel", "DecompKernel", "SortKernel", "ControlKernel", "GuardKernel"}
    for cls in classes:
        assert callable(emitter_of(cls.__new__(cls))), cls
        assert callable(cls.views) and callable(cls.with_views), cls
        assert dataclasses.is_dataclass(cls), cls


def test_with_views_replaces_every_view():
    """The buffer plan moves temporaries through with_views: every View views() lists must be
    the one with_views gave (a kernel kind that forgot a field would keep an unplaced one)."""
    from symgrad.codegen.c.module import generate  # noqa: F401  (the emitters' imports)
    import numpy as np

    import symgrad as sg
    from symgrad.build.backends import default
    from symgrad.lower import lower
    from symgrad.passes import PIPELINE
    from symgrad.pipeline import optimize

    def f(a, b, i):
        s = sg.sort(a, 1).values + sg.cumsum(a, 1) + a[i] @ b
        return sg.linalg.solve(b, s.mT).sum() + sg.argmax(a, 1).sum()
    args = (np.ones((3, 3)) + np.eye(3), np.eye(3) * 2.0, np.array([0, 2, 1]))
    graph = optimize(sg.grad(f).trace(*args).graph, PIPELINE)[0]
    kernels = lower(graph, default().capabilities).kernels
    assert {type(k).family for k in kernels} >= {"sorting", "cumulative", "matmul", "decomp",
                                                "index", "loops"}
    marker = Buffer("temp", 999, dtypes.float64, 1)
    for k in kernels:
        moved = k.with_views(lambda v: dataclasses.replace(v, buffer=marker)
                             if isinstance(v, View) else v)
        assert type(moved) is type(k)
        assert all(v.buffer is marker for v in moved.views())
        assert len(moved.views()) == len(k.views())


def test_a_family_without_a_module_is_one_clear_error():
    @dataclasses.dataclass
    class Strange:
        family = "no_such_family"

    with pytest.raises(NotImplementedError, match="symgrad/codegen/c/no_such_family.py"):
        emitter_of(Strange())
    with pytest.raises(NotImplementedError, match="symgrad/lower/no_such_family.py"):
        lowering_of("no_such_family")
