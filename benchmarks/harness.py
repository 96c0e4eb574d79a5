"""Runs every system on one problem size in child processes and collects what they report.

Per (problem size, system): a cache directory of its own (symgrad's SYMGRAD_CACHE_DIR, JAX's
persistent compilation cache, PyTensor's compiledir and Numba's cache, CasADi's compiled C),
then

1. a cold process: build + first call with that cache empty, checked against the reference;
2. a warm process with the same cache: build + first call again (the cache hit), then kept
   alive while the harness asks each system's warm process in turn for a round of timings,
   rotating the order every round, so that machine noise falls on all systems alike;
3. the warm process's final check and peak RSS.

Each phase has a time limit; a child that exceeds it is killed (its own process group) and the
system is reported as "timeout". Errors are kept as text; the other systems go on.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


@dataclass
class Settings:
    rounds: int = 5
    min_time: float = 0.25          # seconds of calls per system per round (at least)
    min_samples: int = 5
    max_time: float = 2.0           # stop a round after this once 2 samples are in
    timeout: float = 120.0          # cold start (build + first call) limit per process
    python: str = sys.executable


class ChildError(Exception):
    pass


class Child:
    """A child process speaking JSON lines; killed with its process group on timeout."""

    def __init__(self, opts: dict, env: dict, log: Path):
        self.log = log
        self._log_file = open(log, "w")   # noqa: SIM115  (closed in close())
        self.proc = subprocess.Popen(
            [sys.executable if not opts.get("python") else opts["python"],
             str(HERE / "child.py"), json.dumps(opts)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log_file,
            cwd=HERE, env=env, start_new_session=True)
        self._buf = b""

    def send(self, msg: dict) -> None:
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())
        self.proc.stdin.flush()

    def recv(self, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise TimeoutError
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    self.proc.wait()
                    raise ChildError(self.error_tail() or
                                     f"exited with code {self.proc.returncode}")
                self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return json.loads(line)

    def error_tail(self) -> str:
        self._log_file.flush()
        lines = [ln for ln in self.log.read_text(errors="replace").splitlines() if ln.strip()]
        return lines[-1].strip() if lines else ""

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)   # our child's own session
            except ProcessLookupError:
                pass
            self.proc.wait()

    def close(self) -> None:
        self.kill()
        self._log_file.close()


def _env(cache: Path) -> dict:
    env = dict(os.environ)
    env.update({
        "BENCH_CACHE_DIR": str(cache),
        "SYMGRAD_CACHE_DIR": str(cache / "symgrad"),
        "PYTENSOR_FLAGS": f"base_compiledir={cache / 'pytensor'}",
        "NUMBA_CACHE_DIR": str(cache / "numba"),
        "PYTHONUNBUFFERED": "1",
    })
    env.pop("SYMGRAD_DEBUG", None)
    # Imports are timed as an installed package runs them, from bytecode: with writing it
    # disabled (some CI machines set this), an editable install compiles every module's
    # source in every process, while pip-installed competitors load theirs precompiled.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def run_size(problem, size, systems: list[str], settings: Settings, log_dir: Path,
             progress=print) -> dict[str, dict]:
    """Results per system for one problem size (see the module docstring)."""
    results: dict[str, dict] = {s: {"system": s} for s in systems}
    caches = {s: Path(tempfile.mkdtemp(prefix=f"bench-{problem.NAME}-{s}-")) for s in systems}
    base = {"problem": problem.NAME, "size": size.label, "python": settings.python}
    tag = f"{problem.NAME} {size.label}"

    # 1. cold starts, one system at a time
    for s in systems:
        opts = dict(base, system=s, phase="cold")
        child = Child(opts, _env(caches[s]), log_dir / f"{problem.NAME}-{s}-cold.log")
        t0 = time.perf_counter()
        try:
            msg = child.recv(settings.timeout + 20)   # + imports
            if msg["status"] != "ok":
                results[s].update(status="error", error=_short(msg["error"]))
            elif msg["first_call_s"] > settings.timeout:
                results[s].update(status="timeout", error=f"first call {msg['first_call_s']:.0f} s")
            else:
                results[s].update(status="ok", variant=msg["variant"], version=msg["version"],
                                  import_s=msg["import_s"], cold_s=msg["first_call_s"],
                                  cold_build_s=msg["build_s"], cold_check=msg["check"],
                                  rss_cold_mb=msg["rss_first_mb"])
        except TimeoutError:
            results[s].update(status="timeout",
                              error=f"cold start > {settings.timeout:.0f} s (killed)")
        except ChildError as exc:
            results[s].update(status="error", error=_short(exc))
        finally:
            child.close()
        r = results[s]
        progress(f"  {tag:28s} {s:9s} cold {time.perf_counter() - t0:6.1f} s  "
                 f"{r['status']}{'' if r['status'] == 'ok' else ': ' + r.get('error', '')}")

    # 2. warm processes: the cache hit, then interleaved timing rounds
    warm: dict[str, Child] = {}
    for s in [s for s in systems if results[s]["status"] == "ok"]:
        opts = dict(base, system=s, phase="warm")
        child = Child(opts, _env(caches[s]), log_dir / f"{problem.NAME}-{s}-warm.log")
        try:
            msg = child.recv(settings.timeout + 20)
            if msg["status"] != "ok":
                raise ChildError(msg["error"])
            results[s].update(cached_s=msg["first_call_s"], rss_base_mb=msg["rss_base_mb"])
            warm[s] = child
        except (TimeoutError, ChildError) as exc:
            child.close()
            results[s].update(status="error", error="second process: " + _short(
                exc if str(exc) else "timeout"))
    times: dict[str, list] = {s: [] for s in warm}
    order = list(warm)
    for rnd in range(settings.rounds):
        k = rnd % max(len(order), 1)
        for s in order[k:] + order[:k]:
            child = warm.get(s)
            if child is None:
                continue
            try:
                child.send({"cmd": "time", "min_time": settings.min_time,
                            "min_samples": settings.min_samples, "max_time": settings.max_time})
                msg = child.recv(max(settings.timeout, 10 * settings.max_time))
                times[s] += msg["times"]
                results[s]["calls_per_sample"] = msg["number"]
            except (TimeoutError, ChildError) as exc:
                child.close()
                del warm[s]
                results[s].update(status="error",
                                  error="while timing: " + _short(exc if str(exc) else "timeout"))
    for s, child in warm.items():
        try:
            child.send({"cmd": "finish"})
            msg = child.recv(settings.timeout)
            results[s].update(rss_peak_mb=msg["rss_peak_mb"], check=msg["check"])
        except (TimeoutError, ChildError) as exc:
            results[s].update(check={"ok": False, "notes": "final check: " + _short(exc)})
        finally:
            child.close()
    for s, ts in times.items():
        if ts and results[s]["status"] == "ok":
            a = np.asarray(ts) * 1e6
            results[s].update(median_us=float(np.median(a)), q1_us=float(np.percentile(a, 25)),
                              q3_us=float(np.percentile(a, 75)), samples=len(a))
            c = results[s].get("check", {}).get("ok", True) and results[s]["cold_check"]["ok"]
            progress(f"  {tag:28s} {s:9s} {a.size:4d} samples  median {np.median(a):12.2f} us"
                     f"  {'ok' if c else 'MISMATCH'}")
    for path in caches.values():
        subprocess.run(["rm", "-rf", str(path)], check=False)
    return results
