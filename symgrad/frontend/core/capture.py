"""Captured state at trace time: tensors and arrays from outside a compiled function's arguments
become inputs of its graph, read at every call.

Layer: front end, above ``tensor``/``sources``/``function``. Input: the eager tensors and NumPy
arrays a traced function meets that are not its arguments (``torch.compile``'s "captured
state": an ``nn.Module``'s parameters and buffers, tensors and arrays read from closures and
globals), and the reads of the outside world a trace makes (environment variables, files,
global random generators). Output: ``Captures``, the active compile trace's table of them: for
each captured object an ``input`` node (after the arguments' inputs) and the traced tensor that
stands in for it; the reads that must be checked before the compiled code is reused.

Why inputs, not constants (torch.compile's semantics; JAX bakes them in): training changes
parameters in place, and a global array may be edited between calls. A constant would keep
the value of the moment the function was traced, so a long-running process would compute with
history while a fresh one traces the current values. Passed by pointer, the compiled code reads
what a fresh trace would read. What is provably private stays a constant: a tensor made during
this trace from private data (``torch.arange(5.)`` in the function), an array no captured
state reaches (``np.triu(np.ones((n, n)))`` computed in the function) or one made read-only
(``a.setflags(write=False)``, whose flag is then checked at each call).

Which objects are outside: an eager tensor made before this trace (``Tensor._trace`` is not
this trace), or one whose values are a reachable array's memory (``from_numpy(W)``); an array
the function's captured state reaches (``api.fingerprint``'s walk gives their ids) or a view of
one. Every op applied to such a value while tracing is traced (``swap``), never computed
eagerly: ``W.T`` of a captured parameter is a transpose in the graph, not a constant copy.

What the trace reads concretely is checked instead: an outside tensor's value read as a
number or array (``item()``, ``numpy()``, ``float(p)``) is baked into the code, and its version
counter and storage are checked at each call (an in-place update or a new ``.data`` retraces);
an environment variable's value or a file's identity read while tracing likewise; a draw from
a global random generator (Python's, NumPy's, symgrad's) makes the result depend on the
generator's history, which no check can see: the compiled code is then not stored for other
processes (``volatile``).
"""

from __future__ import annotations

import os
import sys
import threading
import warnings

import numpy as np

from ...config import PACKAGE_DIR
from ... import dtypes
from ...ir.graph import Node
from . import sources
from .backward_graph import edge, function_class
from .tensor import Tensor

# How many compile traces are running in this process (any thread): while it is 0, nothing
# here costs anything (``apply``, ``Tensor.node`` and the value accessors test it first).
ACTIVE = sources.CAPTURING

_Alias = function_class("AliasBackward0")


