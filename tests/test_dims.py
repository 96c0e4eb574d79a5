"""dims.Dim: call-time sizes as polynomials over size symbols (base layer).

Every identity below is checked against the polynomial evaluated at several symbol values
(the definition), not against its own printing alone.
"""

from __future__ import annotations

import functools
import math
import pickle
import sys
import types

import pytest

from symgrad import dims
from symgrad.dims import Dim, NotGeneric
from symgrad.size import Size

N = Dim.symbol("n", 1009)
M = Dim.symbol("m", 1013)
VALUES = [{"n": a, "m": b} for a in (1, 2, 7, 1000) for b in (1, 3, 64)]


def _at(x, v):
    return x.evaluate(v) if isinstance(x, Dim) else x


def _in_symgrad(code: str, **names):
    """``code`` evaluated as symgrad's own code (a module named ``symgrad.*``): a Dim hashes
    and prints only for such callers."""
    return eval(code, {"__name__": "symgrad.codegen.example", **names})


@pytest.mark.parametrize("expr, fn", [
    (lambda: N * 784 + 3, lambda n, m: n * 784 + 3),
    (lambda: (N + 1) * (N - 1), lambda n, m: n * n - 1),
    (lambda: 2 * N * M - M, lambda n, m: 2 * n * m - m),
    (lambda: (N * 784) // 784, lambda n, m: n),
    (lambda: (N * M * 6) // (M * 3), lambda n, m: 2 * n),
    (lambda: N ** 3, lambda n, m: n ** 3),
    (lambda: math.prod((N, 784, M)), lambda n, m: n * 784 * m),
    (lambda: -N + N, lambda n, m: 0),
])
def test_arithmetic_is_the_polynomial(expr, fn):
    x = expr()
    assert int.__int__(x) if isinstance(x, Dim) else x == fn(1009, 1013)
    for v in VALUES:
        assert _at(x, v) == fn(v["n"], v["m"])


def test_a_constant_result_is_a_plain_int_and_printing_is_c():
    assert type(N - N) is int and type((N * 6) // N) is int
    assert _in_symgrad("[str(N), str(N * 784 + 3), repr(1 - N), f'{N * M}']", N=N, M=M) == [
        "n", "(784*n + 3)", "(-n + 1)", "(m*n)"]


def test_what_is_not_a_polynomial_is_not_generic():
    for op in (lambda: N / 2, lambda: float(N), lambda: int(N), lambda: N % 3,
               lambda: (N + 1) // 2, lambda: N * 1.5, lambda: N < 2.5, lambda: N.bit_length()):
        with pytest.raises(NotGeneric):
            op()
    assert (N * 6) % 3 == 0


def test_comparisons_decided_for_every_size_record_no_guard():
    with dims.recording() as guards:
        assert N >= 1 and N > 0 and not N == 0 and N * 3 > N and max(N, 1) is N
        assert N + 1 != N and N * N >= N
    assert guards == []


def test_undecidable_comparisons_answer_on_the_hint_and_record_a_guard():
    with dims.recording() as guards:
        assert (N == 3) is False and (N >= 500) is True and (N == M) is False
    assert [str(g) for g in guards] == ["(n - 3) == 0 is False", "(n - 500) >= 0 is True",
                                        "(-m + n) == 0 is False"]
    assert guards[0].holds({"n": 4}) and not guards[0].holds({"n": 3})
    assert guards[1].holds({"n": 600}) and not guards[1].holds({"n": 7})
    with pytest.raises(NotGeneric):    # outside a recording nobody could check a guard
        N == 3


def test_structural_helpers_never_guard():
    with dims.recording() as guards:
        assert dims.same(N * 2, N + N) and not dims.same(N, 5) and dims.same(4, 4)
        assert not dims.is_one(N) and dims.is_one(1)
        assert dims.large(N, 4) and not dims.large(N * 0 + 3, 4)
        assert dims.provably(N * 8, "<=", N * 8 + 64) and not dims.provably(N, "<=", 5)
        assert dims.same_shape((N, 3), (N, 3)) and not dims.same_shape((N, 3), (5, 3))
        assert dims.many(N) and not dims.many(1)
    assert guards == []


def test_round_up_is_a_multiple_at_least_the_size():
    x = dims.round_up(N * 24 + 8, 64)
    for v in VALUES:
        got, size = x.evaluate(v), v["n"] * 24 + 8
        assert got % 64 == 0 and got >= size
    assert dims.round_up(100, 64) == 128


def test_span_of_slices():
    with dims.recording():
        assert dims.c_text(dims.span(1, N, 1).terms) == "(n - 1)"
        assert dims.span(0, 10, 3) == 4
        with pytest.raises(NotGeneric):
            dims.span(0, N, 2)


def test_hash_equality_and_pickling():
    assert _in_symgrad("{N * 2: 'a'}[N + N]", N=N) == "a"
    again = pickle.loads(pickle.dumps(N * 3 + M))
    assert dims.same(again, N * 3 + M) and int.__int__(again) == 3 * 1009 + 1013
    assert dims.concrete((N, 3, N * M), {"n": 2, "m": 5}) == (2, 3, 10)


USES = {   # what the user's code (or a library it calls) may not do with a size
    "hash": lambda n: hash(n),
    "set": lambda n: n in {3, 5},
    "dict": lambda n: {3: "a", 5: "b"}.get(n),
    "lru_cache": lambda n: functools.lru_cache(lambda k: k)(n),
    "str": lambda n: str(n),
    "repr": lambda n: repr(n),
    "f-string": lambda n: f"{n}",
    "format": lambda n: f"{n:>4}",
    "percent s": lambda n: "%s" % n,
    "shape": lambda n: str(Size((n, 3))),
    "shape hash": lambda n: hash(Size((n, 3))),
    "__index__": lambda n: n.__index__(),
    "int": lambda n: int(n),
    "bit_count": lambda n: n.bit_count(),
}


@pytest.mark.parametrize("use", sorted(USES))
def test_hashing_printing_or_a_concrete_value_outside_symgrad_is_not_generic(use):
    where = "test_dims.py" if use in ("hash", "set", "lru_cache", "str", "shape") else None
    with dims.recording() as guards, pytest.raises(NotGeneric, match=where):
        USES[use](N * 2)
    assert guards == []


def test_symgrads_own_code_hashes_and_prints_sizes():
    # a C-level caller (a set, lru_cache) answers to the Python frame that used it
    code = "({N: 1}[N], N in {N}, functools.lru_cache(lambda k: 7)(N), repr(Size((N, 3))))"
    assert _in_symgrad(code, N=N, Size=Size, functools=functools) == (
        1, True, 7, "torch.Size([n, 3])")
    # a dataclass's generated methods run in its module's globals
    module = types.ModuleType("symgrad._example_records")
    sys.modules[module.__name__] = module
    try:
        exec("import dataclasses\n"
             "@dataclasses.dataclass(frozen=True)\n"
             "class Record:\n"
             "    shape: tuple\n", module.__dict__)
        record = module.Record((N, 3))
        assert hash(record) == hash(module.Record((N, 3))) and "n, 3" in repr(record)
    finally:
        del sys.modules[module.__name__]


def test_what_int_would_answer_with_the_hint_is_the_polynomial():
    assert N.real is N and N.numerator is N and N.imag == 0 and N.denominator == 1
    assert N.conjugate() is N
