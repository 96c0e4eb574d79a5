"""The op sweep: every public name symgrad shares with torch, called on generated samples
and compared with torch (live when it is installed, else torch's stored records).

The default run (``make test``) takes the first two samples of each op and every fourth
after them; ``SYMGRAD_SWEEP=full`` runs all of them (``make fuzz``, CI with torch). It fails
on a difference that ``known_differences.OPEN`` does not list and on a listed one that
matches torch now; ``python tests/sweep/report.py`` prints the counts by class.
"""

from __future__ import annotations

import collections
import faulthandler
import sys
import time

import numpy as np
import pytest

from sweep import compare, known_differences, names, registry, runner, suite
from sweep.spec import Sample, T

MODE = suite.mode_from_env()


@pytest.fixture(scope="module")
def store():
    data = suite.load_store()
    assert data.get("records"), "no stored expectations: run python tests/sweep/store.py"
    return data


def _run(store) -> tuple[list, float]:
    """(results, seconds) of this mode's sweep against torch (live, or its records)."""
    oracle = "torch" if suite.have_torch() else "stored"
    # a hang in C: stop, with a trace (to the process's own stderr: the test's is captured)
    faulthandler.dump_traceback_later(1800, exit=True, file=sys.__stderr__)
    try:
        start = time.perf_counter()
        results = suite.execute(suite.plan(MODE, store), oracle, store)
        return results, time.perf_counter() - start
    finally:
        faulthandler.cancel_dump_traceback_later()


def test_every_shared_name_has_samples_or_a_reason(store):
    shared = suite.shared(store)
    ops = registry.samples(tuple(shared))
    missing = [n for n in shared if n not in ops and n not in names.NOT_OPS
               and n not in names.NOT_SWEPT_YET]
    assert len(shared) > 700
    assert not missing, f"give these samples (tests/sweep/samples_*.py) or a reason in " \
                        f"names.NOT_OPS: {missing}"


def test_every_sample_has_a_stored_record(store):
    ops = suite.plan("full", store)
    unstored = [s.pattern for ss in ops.values() for s in ss
                if s.pattern not in store["records"]]
    assert not unstored, f"{len(unstored)} samples have no stored torch record (run python " \
                         f"tests/sweep/store.py): {unstored[:5]}"


def _listing_problems(results) -> list[str]:
    """What is wrong with known_differences.OPEN against this run: differences it does not
    list, and listed ones that match torch now (the list only shrinks)."""
    new, fixed = suite.verdict(results)
    problems = []
    if new:
        shown = "\n".join(f"  {p}: {' '.join(a)}" for p, a in new[:40])
        problems.append(f"{len(new)} samples differ from torch in ways known_differences.OPEN "
                        f"does not list (fix symgrad, or list them):\n{shown}")
    if fixed:
        shown = "\n".join(f"  {p}: {' '.join(a)}" for p, a in fixed[:40])
        problems.append(f"{len(fixed)} listed differences match torch now: delete them from "
                        f"known_differences.OPEN (the list only shrinks):\n{shown}")
    return problems


def _stale_aspects(r, stored: dict, reference: dict | None) -> list:
    """How torch's live record of ``r`` differs from its stored one, beyond what (a) excludes.
    Rules judging accuracy (torch's float32/complex64 Householder products, rounded in the
    order of MKL's CPU-dependent kernels: on an AMD EPYC their complex64 gradients differ from
    the stored ones by ~1e-6 relative, each a few 1e-6 relative off the float64 reference)
    exclude an aspect when symgrad's is at least as accurate as both the live and the stored
    torch's: the sweep's verdict is then the same whichever of the two it compares with."""
    diffs = compare.differences(stored, r.torch)
    kept: set = set()
    for theirs in (r.torch, stored):
        records = {"symgrad": r.symgrad, "torch": theirs, "reference": reference}
        kept |= set(known_differences.split_undefined(r.sample, diffs, records)[0])
    return sorted(kept)


def _stale_records(results, store) -> list[str]:
    """With torch installed, its live records are the stored ones (else store.py is due)."""
    if not suite.have_torch():
        return []
    stale = []
    for r in results:
        kept = _stale_aspects(r, store["records"][r.sample.pattern],
                              store.get("references", {}).get(r.sample.pattern))
        if kept:
            stale.append(f"{r.sample.pattern}: {kept}")
    if not stale:
        return []
    return ["torch's records changed; run python tests/sweep/store.py:\n" + "\n".join(stale[:20])]


def test_the_sweep_differs_from_torch_only_where_listed(store, capsys):
    """One test runs the sweep (a minute or more) and judges it: no difference that
    known_differences.OPEN does not list, no listed one that matches now, torch's live
    records equal to the stored ones. One test, so that parallel workers do not each run
    the sweep."""
    results, seconds = _run(store)
    by_class = collections.Counter(compare.aspect_class(a) for r in results for a in r.diffs)
    with capsys.disabled():
        print(f"\nsweep ({MODE}): {len(results)} samples in {seconds:.1f} s; matching "
              f"{sum(1 for r in results if not r.diffs)}; differing aspects by class "
              f"{dict(by_class)}")
    assert len(results) > (15000 if MODE == "full" else 4000)
    assert all(r.torch is not None for r in results)
    failures = _listing_problems(results) + _stale_records(results, store)
    assert not failures, "\n\n".join(failures)


