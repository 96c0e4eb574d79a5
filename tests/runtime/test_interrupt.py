"""Ctrl-C stops compiled code: SIGINT during a compiled loop raises KeyboardInterrupt promptly
and the process computes the right numbers afterwards; SIGINT during a compile stops the C
compiler's processes and leaves the cache usable.

Each scenario runs in a child process (the signal must not reach pytest). The child prints
``ready <label>`` just before a call that would run for many seconds (or forever); the test
sends it SIGINT 0.3 s later, and the child prints ``result <label> <json>`` once the call is
over. The bounds are generous (a loaded 2-core machine): the interrupt must land within 2 s.
"""

from __future__ import annotations

import inspect
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import symgrad as sg

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix",
                                reason="POSIX signals")

BOUND = 2.0        # seconds from SIGINT to the child's report
DELAY = 0.3        # seconds from "ready" to SIGINT: the call is in C by then

PRELUDE = '''
import json, os, signal, sys, threading, time
# Python's own SIGINT handler, whatever the child inherited (a shell's background job starts
# with SIGINT ignored, and Python then keeps ignoring it): the scenarios are about it.
signal.signal(signal.SIGINT, signal.default_int_handler)
import numpy as np
import symgrad as sg


def report(label, **facts):
    print("result", label, json.dumps(facts), flush=True)


def interrupted(label, fn, *args):
    """Call fn (which would run for a long time) after saying ready; whether it was stopped."""
    print("ready", label, flush=True)
    try:
        fn(*args)
    except KeyboardInterrupt:
        report(label, interrupted=True)
    else:
        report(label, interrupted=False)
'''


def drive(tmp_path: Path, body: str, env: dict | None = None, timeout: float = 120) -> dict:
    """Run PRELUDE + body in a child, answering each ``ready`` with SIGINT; label -> facts
    (with ``latency``: seconds from the signal to the report)."""
    script = tmp_path / "prog.py"
    script.write_text(PRELUDE + textwrap.dedent(body))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})})
    watchdog = threading.Timer(timeout, proc.kill)
    watchdog.start()
    results, sent = {}, {}
    try:
        for line in proc.stdout:
            kind, label, *rest = line.rstrip("\n").split(" ", 2)
            if kind == "ready":
                time.sleep(DELAY)
                sent[label] = time.monotonic()
                proc.send_signal(signal.SIGINT)
            elif kind == "result":
                results[label] = json.loads(rest[0])
                if label in sent:
                    results[label]["latency"] = time.monotonic() - sent[label]
        stderr = proc.stderr.read()
        assert proc.wait() == 0, stderr
    finally:
        watchdog.cancel()
        proc.kill()
    return results


def test_a_while_loop_that_never_ends_stops_on_ctrl_c(tmp_path):
    """On the main thread and on a worker thread; the same specialization (workspace, output
    pool) then computes the right numbers; a Python handler of the user's own is left alone."""
    results = drive(tmp_path, '''
        @sg.compile
        def f(x, n):
            return sg.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1.0, c[1] * 0.5 + 1.0),
                                 (x, x))
        x0 = np.float64(0.25)
        f(x0, np.float64(3.0))                       # compiled before the signal
        interrupted("main", f, x0, np.float64(np.inf))

        box, done = {}, threading.Event()
        def work():
            try:
                f(x0, np.float64(np.inf))
                box["worker"] = "finished"
            except KeyboardInterrupt:
                box["worker"] = "interrupted"
            finally:
                done.set()
        t = threading.Thread(target=work)
        t.start()
        print("ready thread", flush=True)
        try:       # (an Event, not t.join: in 3.11 a join that Ctrl-C interrupts marks the
            while not done.wait(0.05):     # thread stopped while it runs, bpo-45274)
                pass
            main = "not interrupted"
        except KeyboardInterrupt:
            main = "interrupted"
        finished = done.wait(5)
        report("thread", main=main, worker=box.get("worker"), done=finished)

        got = [float(v) for v in f(x0, np.float64(20.0))]
        c0, c1 = 0.25, 0.25
        while c0 < 20.0:
            c0, c1 = c0 + 1.0, c1 * 0.5 + 1.0
        report("after", got=got, expected=[c0, c1])

        # Another handler: the call runs to its end, then the handler runs (no KeyboardInterrupt).
        calls = []
        signal.signal(signal.SIGINT, lambda s, frame: calls.append(s))
        print("ready custom", flush=True)
        out = f(np.float64(0.0), np.float64(1e9))     # (~1.5 s: the signal comes during it)
        report("custom", got=float(out[0]), calls=len(calls))
    ''')
    assert results["main"]["interrupted"] and results["main"]["latency"] < BOUND
    thread = results["thread"]
    assert thread == {**thread, "main": "interrupted", "worker": "interrupted", "done": True}
    assert thread["latency"] < BOUND
    assert results["after"]["got"] == results["after"]["expected"]
    assert results["custom"]["got"] == 1e9 and results["custom"]["calls"] == 1


