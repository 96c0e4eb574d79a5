"""A long differential-fuzzing campaign (what ``make fuzz`` runs).

    python tests/fuzz_campaign.py [--programs N] [--seed S] [--chunk K] [--product-runs]
                                  [--tiles-and-threads] [--row-loops]

Runs rounds of ``K`` random programs (hypothesis, seeded from ``S``: random and printed unless
given), cycling through forward and gradient checks in float64, float32, float32/float64 mixes,
with size-0/size-1 dims and with large odd dims, forward checks with int64 values,
second-order checks and complex programs (complex128 and complex64), until ``N`` programs
(``SYMGRAD_FUZZ_PROGRAMS``, default 2000) have been checked. A round that finds a
disagreement shrinks it to a minimal program and the campaign goes on with the next round. At
the end it prints the programs run and each disagreement with its minimal program; the exit
status is 1 if there was any.

Builds go to a temporary cache directory (removed at the end) unless SYMGRAD_CACHE_DIR is set.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import os
import random
import shutil
import sys
import tempfile
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fuzzing import (F32, F64, I64, Config, check_forward, check_gradient, check_jvp,
                     check_vmap, programs)
from fuzzing.complexes import check_complex, complex_programs
from fuzzing.policy import LARGE_KINK_MARGIN
from hypothesis import HealthCheck, Verbosity, given, seed, settings
from hypothesis.errors import UnsatisfiedAssumption


def _kinds() -> list:
    """(name, Config, check) of each round kind, cycled through: longer programs than the
    fixed-seed tests draw."""
    configs = [("float64", Config(dtypes=(F64,))), ("float32", Config(dtypes=(F32,))),
               ("mixed", Config(dtypes=(F32, F64), mixed=True)),
               ("size-0", Config(dtypes=(F32, F64), empty=True))]
    kinds = []
    for name, config in configs:
        config = dataclasses.replace(config, max_stmts=8)
        kinds += [(f"forward {name}", dataclasses.replace(config, integer_outputs=True),
                   check_forward),
                  (f"gradient {name}", config, check_gradient)]
    kinds.append(("forward int64", Config(dtypes=(F32, F64, I64), mixed=True, max_stmts=8,
                                          integer_outputs=True), check_forward))
    large = Config(dtypes=(F32, F64), large=True, max_stmts=8)
    kinds += [("forward large", dataclasses.replace(large, integer_outputs=True),
               functools.partial(check_forward, kink_margin=LARGE_KINK_MARGIN)),
              ("gradient large", large,
               functools.partial(check_gradient, kink_margin=LARGE_KINK_MARGIN)),
              # (no while_loop: its second derivatives are not supported)
              ("second order float64", Config(dtypes=(F64,), max_stmts=8, while_loops=False),
               functools.partial(check_gradient, order=2)),
              ("second order mixed", Config(dtypes=(F32, F64), mixed=True, max_stmts=8,
                                            while_loops=False),
               functools.partial(check_gradient, order=2)),
              ("jvp float64", Config(dtypes=(F64,), max_stmts=8), check_jvp),
              ("vmap mixed", Config(dtypes=(F32, F64), mixed=True, max_stmts=8), check_vmap)]
    kinds = [(name, programs(config), check) for name, config, check in kinds]
    # complex leaves, complex ops, a real loss (fuzzing/complexes.py)
    kinds += [(f"complex {precision}", complex_programs(precision, max_stmts=8), check_complex)
              for precision in ("complex128", "complex64")]
    return kinds


KINDS = _kinds()


class Tally:
    def __init__(self):
        self.checked = 0        # programs checked while searching
        self.shrinking = 0      # programs checked while shrinking a disagreement
        self.rejected = 0       # inputs near a kink (policy.KINK_MARGIN): redrawn
        self.failures = []      # (round, kind, seed, message)

    def count(self, searching: bool) -> None:
        if searching:
            self.checked += 1
        else:
            self.shrinking += 1


def run_round(tally: Tally, number: int, kind: tuple, round_seed: int, chunk: int) -> None:
    name, strategy, check = kind
    failed = [False]

    @settings(max_examples=chunk, database=None, deadline=None, verbosity=Verbosity.quiet,
              suppress_health_check=list(HealthCheck))
    @seed(round_seed)
    @given(strategy)
    def fuzz(prog):
        searching = not failed[0]
        try:
            check(prog)
        except UnsatisfiedAssumption:
            tally.rejected += 1
            raise
        except Exception:
            failed[0] = True
            tally.count(searching)
            raise
        tally.count(searching)
    try:
        fuzz()
    except BaseException as e:   # report everything, go on with the campaign
        if isinstance(e, KeyboardInterrupt):
            raise
        errors = list(getattr(e, "exceptions", [e]))       # hypothesis may find several
        for err in errors:
            message = f"{type(err).__name__}: {err}"
            tally.failures.append((number, name, round_seed, message))
            print(f"\n!!! round {number} ({name}, seed {round_seed}): {message}", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int,
                        default=int(os.environ.get("SYMGRAD_FUZZ_PROGRAMS", "2000")))
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--chunk", type=int, default=50, help="programs per round")
    parser.add_argument("--product-runs", action="store_true",
                        help="run every matrix product block by block (lower.rows' product "
                             "runs, which the programs' small products never reach)")
    parser.add_argument("--tiles-and-threads", action="store_true",
                        help="run every reduction over outer dims that can in tiles, and give "
                             "every loop a function of its own on threads (codegen.c.tiles and "
                             "regions, which the programs' small loops never reach)")
    parser.add_argument("--row-loops", action="store_true",
                        help="run loops over 2 rows or more block by block, in blocks of 4 "
                             "(lower.rows and codegen.c.lanes, which the programs' small "
                             "loops never reach)")
    args = parser.parse_args(argv)
    if args.row_loops:
        from symgrad.lower import rows
        rows.ROW_MIN, rows.BLOCK = 2, 4
    if args.tiles_and_threads:
        from symgrad.codegen.c import loops, tiles
        tiles.L1_BYTES, loops.PARALLEL_MIN_WORK = 0, 1
    if args.product_runs:
        from symgrad.lower import rows
        rows.PRODUCT_MIN, rows.PRODUCT_BLOCK_BYTES, rows.GEMM_ROWS = 1, 64, 1
    base = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 32)
    print(f"fuzz campaign: seed {base}, {args.programs} programs "
          f"(rerun: python tests/fuzz_campaign.py --seed {base} --programs {args.programs})",
          flush=True)
    own_cache = "SYMGRAD_CACHE_DIR" not in os.environ
    if own_cache:
        os.environ["SYMGRAD_CACHE_DIR"] = tempfile.mkdtemp(prefix="symgrad-fuzz-cache-")
    warnings.simplefilter("ignore")
    tally, start, number = Tally(), time.time(), 0
    try:
        while tally.checked < args.programs:
            kind = KINDS[number % len(KINDS)]
            chunk = min(args.chunk, args.programs - tally.checked)
            before = (tally.checked, len(tally.failures))
            run_round(tally, number, kind, base + number, chunk)
            number += 1
            if (tally.checked, len(tally.failures)) == before:
                print("a round checked no program: stopping", flush=True)
                break
            print(f"[{time.time() - start:7.0f} s] round {number}: {tally.checked} programs, "
                  f"{len(tally.failures)} disagreements", flush=True)
    finally:
        if own_cache:
            shutil.rmtree(os.environ["SYMGRAD_CACHE_DIR"], ignore_errors=True)
    print(f"\n===== fuzz campaign (seed {base}): {tally.checked} programs checked in "
          f"{time.time() - start:.0f} s ({tally.shrinking} more while shrinking, "
          f"{tally.rejected} inputs redrawn near a kink); {len(tally.failures)} disagreements")
    for number, name, round_seed, message in tally.failures:
        print(f"\n----- round {number} ({name}, hypothesis seed {round_seed}) -----\n{message}")
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