def test_undefined_rules_and_open_lines_are_well_formed():
    classes = {"error:missing", "error:extra", "error:class", "timeout", "structure", "dtype",
               "shape", "requires_grad", "grad_fn", "value", "identity", "grad", "grad:error"}
    listed = known_differences.open_differences()   # (empty: symgrad matches torch everywhere)
    assert known_differences.OPEN.startswith("\n") and known_differences.OPEN.endswith("\n")
    for pattern, aspects in listed.items():
        assert aspects and {compare.aspect_class(a) for a in aspects} <= classes, pattern
    for ops, _, aspects, reason in known_differences.UNDEFINED:
        assert reason and aspects


def test_every_undefined_rule_applies_to_some_sample(store):
    """A rule of (a) names samples that exist (whether or not symgrad differs on them today:
    torch leaves them undefined either way)."""
    every = {"value[0]": "", "value[1]": "", "grad[0]": ""}
    samples = [s for ss in suite.plan("full", store).values() for s in ss]
    for ops, which, aspects, reason in known_differences.UNDEFINED:
        hits = [s for s in samples if known_differences.applies(ops, s.op, s, every)
                and known_differences.applies(which, s.pattern, s, every)]
        assert hits, f"no sample is what this rule excludes (delete it): {reason}"


# ---------------------------------------------------------------- controls: the sweep can fail

class Wrong:
    """symgrad's namespace with ``sin`` computing ``cos`` (and ``cos``'s grad_fn)."""

    def __init__(self, top):
        self.top = top

    def __getattr__(self, name):
        return getattr(self.top, "cos" if name == "sin" else name)


def test_a_wrong_op_is_found(store):
    lib = dict(runner.library("symgrad"))
    lib["torch"] = Wrong(lib["torch"])
    sample = Sample("torch", "sin", (T((2, 3)),))
    diffs = compare.differences(runner.run(lib, sample), store["records"][sample.pattern])
    assert {"value[0]", "grad_fn[0]", "grad[0]"} <= set(diffs)
    right = runner.run(runner.library("symgrad"), sample)
    assert compare.differences(right, store["records"][sample.pattern]) == {}


def test_each_kind_of_difference_is_told_apart():
    leaf = {"dtype": "float64", "shape": [2], "rg": True, "fn": "SinBackward0", "v": [1.0, 2.0]}
    base = {"s": "T", "o": [leaf], "g": [dict(leaf, rg=False, fn=None)]}
    other = lambda **kw: {**base, "o": [{**leaf, **kw}]}
    d = compare.differences
    assert d(base, base) == {}
    assert set(d(other(v=[1.0, 2.001]), base)) == {"value[0]"}
    assert d(other(v=[1.0, 2.0 + 1e-12]), base) == {}
    assert set(d(other(dtype="float32"), base)) == {"dtype[0]"}
    assert set(d(other(shape=[1, 2]), base)) == {"shape[0]"}
    assert set(d(other(rg=False), base)) == {"requires_grad[0]"}
    assert set(d(other(fn="CosBackward0"), base)) == {"grad_fn[0]"}
    assert set(d({**base, "g": [None]}, base)) == {"grad[0]"}
    assert set(d({**base, "ge": "RuntimeError"}, base)) == {"grad:error"}
    assert d(other(v=[float("nan"), 2.0]), other(v=[float("nan"), 2.0])) == {}
    assert set(d({"e": "RuntimeError"}, base)) == {"error:extra"}
    assert set(d(base, {"e": "RuntimeError"})) == {"error:missing"}
    assert set(d({"e": "ValueError"}, {"e": "RuntimeError"})) == {"error:class"}
    assert d(base, {"e": "TypeError", "k": "list for Tensor"}) == {"lenient": "list for Tensor"}
    assert set(d({"timeout": True}, base)) == {"timeout"}
    assert set(d({**base, "s": "(T,T)"}, base)) == {"structure"}


def test_a_sample_that_runs_too_long_is_stopped():
    class Slow:
        def __getattr__(self, name):
            def spin(*args):
                while True:
                    pass
            return spin
    lib = dict(runner.library("symgrad"), torch=Slow())
    lib["torch"].manual_seed = lambda seed: None
    start = time.perf_counter()
    record = runner.run(lib, Sample("torch", "anything", (1,)), timeout=0.2)
    assert record == {"timeout": True} and time.perf_counter() - start < 4


def test_patterns_are_deterministic_and_name_their_data():
    a = registry.samples(("torch.add", "Tensor.add_"))
    b = registry.samples(("torch.add", "Tensor.add_"))
    assert [s.pattern for s in a["torch.add"]] == [s.pattern for s in b["torch.add"]]
    assert any(s.tag == "leaf" for s in a["Tensor.add_"])
    spec = T((2, 3), "float32", "e")
    assert np.array_equal(spec.data(7), spec.data(7), equal_nan=True)
    assert not np.array_equal(spec.data(7), spec.data(8), equal_nan=True)
    assert str(spec.data(7).dtype) == "float32" and np.isnan(spec.data(0)).any()
