"""The staleness fuzzer, fixed seed: one random pair of every dependency kind, run in every
mode the kind takes (one process; two processes sharing a cache; files edited on disk
between two processes), and every result equal to a run with the cache disabled.

One batch (``harness.Batch``: eleven processes for all kinds) runs once for the module; each
kind's test then asserts on its pairs. A failure prints the kind, the mode, the numbers and
the pair (A's program, the diff to B, the environment, data and in-process change).
``make fuzz`` runs long random campaigns (tests/staleness_campaign.py).
"""

from __future__ import annotations

import os

import pytest

from staleness import harness
from staleness.kinds import BY_NAME, KINDS, control, generate
from staleness.report import explain

# its module-scoped fixture runs once: all its tests in one pytest-xdist worker
pytestmark = pytest.mark.xdist_group("test_staleness_fuzz")

SEED = os.environ.get("SYMGRAD_STALENESS_SEED", "24")


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> list:
    pairs = [generate(k, SEED, 0) for k in KINDS] + [control(SEED)]
    root = str(tmp_path_factory.mktemp("staleness"))
    return harness.Batch(pairs, root, SEED).run(jobs=2)


def _param(kind):
    if kind.xfail is None:
        return kind.name
    return pytest.param(kind.name, marks=pytest.mark.xfail(reason=kind.xfail, strict=True))


@pytest.mark.parametrize("name", [_param(k) for k in KINDS])
def test_reuse_never_returns_a_stale_result(outcomes, name):
    mine = [o for o in outcomes if o.pair.kind == name]
    assert sorted(o.mode for o in mine) == sorted(BY_NAME[name].modes), \
        "every mode the kind takes must have run"
    bad = [o for o in mine if o.status != "ok"]
    assert not bad, "\n".join(explain(o) for o in bad)


def test_the_harness_sees_a_stale_result(outcomes):
    """Control: a pair whose in-process change does nothing returns A's numbers for B, and
    the comparison calls it stale (so that a pass above means something)."""
    [ctl] = [o for o in outcomes if o.pair.kind == "control"]
    assert ctl.status == "stale", explain(ctl)
    assert "variant A's computes" in ctl.detail


def test_every_kind_says_why_a_mode_does_not_apply():
    for kind in KINDS:
        assert set(kind.how) == {"a", "b", "c"}, kind.name
        assert kind.modes, kind.name
        for mode, how in kind.how.items():
            assert how and (mode in kind.modes or how.startswith("n/a: ")), (kind.name, mode)
