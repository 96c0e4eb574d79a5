"""The ops' C expressions: the table printed ahead of time is SymPy's printing of today's ops.

``symgrad/codegen/c/optable.py`` keeps compiling free of SymPy (its import costs 0.3-1 s per
process); this test keeps the table honest: it must equal a fresh printing of every op's SymPy
expression, in every dtype C computes in. If it fails, an op's expression or the printer
changed: run ``make optable`` and review the diff.
"""

from symgrad.codegen.c import exprs, optable
from symgrad.lower.loopir import Expr
from symgrad import dtypes


def test_printed_table_is_a_fresh_printing():
    ops, pows = exprs.printed_table()
    assert ops == optable.EXPRESSIONS, "run `make optable` (an op's C expression changed)"
    assert pows == optable.POW, "run `make optable` (pow's C changed)"


def test_every_op_with_an_expression_is_in_the_table_in_its_own_dtype():
    from symgrad.ops import OPS
    from symgrad.ops.registry import ELEMENTWISE
    for name, op in OPS.items():
        if name == "complex":   # a complex result from real parts: no real dtype of its own
            continue
        if op.kind == ELEMENTWISE and op.scalar is not None:
            assert (name, "float64") in optable.EXPRESSIONS or (name, "bool") in \
                optable.EXPRESSIONS, name


def test_statements_print_from_the_table_with_operands_in_place():
    f64, b = dtypes.float64, dtypes.bool_
    text, calls = exprs.c_statement(Expr("mul", f64, f64), ["l0", "a + b"])
    assert text == "l0*(a + b)" and calls == ()
    text, calls = exprs.c_statement(Expr("exp", dtypes.float32, dtypes.float32), ["l1"])
    assert text == "expf(l1)" and calls == ("expf",)
    assert exprs.c_statement(Expr("cast", b, f64), ["x"])[0] == "(x != 0)"
    assert exprs.c_statement(Expr("pow", f64, f64, 0.5), ["x", "0.5"]) == ("sqrt(x)", ("sqrt",))
    assert exprs.c_statement(Expr("pow", f64, f64, 3.0), ["x", "3.0"])[0] == "pow(x, (3.0))"