class Captures:
    """The captured state of one compile trace (see the module docstring)."""

    __slots__ = ("root", "name", "reachable", "storages", "first", "entries", "by_id",
                 "reads", "baked", "world", "volatile", "lock")

    def __init__(self, first_index: int, reachable: dict | None = None,
                 name: str = "") -> None:
        self.root = None                 # the trace's Recording (set by ``tracing``)
        self.name = name                 # the function traced (for messages)
        # id -> (object, path) of the arrays and tensors the function's captured state reaches
        # (``api.fingerprint``), and id(storage) -> tensor of those tensors' current storage
        # arrays (``p.detach()`` shows it; taken now: an optimizer may have replaced it).
        self.reachable = reachable or {}
        self.storages = {id(o._value): (o, o._value) for o, _ in self.reachable.values()
                         if isinstance(o, Tensor) and o._value is not None}
        self.first = first_index         # the input index of the first capture
        self.entries: list = []          # Capture, in the order first met
        self.by_id: dict = {}            # id(object) -> Capture
        self.reads: dict = {}            # id(tensor) -> (tensor, version, storage)
        self.baked: dict = {}            # id(array) -> captured array read concretely
        # (kind, argument) -> what the world said while tracing: an environment variable's
        # value, a file's identity, the working directory (``WORLD`` asks again)
        self.world: dict = {}
        self.volatile: list = []         # why the result depends on more than its inputs
        self.lock = threading.Lock()

    # ------------------------------------------------------------ lifting
    def outside(self, t: Tensor):
        """The captured object behind eager tensor ``t`` (``t`` itself, or the reachable
        tensor or array whose storage it shows), or None when ``t`` is private to this
        trace."""
        made = t._trace
        if made is None or (made.root or made) is not self.root:
            return t
        value = t._value
        found = self.storages.get(id(value))
        if found is not None and found[1] is value:
            return found[0]       # (a captured tensor's storage: p.detach(), p.data)
        found = self.reachable.get(id(value))
        if found is not None:
            return found[0]       # (a captured array itself: from_numpy(W))
        # a view of captured memory made while tracing: captured as the view it is
        return value if self._reached(value) else None

    def lift(self, t: Tensor) -> Tensor | None:
        """The traced stand-in of eager tensor ``t`` if it is outside, else None."""
        source = self.outside(t)
        return None if source is None else self.tensor(t, source)

    def tensor(self, t: Tensor, source) -> Tensor:
        """The traced tensor standing in for eager tensor ``t``, whose values are captured
        object ``source``'s. If ``t`` itself is captured and requires grad, the stand-in
        does too, and its backward passes the cotangent on to ``t`` (an autograd call inside
        the function reaches the parameters)."""
        entry = self._entry(source)
        if t is not source or not t._requires_grad:
            return entry.plain
        if entry.aliased is None:
            s = entry.aliased = Tensor(None, entry.node)
            s._trace, s._requires_grad = self.root, True
            s.grad_fn = _Alias(lambda b, g, o, ins: (g,), {}, (t,), (None, entry.node), False,
                               (edge(t),), ((t.shape, t.dtype),), None)
        return entry.aliased

    def stands_in(self, t: Tensor) -> bool:
        """Whether traced tensor ``t`` is the stand-in of a captured object (an input of the
        compiled code after the function's own arguments)."""
        node = t._node
        return node is not None and node.op == "input" and node.attr("index") >= self.first

    def array(self, a: np.ndarray) -> Tensor | None:
        """The traced tensor standing in for NumPy array ``a`` if captured state reaches it
        (or a view of it), else None (a constant)."""
        if id(a) in self.reachable or self._reached(a):
            if dtypes.from_numpy(a.dtype) is None:
                return None     # (the conversion that follows says what is wrong)
            return self._entry(a).plain
        return None

    def _reached(self, a) -> bool:
        """Whether array ``a``'s memory is captured memory, through its ``.base`` chain."""
        base = getattr(a, "base", None)
        while base is not None:
            found = self.storages.get(id(base))
            if id(base) in self.reachable or found is not None and found[1] is base:
                return True
            base = getattr(base, "base", None)
        return False

    def _entry(self, source) -> Capture:
        entry = self.by_id.get(id(source))
        if entry is None:
            entry = Capture(source, len(self.entries), self)
            self.entries.append(entry)
            self.by_id[id(source)] = entry
            guards = self.root.guards     # (self.root: the trace's own recording)
            if guards is not None:     # Python control flow decides on the current values
                guards.env[entry.node] = np.array(entry.value(), dtype=entry.node.dtype.np)
        return entry

    def copy_of(self, data) -> Tensor | None:
        """``torch.tensor(data)`` of an outside tensor or a reachable array while tracing: a
        new traced tensor of its current values (None: ``data`` is private, copy it)."""
        if isinstance(data, Tensor):
            if data._value is None:
                return None
            stand_in = self.lift(data)
        elif type(data) is np.ndarray:
            stand_in = self.array(data)
        else:
            return None
        if stand_in is None:
            return None
        t = Tensor(None, stand_in._node)
        t._trace = self.root
        return t

    # ------------------------------------------------------------ concrete reads
    def note(self, t: Tensor) -> None:
        """``t``'s value is read as a Python number or array while tracing: if ``t`` is
        outside, the compiled code is reused only while its version and storage are the
        same."""
        with self.lock:
            source = self.outside(t)
            if source is None:
                return
            if isinstance(source, np.ndarray):      # (memory of a captured array)
                self.baked.setdefault(id(source), source)
                return
            self.reads.setdefault(id(source), (source, source._vc, source._vc[0],
                                               source._value))

    def checks(self) -> tuple:
        """What the compiled code's reuse depends on besides its inputs: (tensor, version
        cell, version, storage) of each outside tensor read concretely; (kind, argument,
        value) of each read of the world (``WORLD``)."""
        return tuple(self.reads.values()), tuple(sorted(
            ((kind, arg, value) for (kind, arg), value in self.world.items()), key=repr))

    def saw(self, kind: str, arg, value) -> None:
        """The trace read ``WORLD[kind](arg)`` and got ``value`` (the first read counts)."""
        self.world.setdefault((kind, arg), value)


