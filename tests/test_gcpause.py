"""The collector's pause around compile stages (symgrad/gcpause.py): no collection inside,
the collector back on after, what the stages kept moved to the oldest generation unscanned,
a program's own frozen objects left frozen, and cycles made inside still collected."""

from __future__ import annotations

import gc
import weakref

from symgrad.gcpause import paused


class Thing:
    pass


def test_kept_objects_go_to_the_oldest_generation_and_cycles_are_still_collected():
    gc.collect()
    assert gc.isenabled()
    with paused():
        assert not gc.isenabled()
        kept = [Thing() for _ in range(1000)]
        a, b = Thing(), Thing()
        a.other, b.other = b, a          # a cycle, garbage once the block ends
        gone = weakref.ref(a)
        del a, b
    assert gc.isenabled()
    oldest = {id(o) for o in gc.get_objects(2)}
    assert all(id(t) in oldest for t in kept)
    assert gone() is not None            # not scanned at the end of the pause...
    gc.collect()
    assert gone() is None                # ...but a full collection frees it


def test_a_programs_frozen_objects_stay_frozen():
    gc.collect()
    mine = [Thing() for _ in range(10)]
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with paused():
            kept = [Thing() for _ in range(100)]
        assert gc.get_freeze_count() == frozen    # the program's freeze is its own
        assert gc.isenabled() and kept and mine
    finally:
        gc.unfreeze()


def test_nested_pauses_and_a_disabled_collector():
    with paused():
        with paused():
            assert not gc.isenabled()
        assert not gc.isenabled()                 # the outer pause still holds
    assert gc.isenabled()
    gc.disable()
    try:
        with paused():
            pass
        assert not gc.isenabled()                 # a program that turned it off keeps it off
    finally:
        gc.enable()
