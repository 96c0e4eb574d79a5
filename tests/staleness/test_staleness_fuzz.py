"""The staleness fuzzer, fixed seed: one random pair of every dependency kind, run in every
mode the kind takes (one process; two processes sharing a cache; files edited on disk
between two processes), and every result equal to a run with the cache disabled.

One batch (``harness.Batch``: eleven processes for all kinds) runs in one test, which judges
every kind's pairs. A failure prints the kind, the mode, the numbers and
the pair (A's program, the diff to B, the environment, data and in-process change).
``make fuzz`` runs long random campaigns (tests/staleness_campaign.py).
"""

from __future__ import annotations

import os

from staleness import harness
from staleness.kinds import KINDS, control, generate
from staleness.report import explain

SEED = os.environ.get("SYMGRAD_STALENESS_SEED", "24")


def test_reuse_never_returns_a_stale_result(tmp_path):
    """One batch for all kinds (one test, so that parallel workers do not each run it): every
    kind ran in each mode it takes with no stale result (a kind marked ``xfail`` must still
    fail), and the control pair is seen as stale (so that a pass means something)."""
    pairs = [generate(k, SEED, 0) for k in KINDS] + [control(SEED)]
    outcomes = harness.Batch(pairs, str(tmp_path), SEED).run(jobs=2)
    problems = []
    for kind in KINDS:
        mine = [o for o in outcomes if o.pair.kind == kind.name]
        if sorted(o.mode for o in mine) != sorted(kind.modes):
            problems.append(f"{kind.name}: ran in modes {sorted(o.mode for o in mine)}, "
                            f"takes {sorted(kind.modes)}")
        bad = [explain(o) for o in mine if o.status != "ok"]
        if kind.xfail is None:
            problems += bad
        elif not bad:
            problems.append(f"{kind.name} passes now: drop its xfail ({kind.xfail})")
    [ctl] = [o for o in outcomes if o.pair.kind == "control"]
    if ctl.status != "stale" or "variant A's computes" not in ctl.detail:
        problems.append("control: the harness did not see a stale result\n" + explain(ctl))
    assert not problems, "\n\n".join(problems)


def test_every_kind_says_why_a_mode_does_not_apply():
    for kind in KINDS:
        assert set(kind.how) == {"a", "b", "c"}, kind.name
        assert kind.modes, kind.name
        for mode, how in kind.how.items():
            assert how and (mode in kind.modes or how.startswith("n/a: ")), (kind.name, mode)
