"""A long staleness-fuzzing campaign (what ``make fuzz`` runs after the numeric one).

    python tests/staleness_campaign.py [--pairs N] [--seed S] [--kinds K,K] [--first I]
                                       [--batch B] [--jobs J] [--keep DIR]

Generates ``N`` pairs (default 210), round-robin over the dependency kinds (tests/staleness/
kinds.py; ``--kinds`` to choose), each from the seed ``S`` (random and printed unless given),
its kind and its index among the kind's pairs (from ``I``, default 0): a failure names them
(``seed 7:array-numpy:3``), and ``--seed 7 --kinds array-numpy --first 3 --pairs 1`` runs
that pair again. Runs them in batches of
``B`` pairs (default: two of each kind), each batch in every mode its kinds take, ``J``
processes at a time (default 2), and compares every result with a run with the cache
disabled. Prints each disagreement as it is found (the kind, the mode, the numbers, the
pair's programs and diff), then how many pairs of each kind ran in each mode and how each
ended. Exit status 1 if any pair disagreed or failed. A pair whose variants compute the same
numbers (``vacuous``: the random program made the dependency irrelevant) tests nothing; the
campaign counts those apart (the fixed-seed sample in make test must have none).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from staleness import harness  # noqa: E402
from staleness.kinds import BY_NAME, KINDS, control, generate  # noqa: E402
from staleness.report import Tally, explain  # noqa: E402


def _args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=210)
    parser.add_argument("--seed", default=None)
    parser.add_argument("--kinds", default="", help="comma-separated kind names (default all)")
    parser.add_argument("--first", type=int, default=0, help="the first pair index per kind")
    parser.add_argument("--batch", type=int, default=0, help="pairs per batch")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", default="", help="keep each batch's files under DIR")
    return parser.parse_args(argv)


def _pairs(kinds: list, seed: str, total: int, first: int) -> list:
    """``total`` pairs, round-robin over ``kinds``, each kind's numbered from ``first``."""
    return [generate(kinds[i % len(kinds)], seed, first + i // len(kinds))
            for i in range(total)]


def main(argv=None) -> int:
    args = _args(argv)
    seed = args.seed or str(random.SystemRandom().randrange(10 ** 9))
    kinds = [BY_NAME[name] for name in args.kinds.split(",")] if args.kinds else KINDS
    batch = args.batch or 2 * len(kinds)
    pairs = _pairs(kinds, seed, args.pairs, args.first)
    print(f"staleness campaign: {len(pairs)} pairs of {len(kinds)} kinds, seed {seed}, "
          f"batches of {batch}", flush=True)
    tally, start = Tally(), time.time()
    for k in range(0, len(pairs), batch):
        chunk = pairs[k:k + batch] + ([control(seed)] if k == 0 else [])
        root = os.path.join(args.keep, f"batch{k // batch}") if args.keep else \
            tempfile.mkdtemp(prefix="symgrad-staleness-")
        os.makedirs(root, exist_ok=True)
        try:
            found = tally.add(harness.Batch(chunk, root, f"{seed}:{k}").run(args.jobs))
        finally:
            if not args.keep:
                shutil.rmtree(root, ignore_errors=True)
        for o in found:
            if o.pair.kind != "control":
                print(explain(o), flush=True)
        found = tally.disagreements(False)
        vacuous = sum(o.status == "vacuous" for o in found)
        print(f"[{time.time() - start:.0f} s] {min(k + batch, len(pairs))}/{len(pairs)} pairs, "
              f"{len(found) - vacuous} failures so far ({vacuous} vacuous)", flush=True)
    return _summary(tally, seed)


def _summary(tally: Tally, seed: str) -> int:
    print(f"\nseed {seed}: pairs run per kind and mode\n{tally.table()}\n"
          f"n/a: the mode makes no sense for the kind:\n{tally.not_applicable()}")
    ctl = tally.counts.get(("control", "a"), {})
    if ctl and ctl.get("stale") != sum(ctl.values()):
        print("\nthe control pair was not called stale: the harness cannot see a stale result")
        return 1
    found = tally.disagreements(False)
    vacuous = [o for o in found if o.status == "vacuous"]
    failures = [o for o in found if o.status != "vacuous"]
    expected = [o for o in failures if BY_NAME[o.pair.kind].xfail]
    print(f"\n{len(failures)} disagreements or failures"
          + (f" ({len(expected)} of the kinds marked expected)" if expected else "")
          + f"; {len(vacuous)} vacuous runs (A and B computed the same: nothing tested)")
    for o in failures + vacuous:
        print(f"  {o.status}: kind {o.pair.kind}, mode ({o.mode}), pair {o.pair.tag} "
              f"({o.pair.seed})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
