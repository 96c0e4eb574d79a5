"""The timing shim of ``make bench-compile``: where the ``build`` stage of a first call goes.

Benchmark helper. Input: nothing but symgrad's module and function names. Output: ``Probe``,
installed in the benchmark's child process before its first call, which records every process
the child starts (its short name, start and end, the wrapped call it ran under) and the wall
time of symgrad's build functions, then summarises them (``summary()``).

Nothing in ``symgrad/`` is edited: the child monkeypatches, in itself only,

* ``subprocess.Popen`` with a subclass that notes when each process started and when it exited
  (a thread waits for the exit with ``waitid(WNOWAIT)``, which leaves the process to its owner
  to reap; ``wait()`` is the fallback when the owner reaped it first);
* module-level functions of the build (``WRAPPED``) with timers, each when its module is first
  imported (an import hook: importing them earlier would move their import time out of the
  first call). The hook also times the imports the first call makes (symgrad loads its
  compiler's stages, Jinja2 and cffi on first use): those not nested in another, summed.
  A name that is absent (the build is being rewritten) is skipped and listed in the summary's
  ``missing``; ``symgrad.build.c.commands.run`` is the one expected to stay.
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.machinery
import os
import resource
import subprocess
import sys
import threading
import time

# (module, function, label): timed when called. Labels name the stage inside ``build``.
WRAPPED = (
    ("symgrad.build.c.compiler", "build", "build"),
    ("symgrad.build.c.compiler", "plan", "plan"),
    ("symgrad.build.c.compiler", "write_sources", "write sources"),
    ("symgrad.build.c.compiler", "run_build", "run build"),
    ("symgrad.build.c.compiler", "load", "load module"),
    ("symgrad.build.cache", "get_or_build", "cache"),
    ("symgrad.build.c.commands", "run", "commands"),
    ("symgrad.build.c.toolchain", "has_vector_math", "probe vector math"),
    # the C backend's helper extension, where there is one (built once per cache)
    ("symgrad.build.c.native", "helper", "native helper"),
    # outside build: Jinja2 compiling a template (codegen, when the cache has no compiled
    # copy), and the call path of a new specialization (after the stages; it includes the
    # Ctrl-C helper's build, which ``summary`` also has apart)
    ("jinja2.environment", "Environment.compile", "jinja2 compile"),
    ("symgrad.runtime.specialization", "Specialization.__init__", "specialization"),
)


# Builds that are not of the function being called: a build's name hint -> what to call it.
HELPERS = {"sigint": "Ctrl-C helper", "native": "native helper"}

# Loaders made per module, whose ``exec_module`` may be wrapped on the instance.
FILE_LOADERS = (importlib.machinery.SourceFileLoader, importlib.machinery.SourcelessFileLoader,
                importlib.machinery.ExtensionFileLoader)


def short_name(argv: list) -> str:
    """What a command does, in a word or two: ``cc kernel1`` (compiles kernel1.o), ``link``,
    or the program and its first argument (``gcc --version``)."""
    argv = [str(a) for a in argv]
    if "-shared" in argv or "-bundle" in argv:
        sources = [a for a in argv if a.endswith(".c")]
        return "cc+link " + os.path.basename(sources[0])[:-2] if sources else "link"
    if "-c" in argv and "-o" in argv[:-1]:
        out = os.path.basename(argv[argv.index("-o") + 1])
        return "cc " + out.rsplit(".", 1)[0]
    tail = argv[1].split("=")[0] if len(argv) > 1 else ""
    return f"{os.path.basename(argv[0])} {tail}".strip()


class Probe:
    """The records of one child process; ``install()`` once, before the first call."""

    def __init__(self) -> None:
        self.t0 = time.perf_counter()
        self.calls: list = []       # {"label", "start", "end", "name_hint"?}
        self.processes: list = []   # {"name", "argv", "start", "end", "under"}
        self.batches: list = []     # commands.run: {"names", "start", "end", "cpu"}
        self.missing: list = []
        self.imports: list = []     # (module, start, end) of each import not inside another
        self.call_at: float | None = None   # when the first call began (``begin_call``)
        self._stack: list = []      # the wrapped calls running (process-wide: the compiler's
        #                             processes are started from a thread of their own)
        self._builds: list = []     # the name_hint of each ``build`` running
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ installing
    def install(self) -> None:
        subprocess.Popen = _timed_popen(self)
        pending: dict = {}
        for module, name, label in WRAPPED:
            pending.setdefault(module, []).append((name, label))
        for module in list(pending):
            if module in sys.modules:
                self._patch(sys.modules[module], pending.pop(module))
        sys.meta_path.insert(0, _ImportWatch(self, pending, self._patch))

    def _patch(self, module, names: list) -> None:
        for name, label in names:
            owner, attr = module, name
            if "." in name:                      # a method: Class.method
                cls, attr = name.split(".", 1)
                owner = getattr(module, cls, None)
            fn = getattr(owner, attr, None)
            if not callable(fn):
                self.missing.append(f"{module.__name__}.{name}")
                continue
            wrapper = self._batch_timer(fn) if label == "commands" else self._timer(fn, label)
            setattr(owner, attr, wrapper)

    def begin_call(self) -> None:
        """Mark the start of the first call: ``summary()`` counts the imports after it."""
        self.call_at = self.now()

    def now(self) -> float:
        return time.perf_counter() - self.t0

    def under(self) -> str:
        return self._stack[-1] if self._stack else ""

    def in_build(self) -> str:
        """The name hint of the innermost build running ("sigint": the Ctrl-C helper)."""
        return self._builds[-1] if self._builds else ""

    def _timer(self, fn, label: str):
        @functools.wraps(fn)
        def timed(*args, **kwargs):
            record = {"label": label, "start": self.now(), "under": self.under()}
            context = str(kwargs.get("name_hint", "")) if label == "build" else \
                "native" if label == "native helper" else None
            if context is not None:
                record["name_hint"] = context
                self._builds.append(context)
            record["in_build"] = self.in_build()
            self._stack.append(label)
            try:
                return fn(*args, **kwargs)
            finally:
                self._stack.pop()
                if context is not None:
                    self._builds.pop()
                record["end"] = self.now()
                with self._lock:
                    self.calls.append(record)
        return timed

    def _batch_timer(self, fn):
        """``commands.run``: one batch of concurrent processes; its CPU time is the children's
        (``RUSAGE_CHILDREN``: the drivers and the cc1/as/ld they waited for)."""
        timed_call = self._timer(fn, "commands")

        @functools.wraps(fn)
        def batch(commands, *args, **kwargs):
            before, start = _children_cpu(), self.now()
            try:
                return timed_call(commands, *args, **kwargs)
            finally:
                with self._lock:
                    self.batches.append({"names": [short_name(c) for c in commands],
                                         "in_build": self.in_build(),
                                         "start": start, "end": self.now(),
                                         "cpu": _children_cpu() - before})
        return batch

    # ------------------------------------------------------------------ the result
    def summary(self) -> dict:
        """Seconds spent in each wrapped function (summed over calls; the builds of helper
        modules, ``HELPERS``, apart), every process and every batch."""
        totals: dict = {}
        for c in self.calls:
            helper = HELPERS.get(c["in_build"])
            key = c["label"] if helper is None else f"{helper} build" \
                if c["label"] in ("build", "native helper") else f"{helper}: {c['label']}"
            totals[key] = totals.get(key, 0.0) + c["end"] - c["start"]
            if helper and key.endswith(" build") and c["under"]:   # "helpers in load module"
                inner = f"helpers in {c['under']}"
                totals[inner] = totals.get(inner, 0.0) + c["end"] - c["start"]
        procs = [{**p, "wall": p["end"] - p["start"]} for p in self.processes
                 if p.get("end") is not None]
        for p in procs:
            if p["in_build"] in HELPERS:
                p["name"] = f"{HELPERS[p['in_build']]}: {p['name']}"
        since = self.call_at if self.call_at is not None else 0.0
        imports = sorted(((end - start, name) for name, start, end in self.imports
                          if start >= since), reverse=True)
        return {"functions": totals, "processes": procs, "batches": self.batches,
                "imports": sum(t for t, _ in imports), "import_count": len(imports),
                "slowest_imports": [[name, t] for t, name in imports[:5]],
                "missing": self.missing,
                "builds": [c.get("name_hint", "") for c in self.calls if c["label"] == "build"]}


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed_popen(probe: Probe):
    base = subprocess.Popen

    class TimedPopen(base):
        def __init__(self, args, *rest, **kwargs):
            record = {"name": short_name(args if isinstance(args, (list, tuple)) else [args]),
                      "start": probe.now(), "end": None, "under": probe.under(),
                      "in_build": probe.in_build()}
            super().__init__(args, *rest, **kwargs)
            self.bench_record = record
            with probe._lock:
                probe.processes.append(record)
            threading.Thread(target=_watch, args=(self.pid, record, probe), daemon=True).start()

        def wait(self, timeout=None):
            rc = super().wait(timeout)
            if self.bench_record["end"] is None:   # reaped before the watcher saw it exit
                self.bench_record["end"] = probe.now()
            return rc
    return TimedPopen


def _watch(pid: int, record: dict, probe: Probe) -> None:
    try:
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    except (ChildProcessError, OSError):
        return
    if record["end"] is None:
        record["end"] = probe.now()


class _ImportWatch(importlib.abc.MetaPathFinder):
    """First on ``sys.meta_path``: times every import that is not nested in another (finding
    and executing the module; ``probe.imports``), and runs ``patch(module, names)`` right after
    one of ``pending``'s modules is executed. Finding is delegated to the finders after it."""

    def __init__(self, probe: Probe, pending: dict, patch) -> None:
        self.probe, self.pending, self.patch = probe, pending, patch
        self.depth = 0
        self.finding: set = set()

    def find_spec(self, fullname, path, target=None):
        if fullname in self.finding:
            return None
        outer, start = self.depth == 0, self.probe.now()
        self.finding.add(fullname)
        try:
            spec = self._find(fullname, path, target)
        finally:
            self.finding.discard(fullname)
        if not isinstance(getattr(spec, "loader", None), FILE_LOADERS):
            return spec     # (built-in and frozen modules: their loader is a shared class)
        names, exec_module = self.pending.pop(fullname, None), spec.loader.exec_module

        def exec_then_patch(module):
            self.depth += 1
            try:
                exec_module(module)
            finally:
                self.depth -= 1
                if outer:
                    self.probe.imports.append((fullname, start, self.probe.now()))
            if names:
                self.patch(module, names)
        spec.loader.exec_module = exec_then_patch
        return spec

    def _find(self, fullname, path, target):
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                return spec
        return None
