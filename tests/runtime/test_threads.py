"""The automatic thread count (build/c/threads.py): the CPUs other processes leave idle.

The governor's inputs (the machine's busy CPU seconds, this process's CPU seconds, the clock)
are replaced by a scripted machine, so each case is exact; a last test starts a real busy
process and checks the governor sees it.
"""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest

import symgrad as sg
from symgrad import config
from symgrad.build.c import threads as th


class Machine:
    """A scripted machine: ``others`` CPUs busy with other processes, ``own`` with ours."""

    def __init__(self, monkeypatch, cpus=4):
        self.t, self.busy, self.own, self.runnable = 100.0, 0.0, 0.0, 0
        self.gov = th.Governor()
        self.gov.cpus = list(range(cpus))
        self.gov.choice, self.gov.last = cpus, None
        monkeypatch.setattr(self.gov, "busy_seconds", lambda: self.busy)
        monkeypatch.setattr(self.gov, "runnable_others", lambda: self.runnable)
        monkeypatch.setattr(th.time, "process_time", lambda: self.own)
        monkeypatch.setattr(th.time, "monotonic", lambda: self.t)
        monkeypatch.setattr(config.settings, "num_threads", 0)
        self.gov.sample(self.t)

    def run(self, seconds, others, own=0.0, paused=False):
        """``seconds`` of calls every 10 ms (or of none, ``paused``); the last call's count."""
        steps = 1 if paused else max(1, round(seconds / 0.01))
        for _ in range(steps):
            self.t += seconds / steps
            self.busy += seconds / steps * (others + own)
            self.own += seconds / steps * own
            choice = self.gov.threads()
        return choice


def test_the_cpus_others_leave_idle(monkeypatch):
    m = Machine(monkeypatch, cpus=4)
    assert m.run(0.2, others=0) == 4
    assert m.run(0.2, others=1) == 3
    assert m.run(0.2, others=0.2) == 4               # a little background noise
    assert m.run(0.2, others=0.4) == 3               # a process our threads starve
    assert m.run(0.2, others=2.6) == 1               # 4 - 3
    assert m.run(0.2, others=9) == 1                 # never fewer than one
    assert m.run(0.2, others=0, own=4) == 4          # our own threads are not a load
    assert m.run(0.2, others=1, own=3) == 3


def test_sampled_once_per_window(monkeypatch):
    m = Machine(monkeypatch, cpus=2)
    assert m.run(0.2, others=0) == 2
    assert m.run(th.WINDOW / 4, others=2) == 2      # inside the window: the last choice
    assert m.run(th.WINDOW, others=2) == 1


def test_after_a_pause_others_that_stopped_do_not_count(monkeypatch):
    """Peers that took their turn while this process paused: their load is over at the call;
    peers still running (busy, or spinning on) are a load; the next window decides again."""
    m = Machine(monkeypatch, cpus=2)
    assert m.run(0.2, others=0) == 2
    m.runnable = 0
    assert m.run(0.3, others=2, paused=True) == 2   # their turn ended: nothing runnable now
    m.runnable = 2
    assert m.run(0.3, others=2, paused=True) == 1   # still running when this call starts
    m.runnable = 1
    assert m.run(0.001, others=2) == 1              # a probe within PROBE: not read again
    m.runnable = 0
    assert m.run(th.PROBE, others=0) == 2           # a pool that spun on for a moment stopped
    m.runnable = 2
    assert m.run(0.3, others=2, paused=True) == 1
    assert m.run(th.WINDOW, others=0) == 2          # a window of this process's own calls
    m.runnable = 0
    assert m.run(th.WINDOW * 1.5, others=2) == 1    # no pause: the window alone decides
    assert m.run(0.2, others=0) == 2
    m.runnable = 5
    assert m.run(0.3, others=0, paused=True) == 2   # busy elsewhere, not on this set's CPUs


def test_a_set_count_wins_and_auto_comes_back(monkeypatch):
    m = Machine(monkeypatch, cpus=2)
    monkeypatch.setattr(th, "governor", m.gov)
    config.settings.num_threads = 3
    assert m.gov.threads() == 3
    sg.set_num_threads("auto")
    assert config.settings.num_threads == 0 and m.run(0.2, others=1) == 1
    for bad in (0, -1, 1.5, True, "all"):
        with pytest.raises(ValueError, match="positive int or 'auto'"):
            sg.set_num_threads(bad)


def test_no_proc_stat_means_all_cpus(monkeypatch):
    m = Machine(monkeypatch, cpus=3)
    monkeypatch.setattr(m.gov, "busy_seconds", lambda: None)
    assert m.run(0.2, others=2) == 3


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/stat")
def test_a_real_busy_process_is_seen():
    gov = th.Governor()
    if len(gov.cpus) < 2:
        pytest.skip("needs 2 CPUs")
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(len(gov.cpus))]
    try:
        time.sleep(0.3)
        gov.sample(time.monotonic())
        time.sleep(0.5)
        gov.sample(time.monotonic())
        assert gov.choice == 1
    finally:
        for h in hogs:
            h.kill()
            h.wait()


def test_compiled_calls_pass_the_governed_count(monkeypatch, thread_count):
    """The count reaches C: with one thread forced and with auto, the same bits."""
    f = sg.value_and_grad(lambda x: (sg.exp(x) * sg.sin(x)).sum())
    x = np.random.default_rng(0).normal(size=300_000)
    sg.set_num_threads(1)
    one = f(x)
    sg.set_num_threads("auto")
    auto = f(x)
    sg.set_num_threads(2)
    two = f(x)
    assert one[0] == auto[0] == two[0]
    assert np.array_equal(one[1], two[1]) and np.array_equal(one[1], auto[1])
