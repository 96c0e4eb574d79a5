"""Differential fuzzing, fixed seed: random well-typed programs (tests/fuzzing) run compiled,
compiled without passes, interpreted and eagerly must agree, and their gradients (and
gradients of gradients along directions) must match central finite differences of the float64
program.

Each test draws ``SYMGRAD_FUZZ_EXAMPLES`` programs (default 24, which keeps ``make test``
near 10 minutes on 2 cores; half that for the slower kinds, a quarter for jvp and vmap,
which compile each program 3-4 times) from a derandomized hypothesis
strategy, so every run checks the same programs; a failure is
shrunk to a minimal program and reported as a script to paste. ``make fuzz``
(tests/fuzz_campaign.py) runs random campaigns.
"""

import contextlib
import dataclasses
import os

from fuzzing import (F32, F64, I64, Config, check_forward, check_gradient, check_jvp,
                     check_vmap, programs)
from fuzzing.complexes import check_complex, complex_programs
from fuzzing.policy import LARGE_KINK_MARGIN
from hypothesis import HealthCheck, given, settings

EXAMPLES = int(os.environ.get("SYMGRAD_FUZZ_EXAMPLES", "24"))


def fuzz_settings(examples: int):
    return settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                           HealthCheck.data_too_large])


fuzz = fuzz_settings(EXAMPLES)
fuzz_fewer = fuzz_settings(max(EXAMPLES // 2, 1))     # the slower kinds
fuzz_transforms = fuzz_settings(max(EXAMPLES // 4, 1))   # 3-4 compiles a program (make fuzz
                                                         # runs more)

FLOAT64 = Config(dtypes=(F64,))
FLOAT32 = Config(dtypes=(F32,))
MIXED = Config(dtypes=(F32, F64), mixed=True)
SIZE_ZERO = Config(dtypes=(F32, F64), empty=True)
LARGE = Config(dtypes=(F32, F64), large=True)
INT64 = Config(dtypes=(F32, F64, I64), mixed=True)


def forward(config: Config) -> Config:
    """Forward checks may also return an int64/bool result (argmax, a comparison, a count)."""
    return dataclasses.replace(config, integer_outputs=True)


@fuzz
@given(programs(forward(FLOAT64)))
def test_forward_float64(prog):
    check_forward(prog)


@fuzz
@given(programs(forward(FLOAT32)))
def test_forward_float32(prog):
    check_forward(prog)


@fuzz
@given(programs(forward(MIXED)))
def test_forward_float32_float64_mixes(prog):
    check_forward(prog)


@fuzz
@given(programs(forward(SIZE_ZERO)))
def test_forward_broadcasting_with_size_zero_and_one_dims(prog):
    check_forward(prog)


@fuzz
@given(programs(forward(INT64)))
def test_forward_int64_with_floats(prog):
    check_forward(prog)


@fuzz
@given(programs(FLOAT64))
def test_gradient_float64(prog):
    check_gradient(prog)


@fuzz
@given(programs(FLOAT32))
def test_gradient_float32(prog):
    check_gradient(prog)


@fuzz
@given(programs(MIXED))
def test_gradient_float32_float64_mixes(prog):
    check_gradient(prog)


@fuzz
@given(programs(SIZE_ZERO))
def test_gradient_broadcasting_with_size_zero_and_one_dims(prog):
    check_gradient(prog)


@fuzz_fewer
@given(programs(forward(LARGE)))
def test_forward_large_odd_dims(prog):
    check_forward(prog, kink_margin=LARGE_KINK_MARGIN)


@fuzz_fewer
@given(programs(LARGE))
def test_gradient_large_odd_dims(prog):
    check_gradient(prog, kink_margin=LARGE_KINK_MARGIN)


@contextlib.contextmanager
def row_loops():
    """Loops over 2 rows or more run block by block, in blocks of 4 (``lower.rows``, the
    block's rows innermost: ``codegen.c.lanes``), which the programs' small loops never reach
    otherwise (``fuzz_campaign.py --row-loops`` for long campaigns)."""
    from symgrad.lower import rows
    saved = rows.ROW_MIN, rows.BLOCK
    rows.ROW_MIN, rows.BLOCK = 2, 4
    try:
        yield
    finally:
        rows.ROW_MIN, rows.BLOCK = saved


@fuzz_fewer
@given(programs(forward(MIXED)))
def test_forward_in_row_loops(prog):
    with row_loops():
        check_forward(prog)


@fuzz_fewer
@given(programs(SIZE_ZERO))
def test_gradient_in_row_loops_with_size_zero_and_one_dims(prog):
    with row_loops():
        check_gradient(prog)


def first_order_loops(config: Config) -> Config:
    """Second derivatives through while_loop are not supported: no while_loop there."""
    return dataclasses.replace(config, while_loops=False)


@fuzz_fewer
@given(programs(first_order_loops(FLOAT64)))
def test_second_order_float64(prog):
    check_gradient(prog, order=2)


@fuzz_fewer
@given(programs(first_order_loops(MIXED)))
def test_second_order_float32_float64_mixes(prog):
    check_gradient(prog, order=2)


@fuzz_transforms
@given(programs(FLOAT64))
def test_jvp_float64(prog):
    check_jvp(prog)


@fuzz_transforms
@given(programs(MIXED))
def test_vmap_float32_float64_mixes(prog):
    check_vmap(prog)


@fuzz_settings(max(EXAMPLES // 4, 1))
@given(complex_programs("complex128"))
def test_complex_programs_complex128(prog):
    check_complex(prog)


@fuzz_settings(max(EXAMPLES // 8, 1))
@given(complex_programs("complex64"))
def test_complex_programs_complex64(prog):
    check_complex(prog)