class Capture:
    """One captured object: its input node and the traced tensor that stands in for it."""

    __slots__ = ("obj", "node", "plain", "aliased", "path")

    def __init__(self, obj, k: int, table: Captures) -> None:
        self.obj = obj
        found = table.reachable.get(id(obj))
        self.path = found[1] if found is not None and found[0] is obj else None
        value = self.value()
        dt = dtypes.from_numpy(value.dtype)
        dt = dtypes.float32 if dt is dtypes.float16 else dt   # (as for a float16 argument)
        name = path_name(self.path) if self.path else f"captured{k}"
        self.node = Node("input", (("index", table.first + k), ("name", name)), (), dt,
                         tuple(value.shape))
        self.plain = Tensor(None, self.node)
        self.plain._trace = table.root
        self.aliased = None

    def value(self) -> np.ndarray:
        obj = self.obj
        return obj._value if isinstance(obj, Tensor) else obj

    @property
    def kind(self) -> str:
        return "tensor" if isinstance(self.obj, Tensor) else "array"


def path_name(path: tuple) -> str:
    """A capture's path as the user would write it: ``model.fc.weight``, ``W``, ``cfg['w']``."""
    text, store = "", False
    for step in path:
        kind, _, key = step.partition(":")
        if kind == "own":
            continue            # (a closure variable of symgrad's own wrapper)
        if kind in ("global", "cell") or not text and kind not in ("attr", "item"):
            text, store = key, False
        elif kind == "attr" and key in ("_parameters", "_buffers", "_modules"):
            store = True        # (an nn.Module's registry: its items read as attributes)
            continue
        elif kind in ("attr", "member", "module"):
            text += f".{key}"
        elif kind == "item":
            text += f".{key.strip(chr(39))}" if store else f"[{key}]"
        store = False
    return text.lstrip(".") or "captured"


def current() -> Captures | None:
    """The captures of the compile trace running in this thread (None: none is)."""
    rec = sources._local.recording
    return None if rec is None else rec.captures


def swap(args: tuple) -> tuple:
    """``args`` of an op applied while a compile trace runs, each outside tensor or reachable
    array replaced by its traced stand-in (so the op is traced, not computed eagerly)."""
    rec = sources._local.recording   # (current(), inlined: this runs once per op)
    table = None if rec is None else rec.captures
    if table is None:
        return args
    out = None
    for k, a in enumerate(args):
        if isinstance(a, Tensor):
            if a._value is None:
                continue
            stand_in = table.lift(a)
            if stand_in is None:
                continue
        elif type(a) is np.ndarray:
            stand_in = table.array(a)
            if stand_in is None:
                continue
        else:
            continue
        if out is None:
            out = list(args)
        out[k] = stand_in
    return args if out is None else tuple(out)


def volatile(why: str) -> None:
    """The running compile trace depends on something no check sees (a random draw...)."""
    table = current()
    if table is not None:
        table.volatile.append(why)


# ------------------------------------------------------------------ the outside world
def _environ_getitem(self, key, _get=os._Environ.__getitem__):
    """``os.environ[key]`` (and so ``os.environ.get``, ``os.getenv``), noted by the running
    compile trace."""
    try:
        value = _get(self, key)
    except KeyError:
        _note_env(self, key, None)
        raise
    _note_env(self, key, value)
    return value


def _note_env(environ, key, value) -> None:
    table = current() if environ is os.environ else None
    if table is not None and isinstance(key, str):
        table.saw("env", key, value)


def _stat(path, *args, _stat=os.stat, **kwargs):
    """``os.stat`` (and so ``os.path.exists``, ``isfile``, ``getsize``...) while a compile
    trace runs: the file's identity is noted, as for a file opened."""
    table = current() if ACTIVE[0] else None
    if table is not None and isinstance(path, (str, bytes, os.PathLike)) and not args \
            and not kwargs:
        name = _absolute(path)
        if not _ignored(name):
            table.saw("file", name, file_identity(name))
    return _stat(path, *args, **kwargs)


def _absolute(path) -> str:
    """``os.path.abspath`` with the unpatched ``getcwd`` (the module's own file lookups
    are not the traced function's reads of the working directory)."""
    path = os.fsdecode(path)
    return os.path.normpath(path if os.path.isabs(path) else os.path.join(_GETCWD(), path))


def _getcwd(_getcwd=os.getcwd):
    value = _getcwd()
    table = current() if ACTIVE[0] else None
    if table is not None:
        table.saw("cwd", None, value)
    return value


def _ignored(path: str) -> bool:
    """Files symgrad and Python read for their own work while a trace runs (modules, the
    source lines quoted in messages, symgrad's own files): not the traced function's inputs."""
    return path.endswith((".py", ".pyc")) or any(
        path == d or path.startswith(d + os.sep) for d in _IGNORED)


