"""Every op in the registry has every piece: shape rule, dtype rule, NumPy reference, a VJP
rule (or a stated absence of gradient), a SymPy expression for elementwise ops, torch's name."""

import sympy
import pytest

from symgrad.ops import OPS
from symgrad.ops.registry import ELEMENTWISE, SOURCE

NO_GRADIENT = {"lt", "le", "gt", "ge", "eq", "ne", "logical_and", "logical_or", "logical_not",
               "argmax", "argmin"}


@pytest.mark.parametrize("name", sorted(OPS))
def test_op_is_complete(name):
    op = OPS[name]
    assert callable(op.shape) and callable(op.dtype)
    if op.kind == SOURCE:
        return
    assert callable(op.numpy)
    if name in NO_GRADIENT:
        assert op.vjp is None
    else:
        assert callable(op.vjp), f"{name} has no VJP rule"
        assert op.torch_name.endswith(tuple("0123456789")), op.torch_name
    if op.kind == ELEMENTWISE and name != "cast":
        assert isinstance(op.expr, sympy.Basic)
        assert op.symbols and set(op.expr.free_symbols) <= set(op.symbols)