def test_a_long_fori_loop_stops_on_ctrl_c(tmp_path):
    """A fori_loop of a fixed 20,000 steps (a scan) of ~0.5 ms each polls on its back edge."""
    results = drive(tmp_path, '''
        L = 20_000
        def h(x, w, heavy):
            def body(i, y):
                extra = sg.cond(heavy, lambda w, y: (w * y).sum() * 1e-9,
                                lambda w, y: y * 1e-3, (w, y))
                return y * 0.999 + extra + 1e-3
            return sg.fori_loop(0, L, body, x)
        f = sg.compile(h)
        x, w = np.float64(1.0), np.linspace(0.0, 1.0, 1_000_000)
        f(x, w, np.bool_(False))
        interrupted("fori", f, x, w, np.bool_(True))      # ~10 s without an interrupt
        got = float(f(x, w, np.bool_(False)))
        y = x
        for _ in range(L):
            y = y * 0.999 + y * 1e-3 + 1e-3
        report("after", got=got, expected=float(y))
    ''')
    assert results["fori"]["interrupted"] and results["fori"]["latency"] < BOUND
    assert results["after"]["got"] == pytest.approx(results["after"]["expected"], rel=1e-12)


def test_gradients_through_while_and_scan_stop_on_ctrl_c(tmp_path):
    """value_and_grad of a while loop (its tape is malloc'd as it grows: freed on the way
    out) and of a fixed-count fori_loop (a scan and its reverse scan)."""
    results = drive(tmp_path, '''
        def g(x, w, n):
            def body(c):
                t, y = c
                return t + 1.0, y * 0.999 + 1e-9 * (w * t).sum()
            return sg.while_loop(lambda c: c[0] < n, body, (sg.zeros(()), x))[1]
        def h(x, w, heavy):
            def body(i, y):
                extra = sg.cond(heavy, lambda w, y: (w * y).sum() * 1e-9,
                                lambda w, y: y * 1e-3, (w, y))
                return y * 0.999 + extra + 1e-3
            return sg.fori_loop(0, 20_000, body, x)
        vg_while, vg_scan = sg.value_and_grad(g), sg.value_and_grad(h)
        x, w = np.float64(1.0), np.linspace(0.0, 1.0, 1_000_000)
        vg_while(x, w, np.float64(2.0))
        vg_scan(x, w, np.bool_(False))
        interrupted("while", vg_while, x, w, np.float64(np.inf))
        interrupted("scan", vg_scan, x, w, np.bool_(True))

        value, grad = vg_while(x, w, np.float64(30.0))
        y, dy = 1.0, 1.0
        for t in range(30):
            y, dy = y * 0.999 + 1e-9 * (w * float(t)).sum(), dy * 0.999
        report("after_while", got=[float(value), float(grad)], expected=[y, dy])
        value, grad = vg_scan(x, w, np.bool_(False))
        y, dy = 1.0, 1.0
        for _ in range(20_000):
            y, dy = y * 0.999 + y * 1e-3 + 1e-3, dy * 0.999 + dy * 1e-3
        report("after_scan", got=[float(value), float(grad)], expected=[y, dy])
    ''')
    for label in ("while", "scan"):
        assert results[label]["interrupted"] and results[label]["latency"] < BOUND, label
    for label in ("after_while", "after_scan"):
        np.testing.assert_allclose(results[label]["got"], results[label]["expected"],
                                   rtol=1e-11, err_msg=label)


COMPILE = '''
    def f(p, y):
        for _ in range(100):        # unrolled: ~1.5 s of gcc
            k1 = sg.tanh(p * y)
            k2 = sg.tanh(p * (y + 0.05 * k1))
            k3 = sg.tanh(p * (y + 0.05 * k2))
            k4 = sg.tanh(p * (y + 0.1 * k3))
            y = y + 0.1 / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        return (y * y).sum()
    p, y0 = np.array([0.5, -0.25, 0.75]), np.array([1.0, 0.5, -1.0])
'''