# What a read of the world is read again with, to check it (kind -> function of argument).
WORLD = {"env": os.environ.get, "file": lambda path: file_identity(path),
         "cwd": lambda _: os.getcwd()}


def _audit(event: str, args: tuple) -> None:
    """The audit hook (installed once, at the first compile trace): files opened for reading
    while a compile trace runs are noted with their identity; other reads of the world
    (a directory listing, a socket, a subprocess) make the trace volatile."""
    if event != "open" and event not in _VOLATILE_EVENTS or not ACTIVE[0]:
        return   # (the event first: sys._getframe, once per traced op, raises one)
    table = current()
    if table is None:
        return
    if event == "open":
        path, mode = args[0], args[1]
        flags = args[2] if len(args) > 2 else 0
        if isinstance(path, int) or (mode is not None and any(c in str(mode) for c in "wax+")) \
                or (mode is None and isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR)):
            return
        if isinstance(path, (str, bytes, os.PathLike)):
            path = _absolute(path)
            if not _ignored(path):
                table.saw("file", path, file_identity(path))
    elif event in _VOLATILE_EVENTS:
        table.volatile.append(f"{event} while tracing")


# Where Python and symgrad keep their own files (see ``_ignored``).
_IGNORED = tuple({os.path.realpath(d) for d in (sys.prefix, sys.base_prefix)} |
                 {PACKAGE_DIR.rstrip(os.sep)})
_VOLATILE_EVENTS = frozenset({"os.listdir", "os.scandir", "glob.glob", "socket.connect",
                              "socket.getaddrinfo", "urllib.Request", "subprocess.Popen",
                              "os.system", "os.exec", "os.spawn", "sqlite3.connect"})


_STAT, _GETCWD = os.stat, os.getcwd     # (the functions themselves, whatever patches them)


def file_identity(path: str) -> tuple | None:
    """What tells a file's contents changed without reading it: size, modification time in
    ns, inode (None: the file does not exist)."""
    try:
        st = _STAT(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


_install_lock = threading.Lock()
_installed = [False]
# How the audit hook is added: ``add(hook, events)``. The build layer sets a hook filtered in
# C (``native.add_audit_hook``: a Python hook runs for every audited event of the process,
# id() included, ~0.15 us each); without it, Python's own (``_audit`` filters the events).
ADD_AUDIT_HOOK = [lambda hook, events: sys.addaudithook(hook)]
_patched = [0]


class tracing:
    """Entered around a compile trace: counts it in ``ACTIVE``, watches the environment, the
    file system's metadata and the working directory (``os.environ`` reads, ``os.stat``,
    ``os.getcwd``: patched while any compile trace runs, each noting for its own thread's
    trace only) and installs the audit hook (files opened) once. Global random generators
    are compared before and after (a draw made them differ)."""

    __slots__ = ("table", "rng")

    def __init__(self, table: Captures) -> None:
        self.table = table

    def __enter__(self) -> Captures:
        with _install_lock:
            if not _installed[0]:
                ADD_AUDIT_HOOK[0](_audit, ("open", *sorted(_VOLATILE_EVENTS)))
                _installed[0] = True
            if _patched[0] == 0:
                os._Environ.__getitem__ = _environ_getitem
                os.stat, os.getcwd = _stat, _getcwd
            _patched[0] += 1
            ACTIVE[0] += 1
        self.rng = _generators()
        return self.table

    def __exit__(self, *exc) -> bool:
        with _install_lock:
            ACTIVE[0] -= 1
            _patched[0] -= 1
            if _patched[0] == 0:
                os._Environ.__getitem__ = _environ_getitem.__defaults__[0]
                os.stat, os.getcwd = _STAT, _GETCWD
        if _generators() != self.rng:
            self.table.volatile.append("a global random generator was drawn from")
            warnings.warn(f"{self.table.name} drew from Python's or NumPy's global random "
                          f"generator while it was traced: those numbers are constants of "
                          f"the compiled code, the same at every call. Draw them outside and "
                          f"pass them as an argument.", UserWarning,
                          stacklevel=sources.user_stacklevel())
        return False


def _generators() -> tuple:
    """The states of the global random generators a function may draw from while traced:
    Python's ``random``, NumPy's legacy global one (compared cheaply: a digest of the state)."""
    import random
    state = np.random.get_state(legacy=False)
    return hash(random.getstate()), state["state"]["key"].tobytes(), state["state"]["pos"]
