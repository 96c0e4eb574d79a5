"""Run the C compiler's commands: concurrently, and never leaving one running behind.

Layer: build. Input: commands (argument lists) and the directory they run in. Output: each
command's exit status and stderr. Must not: know what the commands do (``compiler`` does) or
touch the cache (which removes the build directory once the exception reaches it).

Each command starts in a session, so a process group, of its own. When anything interrupts the
wait (Ctrl-C's KeyboardInterrupt above all) every group is sent SIGTERM, which reaches the gcc
driver and the ``cc1``/``as``/``collect2`` it started (a signal to the driver alone leaves them
running: it exits without waiting for them), and the exception propagates only once no process
of the groups runs. Their own groups also keep a terminal's Ctrl-C, which goes to the
foreground group, away from them: Python gets it, and this module stops them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

# How long a group may take to exit after SIGTERM before it gets SIGKILL, and after SIGKILL.
TERM_SECONDS = 2.0
KILL_SECONDS = 1.0


class NotRunnable(OSError):
    """A command could not be started (found on PATH but not executable, ...)."""

    def __init__(self, command: list, error: OSError):
        super().__init__(error.errno, error.strerror)
        self.command, self.error = command, error


def run(commands: list, cwd: Path) -> list[tuple[int, str]]:
    """Start every command at once in ``cwd``, wait for all; each one's (exit status, stderr).
    Raises ``NotRunnable`` when one cannot be started, after stopping those that were."""
    procs: list = []
    try:
        _start(commands, cwd, procs)
        return [(proc.returncode, err) for proc, err in
                ((proc, proc.communicate()[1]) for proc in procs)]
    except BaseException:
        stop(procs)
        raise


def _start(commands: list, cwd: Path, procs: list) -> None:
    """Start the commands, appending each process to ``procs``, from a thread of its own: a
    KeyboardInterrupt (raised only in the main thread) inside ``Popen``, after its fork, or
    before the append, would lose a process that then runs on unseen (seen in this module's
    test: a gcc driver and its cc1 left behind)."""
    failed: list = []
    done = threading.Event()

    def spawn():
        try:
            for cmd in commands:
                try:
                    procs.append(subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                                                  stderr=subprocess.PIPE, text=True,
                                                  start_new_session=True))
                except OSError as exc:
                    failed.append(NotRunnable(cmd, exc))
                    return
        finally:
            done.set()
    threading.Thread(target=spawn, name="symgrad-compile-start", daemon=True).start()
    try:
        done.wait()
    except BaseException:
        done.wait()       # (a few ms) then the caller stops every process it started
        raise
    if failed:
        raise failed[0] from failed[0].error


def stop(procs: list) -> None:
    """Terminate the process group of each of ``procs`` and wait until none of them runs
    (SIGKILL after ``TERM_SECONDS``)."""
    for proc in procs:
        _signal_group(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + TERM_SECONDS
    for proc in procs:
        try:
            proc.wait(max(deadline - time.monotonic(), 0.0))
        except subprocess.TimeoutExpired:
            _signal_group(proc.pid, signal.SIGKILL)
            proc.wait()
        if proc.stderr is not None:
            with contextlib.suppress(OSError):
                proc.stderr.close()
    groups = [proc.pid for proc in procs]
    if not _wait_groups(groups, deadline):
        for group in groups:
            _signal_group(group, signal.SIGKILL)
        _wait_groups(groups, time.monotonic() + KILL_SECONDS)


def _signal_group(group: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, sig)


def _wait_groups(groups: list, deadline: float) -> bool:
    """Whether every group has no running process left by ``deadline`` (polled)."""
    while any(_running(g) for g in groups):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True


def _running(group: int) -> bool:
    """Whether a process of ``group`` runs. The driver's children outlive it as orphans, and
    their zombies stay members until init reaps them (a second or two here): on Linux /proc
    tells a zombie from a running process; elsewhere membership is all there is."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        entries = os.scandir("/proc")
    except OSError:
        return True
    with entries:
        for entry in entries:
            if entry.name.isdigit() and _state(entry.path, group) not in (None, "Z"):
                return True
    return False


def _state(proc_dir: str, group: int) -> str | None:
    """The state letter of the process at ``proc_dir`` if it is in ``group``, else None."""
    try:
        text = Path(proc_dir, "stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()   # after "pid (comm) ": state ppid pgrp ...
    return fields[0] if len(fields) > 2 and fields[2] == str(group) else None
