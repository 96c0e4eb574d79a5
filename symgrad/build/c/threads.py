"""The C backend's thread governor: how many threads a compiled call runs on, the count the
user set, or by default as many as the CPUs that other processes leave idle.

Layer: build (the C backend). Input: ``config.settings.num_threads`` (0: automatic) and, when
automatic, the machine's CPU accounting. Output: ``threads()``, the count the call path passes
to C (``BuiltModule.threads``), where it governs the OpenMP loops and OpenBLAS alike (the module
calls ``scipy_openblas_set_num_threads`` when the count changes).

Why automatic: an OpenMP loop splits its work statically and ends at a barrier, so when another
process holds one of the CPUs, the call waits for its descheduled thread (measured on 2 CPUs with
2 busy processes: a logistic-regression gradient went from 0.89 ms on one thread to 15 ms on
two; an nbody gradient from 14 to 29-32 ms). So every ``WINDOW`` seconds (at a call; between
samples a call costs one clock read) the governor reads how busy this process's CPUs were in
that window (``/proc/stat``, the lines of the CPUs in its affinity set) and subtracts this
process's own CPU time (``time.process_time``: all its threads); what remains is the other
processes' load, in CPUs. A call then runs on the CPUs left idle (a CPU others use a quarter
of is not idle), at least one. Where
``/proc/stat`` cannot be read (not Linux), it runs on all CPUs.

A window with a pause of this process's calls in it (``PAUSE`` seconds without one) tells what
other processes did while this one was not calling: in a side-by-side benchmark, or any
program whose workers take turns, that is their turn, over before this call starts. So at the
call after a pause a new window starts, and the load is the smaller of the paused window's and
the other tasks runnable now (``/proc/loadavg``'s count, less this thread): others that stopped
do not count, others still running do. The count is read again every ``PROBE`` seconds of
calls until it is zero or the window ends: a peer's thread pool spinning on for a few ms after
its turn (torch's OpenMP threads: ~5 ms) stops holding the count down when it stops, a busy
process holds it down, and the next window, measured while this process runs, decides from
then on. (Measured: a Dr.Jit worker's pool spins on a whole CPU for seconds after its work;
beside it, two threads ran an nbody gradient in 6.4-9.1 ms, one in 4.7: a spinning peer is a
load, and counting it is right.)

Results do not depend on the count: float sums are split into a fixed number of chunks whatever
the threads (``codegen.c.sumloop``), and OpenBLAS splits a product's rows and columns, not its
inner dimension.
"""

from __future__ import annotations

import math
import os
import threading
import time

from ... import config

WINDOW = 0.1        # seconds between two samples of the machine's load
# Other processes take a CPU from the count once they use more than this much of it. Not
# one half: a busy process starved by this process's threads (OpenBLAS's spin while they wait
# for work) shows as 0.3-0.5 of a CPU, and a count that then stayed at all CPUs kept it starved
# (measured: an MLP gradient at 4.9 ms against 3.1 ms on one thread).
TAKEN = 0.25
PAUSE = 0.02        # seconds without a call that make a pause
PROBE = 0.002       # seconds between two reads of the runnable count after a pause


def _cpus() -> list[int]:
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:      # not Linux
        return list(range(os.cpu_count() or 1))


class Governor:
    """The automatic thread count (see the module docstring)."""

    def __init__(self):
        self.cpus = _cpus()
        self.ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        self.choice = len(self.cpus)
        self.next = 0.0
        self.last = None            # (monotonic time, busy CPU seconds, own CPU seconds)
        self.last_call = -math.inf
        self.paused_load = 0.0      # after a pause: the window's load, while probing
        self.next_probe = math.inf  # after a pause: when to read the runnable count again
        self.lock = threading.Lock()
        self.sample(time.monotonic())

    def threads(self) -> int:
        n = config.settings.num_threads
        if n:
            return n
        now = time.monotonic()
        paused, self.last_call = now - self.last_call > PAUSE, now
        if now < self.next and now < self.next_probe and not paused:
            return self.choice
        with self.lock:
            if paused or now >= self.next:
                self.sample(now, paused)
            elif now >= self.next_probe:
                self.probe(now)
        return self.choice

    def sample(self, now: float, paused: bool = False) -> None:
        """Measure the window since the last sample; after a pause, start a new window and
        probe the tasks runnable now instead of trusting the paused one."""
        self.next, self.next_probe = now + WINDOW, math.inf
        busy, own = self.busy_seconds(), time.process_time()
        if busy is None:
            self.choice = len(self.cpus)
            return
        if self.last is not None and now > self.last[0]:
            t0, busy0, own0 = self.last
            others = max(0.0, (busy - busy0) - (own - own0)) / (now - t0)
            if paused:
                self.paused_load = others
                self.probe(now)
            else:
                self.decide(others)
        self.last = (now, busy, own)

    def probe(self, now: float) -> None:
        """After a pause: the smaller of the paused window's load and the tasks runnable now,
        read again every ``PROBE`` seconds of calls until the others are gone or the window
        ends."""
        self.decide(min(self.paused_load, self.runnable_others()))
        full = self.choice == len(self.cpus)
        self.next_probe = math.inf if full else now + PROBE

    def decide(self, others: float) -> None:
        self.choice = max(1, len(self.cpus) - math.ceil(others - TAKEN))

    @staticmethod
    def runnable_others() -> float:
        """The tasks on the machine runnable now, less this thread (inf if unknown)."""
        try:
            with open("/proc/loadavg", "rb") as fh:
                running = int(fh.read().split()[3].split(b"/")[0])
        except (OSError, ValueError, IndexError):
            return math.inf
        return max(0, running - 1)

    def busy_seconds(self) -> float | None:
        """CPU seconds the CPUs of this process's affinity set spent busy since boot."""
        wanted = {f"cpu{k}" for k in self.cpus}
        busy = 0
        try:
            with open("/proc/stat", "rb") as fh:
                for line in fh:
                    if not line.startswith(b"cpu"):
                        break
                    fields = line.split()
                    if fields[0].decode() in wanted:
                        v = [int(x) for x in fields[1:9]]
                        busy += v[0] + v[1] + v[2] + v[5] + v[6] + v[7]   # not idle, iowait
        except (OSError, ValueError, IndexError):
            return None
        return busy / self.ticks


governor = Governor()
threads = governor.threads