def compilers(cache) -> list:
    """The running (not zombie) processes working in a directory under ``cache`` (the child
    runs this function too)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
            with open(f"/proc/{pid}/stat") as stat:
                text = stat.read()
        except OSError:
            continue
        if cwd.startswith(str(cache)) and text[text.rindex(")") + 2] != "Z":
            found.append([pid, text[text.index("(") + 1:text.rindex(")")]])
    return found


@pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="needs /proc")
def test_ctrl_c_during_a_compile_stops_the_compiler_and_keeps_the_cache_usable(tmp_path):
    cache = tmp_path / "cache"
    env = {**os.environ, "SYMGRAD_CACHE_DIR": str(cache)}
    script = tmp_path / "compile.py"
    script.write_text(PRELUDE + inspect.getsource(compilers) + textwrap.dedent(COMPILE) +
                      textwrap.dedent('''
        try:
            sg.grad(f)(p, y0)
            report("compile", interrupted=False)
        except KeyboardInterrupt:     # what still runs in the cache, at once
            report("compile", interrupted=True, running=compilers(os.environ["SYMGRAD_CACHE_DIR"]))
    '''))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 60
        while not any(name == "cc1" for _, name in compilers(cache)):   # gcc is running
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert json.loads(out.split("result compile ", 1)[1]) == {"interrupted": True, "running": []}
    assert compilers(cache) == []
    leftovers = [p.name for shard in cache.iterdir() if len(shard.name) == 2
                 for p in shard.iterdir() if not p.name.endswith(".lock")]
    assert leftovers == []                  # no entry, no half-written build directory

    check = tmp_path / "again.py"     # a fresh process compiles it, and gets the right numbers
    check.write_text(PRELUDE + textwrap.dedent(COMPILE) + textwrap.dedent('''
        def reference(p):             # NumPy, central differences
            def value(p):
                y = y0
                for _ in range(100):
                    k1 = np.tanh(p * y)
                    k2 = np.tanh(p * (y + 0.05 * k1))
                    k3 = np.tanh(p * (y + 0.05 * k2))
                    k4 = np.tanh(p * (y + 0.1 * k3))
                    y = y + 0.1 / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
                return (y * y).sum()
            e = np.eye(3) * 1e-6
            return [(value(p + e[i]) - value(p - e[i])) / 2e-6 for i in range(3)]
        report("again", got=sg.grad(f)(p, y0).tolist(), expected=reference(p))
    '''))
    done = subprocess.run([sys.executable, str(check)], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    again = json.loads(done.stdout.split("result again ", 1)[1])
    np.testing.assert_allclose(again["got"], again["expected"], rtol=1e-6)


def test_which_loops_poll_and_what_they_free():
    """A while loop polls, forward and in its gradient's reverse loop (freeing the tape); a
    short scan does not (its entry point keeps its signature); standalone C has no checks."""
    newton = sg.compile(lambda x: sg.while_loop(lambda v: (v * v - x).abs().sum() > 1e-12,
                                                lambda v: 0.5 * (v + x / v), x))
    x = np.full(3, 2.0)
    np.testing.assert_allclose(newton(x), np.sqrt(2.0), rtol=1e-12)
    assert newton.last_specialization.source.interrupt
    assert "if (*sg_sigint != sg_since) return" in newton.c_source

    vg = sg.value_and_grad(lambda x, n: sg.fori_loop(0, n, lambda i, v: v * 0.9 + 1.0, x).sum())
    value, grad = vg(x, 5)
    np.testing.assert_allclose(grad, np.full(3, 0.9 ** 5))
    checks = [ln for ln in vg.c_source.splitlines() if "*sg_sigint != sg_since" in ln]
    assert len(checks) >= 2 and all("free(tape);" in ln for ln in checks)   # forward, reverse

    short = sg.compile(lambda x: sg.fori_loop(0, 10, lambda i, v: v * 0.5, x))
    np.testing.assert_allclose(short(x), x * 0.5 ** 10)
    assert not short.last_specialization.source.interrupt
    assert "sg_sigint" not in short.c_source

    long = sg.compile(lambda x: sg.fori_loop(0, 200_000, lambda i, v: v * 0.5 + 1.0, x))
    np.testing.assert_allclose(long(x), np.full(3, 2.0))
    assert long.last_specialization.source.interrupt


def test_standalone_c_has_no_interrupt_checks(tmp_path):
    newton = sg.compile(lambda x: sg.while_loop(lambda v: (v * v - x).abs().sum() > 1e-12,
                                                lambda v: 0.5 * (v + x / v), x))
    newton.export_c(tmp_path, np.full(3, 2.0), name="newton")
    assert "sg_sigint" not in (tmp_path / "newton.c").read_text()
    cfn = newton.c_function(np.full(3, 2.0))
    np.testing.assert_allclose(cfn(np.full(3, 2.0))[0], np.sqrt(2.0), rtol=1e-12)
