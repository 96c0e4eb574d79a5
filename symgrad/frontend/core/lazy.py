"""Capture and replay of eager steps: torch code at compiled speed, without a decorator.

Layer: front end, above ``apply``, ``lazy_ops``, ``lazy_operands`` (an op's operands in its
key), ``lazy_state`` (the trie, its ends, the open region) and ``pending``, below
``lazy_backward`` and the engine. Input: every eager
``apply`` and ``attach_function`` (a composite's one backward node) on the main thread while
capture is on (``apply.WATCH``; ``lazy_composite`` records whole composites, the nodes of ops
of several outputs and ``detach()`` with this module's trie), and every in-place update
(``lazy_updates``: the region ends first). Output: the same tensors, values and ``.grad``s as
the eager path, computed by one compiled C function per repeated step.

How (torch's LazyTensor and tinygrad's ``TinyJit`` meet: lazy like the first, automatic,
keyed by structure and compiled like the second):

* **Regions.** A region starts at the first op that records a backward node and ends at the
  ``backward()`` of one of its results (or where the capture falls back). Each op is keyed by
  its structure: the op, its attributes, the grad mode, the names torch shows, and its
  operands: results of this region by number, tensors from outside ("externals") by order of
  first use and their metadata (shape, dtype, ``requires_grad``, leaf or not, layout), Python
  numbers by type and exact value. A composite's backward rule is keyed by its code and what
  its closure holds (tensors by reference, plain values by value, module-level objects by
  identity); anything else is not captured (``lazy_ops``). The keys form a trie: a path from
  the root is a region's structure.
* **Counting, then recording, then arming.** Until some structure has applied ``min_ops``
  ops, a region is only *counted*: a fingerprint of its ops' names and their number (what
  a script too short to compile pays: ~0.3 us per op, where keying each op costs ~3). A
  structure that reached ``min_ops`` makes the next regions recorded into the trie; a region
  ending in ``backward()`` counts a visit of its path's end, and a path visited ``repeats``
  times is *armed*. Counts, not seconds: a program switches to compiled code at the same
  step in every run, whatever the machine's load, and a short script never waits for a
  compiler. A structure whose recorded regions arm nothing (an op or a custom Function the
  capture cannot hold) asks again only after twice as many ops each time, and a pending
  region that leaves its armed path goes on counted: what never repeats pays ~0.3 us an op,
  not the ~3 of keying it.
* **Replay.** On an armed path, ops do not compute: each returns a ``PendingTensor`` whose
  metadata come from the trie. At ``backward()`` the region's path compiles (once: forward,
  backward, the values still referenced by the program and the leaves' gradients, in one C
  function) and runs as one call (``lazy_backward``); the pending tensors still referenced
  become ``ReplayedTensor``s with their values, the leaves' gradients accumulate as torch's.
* **Fallback, never a wrong result.** Whatever the replay does not know (a pending value
  read, an op off the path, an in-place update anywhere, a hook, ``retain_graph``,
  ``create_graph``, a gradient flowing into a tensor made before the region) first
  *materializes* the region: its recorded ops run eagerly, exactly as they would have, and
  the pending objects become those results. The region then continues eagerly.

What the program observes is the eager path's: values (compiled code computes what the
ops' references compute, as ``@symgrad.compile`` does), shapes, dtypes, ``requires_grad``,
``.grad`` accumulation, errors of the Python checks (they run at the user's line: only the
kernels are deferred), random draws (drawn by factories, outside ``apply``, in program
order). ``SYMGRAD_DEBUG=1`` logs each arming, compile and fallback with its reason.

Why not compile on a background thread as soon as a structure repeats: the compile's trace and
passes are Python and hold the interpreter lock, so they would slow the eager steps they run
beside, and when the switch happens would depend on the machine's load: the same program would
change kernels at a different step from run to run.
"""

from __future__ import annotations

import threading
import weakref

from ... import config, dtypes
from ...ir.graph import attrs_key
from . import apply as applying, grad_mode, layout, sources
from .apply import apply, attach_function
from .lazy_ops import Uncapturable, function_spec, run_entry
from .lazy_operands import (_DTYPES, _operand, _external, external_meta, in_step,  # noqa: F401
                            local_index)  # (the recorder's, and its users')
from .lazy_state import STATE, STATS, End, Region, TrieNode  # noqa: F401  (the recorder's)
from . import pending as pending_mod
from .pending import PendingTensor, RAW, ReplayedTensor, become, pending
from .tensor import Tensor

WATCH = applying.WATCH            # [on]: apply and attach_function call in here
_GRAD = grad_mode._local
_RECORDING = sources._local   # .recording: a trace is running (its ops are not recorded)
_MAIN = threading.main_thread().ident
_get_ident = threading.get_ident
_VALUE = RAW["_value"]
_INDEX = RAW["_node"].__get__   # (a pending tensor's number: pending.index_of, inlined)
_weakref = weakref.ref

# The policy: arm a path after ``repeats`` visits once its structure applied ``min_ops`` ops
# in all. Counts, not seconds, and nothing else (not the process's history, not the disk
# cache's contents): when a step starts running compiled is the same in every run of a
# program, so it prints the same bits in a fresh process and a long-running one. 1000 ops
# are 5-10 ms of eager work; a compile costs ~5 ms once an earlier process has kept the step
# (``api.replay``, and ~45 ms of imports in a process's first), 30-200 ms more to trace and
# generate its C, and 0.3-2 s of gcc the first time a machine sees the step (measured on the
# corpus of ``tests/programs``: ``benchmarks/results/programs.md``). Keep ``max_compiled``
# compiled steps (least recently used first out) and a trie of at most ``max_nodes`` ops
# (then it starts again); a region longer than ``max_ops`` ends.
SETTINGS = {"enabled": config.capture_mode() != "off", "repeats": 3, "min_ops": 1000,
            "max_compiled": 32, "max_nodes": 100_000, "max_ops": 20_000}
if config.capture_mode() == "eager":
    SETTINGS.update(repeats=1, min_ops=0)


def enable(on: bool = True) -> None:
    """Turn eager capture on or off (``symgrad.set_capture``): off, every op computes at once
    (the open region runs eagerly first). ``SYMGRAD_CAPTURE=0`` starts with it off."""
    close("capture turned off")
    SETTINGS["enabled"] = bool(on)
    WATCH[0] = bool(on)


def enabled() -> bool:
    return SETTINGS["enabled"]


def reset() -> None:
    """Forget every captured structure and compiled step (as a new process would start)."""
    close(None)
    _forget(None)


def paused():
    """A context in which nothing is recorded (symgrad's own eager work: the backward pass,
    a replay)."""
    return _Paused()


class _Paused:
    __slots__ = ("prev",)

    def __enter__(self):
        self.prev = WATCH[0]
        WATCH[0] = False

    def __exit__(self, *exc):
        WATCH[0] = self.prev


# ---------------------------------------------------------------- recording

def applied(name: str, args: tuple, attrs: dict, torch_name, shown) -> Tensor | None:
    """``apply(name, *args, **attrs)`` while capture is on (``apply`` calls this first);
    None: not recorded, ``apply`` goes on as without capture. A region starts at the first
    op that records a backward node: what comes before it (data loading, an optimizer's
    update under no_grad) runs as it would without capture."""
    reg = STATE.region
    if reg is None:
        if not (_GRAD.enabled and _requiring(args)) or _get_ident() != _MAIN or \
                _RECORDING.recording is not None:
            return None
        reg = _open()
    elif _get_ident() != _MAIN or _RECORDING.recording is not None:   # (a trace's op)
        return None
    if not reg.lazy:   # (counted or recorded; a pending region's count is not needed)
        reg.fp = hash((reg.fp, name))
        reg.ops += 1
        if reg.counting:
            return None
    if attrs and attrs.get("check"):   # (a kernel that raises on its operand's values, a
        close(f"{name} checks its operand's values")   # singular matrix: at its line)
        return None
    n_ext = len(reg.ext)
    try:
        specs = []   # (a loop, the step's own results and floats inlined: every op runs it)
        for a in args:
            kind = a.__class__
            specs.append(_INDEX(a, Tensor) if kind is PendingTensor else
                         (float, a.hex()) if kind is float else _operand(reg, a))
        specs = tuple(specs)
        key = ("a", name, attrs_key(tuple(attrs.items())) if attrs else (), specs, torch_name,
               shown, _GRAD.enabled, dtypes.DEFAULT_FLOAT,
               tuple(reg.ext_meta[n_ext:]) if len(reg.ext) > n_ext else ())
        child = reg.cursor.children.get(key)
    except (Uncapturable, TypeError) as e:
        close(f"{name}: {e}")
        return None
    if reg.lazy:
        if child is not None and child.armed and not child.view:   # (``_next``'s common case)
            t = pending(child.meta, child.index, False)
            reg.tensors.append(t)
            reg.cursor = child
            return t
        t = _next(reg, child, name)
        if t is not None:
            return t
    WATCH[0] = False   # (the eager op, unrecorded; inline: this runs for every op)
    try:
        out = apply(name, *args, _torch_name=torch_name, _shown=shown, **attrs)
    finally:
        WATCH[0] = True
    return _noted(reg, key, child, out, None if child is not None else
                  lambda: ("a", name, dict(attrs), specs, torch_name, shown, _GRAD.enabled))


def _requiring(args: tuple) -> bool:
    """Whether an op on ``args`` starts a region: one requires grad, none is a result of
    another graph (the region would end there: ``external_meta``)."""
    found = False
    for a in args:
        if isinstance(a, Tensor) and a._requires_grad:
            kind = a.__class__
            if kind is PendingTensor or kind is ReplayedTensor or a.grad_fn is not None:
                return False
            found = True
    return found


def attached(out: Tensor, torch_name: str, rule, inputs: list, saves: bool, uses_out: bool,
             holomorphic: bool, shown) -> Tensor:
    """``attach_function(...)`` while capture is on, once it knows it attaches."""
    if _get_ident() != _MAIN or _RECORDING.recording is not None:
        return _plain_attach(out, torch_name, rule, inputs, saves, uses_out, holomorphic, shown)
    reg = STATE.region
    if reg is None:
        if not _requiring(inputs):   # (the node of an op on another graph's result)
            return _plain_attach(out, torch_name, rule, inputs, saves, uses_out, holomorphic,
                                 shown)
        reg = _open()
    if not reg.lazy:
        reg.fp = hash((reg.fp, torch_name))
        reg.ops += 1
        if reg.counting:
            return _plain_attach(out, torch_name, rule, inputs, saves, uses_out, holomorphic,
                                 shown)
    found = keyed(reg, torch_name, lambda: (
        "c", torch_name, shown, saves, uses_out, holomorphic, _operand(reg, out),
        tuple([_operand(reg, t) for t in inputs]),
        function_spec(lambda t: _operand(reg, t), rule)))
    if found is None:
        return _plain_attach(out, torch_name, rule, inputs, saves, uses_out, holomorphic, shown)
    entry, key, child = found
    t = _next(reg, child, torch_name)
    if t is not None:
        return t
    result = _plain_attach(out, torch_name, rule, inputs, saves, uses_out, holomorphic, shown)
    return _noted(reg, key, child, result, lambda: entry)


def keyed(reg: Region, name: str, make) -> tuple | None:
    """``(entry, key, child)`` of the entry ``make()`` makes (a node, a detach): its key
    holds the metadata of the externals it made the region's, ``child`` is the trie's node
    for it (None: new). None: it cannot be captured, the region has ended."""
    n_ext = len(reg.ext)
    try:
        entry = make()
        key = entry + (tuple(reg.ext_meta[n_ext:]),)
        return entry, key, reg.cursor.children.get(key)
    except (Uncapturable, TypeError) as e:
        close(f"{name}: {e}")
        return None


def _plain_attach(out, torch_name, rule, inputs, saves, uses_out, holomorphic, shown):
    WATCH[0] = False
    try:
        return attach_function(out, torch_name, rule, inputs, saves, uses_out, holomorphic,
                               shown)
    finally:
        WATCH[0] = True


def _next(reg: Region, child: TrieNode | None, name: str) -> PendingTensor | None:
    """The next op's pending result, if it is ``child`` and ``child`` is on an armed path of
    a pending region; else None, the region going on eagerly from here (what is pending runs
    first: an op off the captured path)."""
    if reg.lazy:
        if child is not None and child.armed:
            t = pending(child.meta, child.index, child.view)
            if child.view and _GRAD.enabled:
                _inherit_creation(reg, child.entry, t)
            reg.tensors.append(t)
            reg.cursor = child
            return t
        leave(reg, f"{name} is not on the captured path")
        reg.fp = hash((reg.fp, name))   # (counted from here: this op too)
        reg.ops += 1
    return None


def leave(reg: Region, why: str) -> None:
    """A pending region leaves its captured path at an op: what is pending runs first, and
    the region goes on eagerly, recorded if a structure's count asked for it (``hot``:
    ``lazy_backward._seen``), else only counted: a step that never follows an armed path
    costs what it would cost with nothing armed (~0.3 us per op, not ~3 to key it)."""
    if reg.tensors:
        materialize_region(reg, why)
    reg.lazy = False
    reg.counting = not reg.hot and SETTINGS["min_ops"] > 0


def _inherit_creation(reg: Region, entry: tuple, t: PendingTensor) -> None:
    """A pending view of a split's piece is marked as the piece (``register_view``)."""
    if entry[0] != "a":     # (a detach() is an alias: not marked)
        return
    spec = entry[3][0]
    base = (reg.tensors[spec] if spec >= 0 else reg.ext[-1 - spec]) if type(spec) is int \
        else None
    if base is not None and base._creation is not None:
        t._creation = base._creation


def _noted(reg: Region, key: tuple, child, out: Tensor, entry) -> Tensor:
    """Note eager result ``out`` as the region's next op (a new trie node if ``child`` is
    None: ``entry()`` makes its entry)."""
    if STATE.region is not reg or reg.counting:   # (the op ended the region: a backward
        return out                                  # inside, say; or left the path)
    if out._view is not None:   # a view's strides, computed now (``layout.strides`` caches
        layout.strides(out)     # them): a pending view answers ``stride()`` from its metadata
    meta = (out.shape, out.dtype, out._requires_grad, out._weak, out._strides)
    if child is None:
        if STATE.nodes >= SETTINGS["max_nodes"]:
            _forget("the trie of captured structures is full")
        child = TrieNode(reg.cursor, entry(), meta)
        reg.cursor.children[key] = child
        STATE.nodes += 1
    elif child.meta != meta:   # a result the key did not decide: never replay it
        child.armed = False
        config.debug(1, "capture: %s gave %s after %s: not captured", key[1], meta, child.meta)
        reg.cursor.children.pop(key, None)
        close("an op whose result the capture key does not decide")
        return out
    reg.ids[id(out)] = (child.index, _weakref(out))
    reg.cursor = child
    if child.index >= SETTINGS["max_ops"]:
        close(None)
    return out


def _open() -> Region:
    """A new region: recorded (keyed op by op into the trie, pending on an armed path), or
    only *counted* -- a fingerprint of its ops' names, ~1 us per op instead of ~4 -- while no
    path is armed and no structure has applied ``min_ops`` ops yet (``lazy_backward``: one
    that has makes the next regions recorded)."""
    hot = STATE.budget > 0
    counting = not hot and not STATE.armed and SETTINGS["min_ops"] > 0
    STATE.budget -= hot
    STATS["recorded"] += hot
    # (pending only where a path is armed: a region that cannot follow one counts every op)
    reg = STATE.region = Region(STATE.root, STATE.armed, counting, hot)
    return reg


# ---------------------------------------------------------------- falling back

def close(why: str | None) -> None:
    """End the open region (materialized first if it is pending): an in-place update, an op
    the capture cannot hold, a backward it does not run. ``why``: logged (None: a normal
    end)."""
    reg = STATE.region
    if reg is None:
        return
    if why is not None and reg.hot:
        wasted()
    if reg.lazy and reg.tensors:
        _fell_back(reg.cursor)
        materialize_region(reg, why or "the region ended")
    elif why is not None and not reg.lazy:
        config.debug(2, "capture: region ends eagerly: %s", why)
    STATE.region = None


def materialize(t: PendingTensor) -> None:
    """A pending tensor's value or autograd state was read: the region runs eagerly
    (``pending``'s hook)."""
    reg = STATE.region
    if type(t) is not PendingTensor:
        return
    if reg is None or not reg.lazy:
        raise RuntimeError("symgrad: this tensor belongs to a captured step that failed to "
                           "run (the error was raised where the step ran)")
    _fell_back(reg.cursor)
    leave(reg, "a value of a pending result was read")


def wasted() -> None:
    """A region recorded because a structure's count asked for it ends where the capture
    cannot go on (an op it cannot hold, a step it cannot run compiled): the rest of the
    regions asked for are not recorded, and that structure asks again only after twice as
    many ops (``lazy_backward._seen``)."""
    STATE.budget = 0
    fp = STATE.granted
    if fp is not None:
        STATE.grants[fp] = STATE.grants.get(fp, 0) + 1
        STATE.granted = None


def _fell_back(node: TrieNode) -> None:
    """A pending region falls back at ``node`` because the program reads a value or updates
    in place there (not an op off the path: that may be another step's path, armed later).
    The ``repeats``-th time in a row with no step replayed between blocks the node: the
    branch of armed paths leading only there is disarmed and never armed again
    (``lazy_backward._arm``), so that a step that reads a value mid-step each time runs
    eagerly, not pending and then again eagerly."""
    falls, mark = node.falls
    falls = falls + 1 if mark == STATS["replayed"] else 1
    node.falls = (falls, STATS["replayed"])
    if falls < SETTINGS["repeats"] or node.parent is None:
        return
    config.debug(1, "capture: steps fall back after %d ops each time: not armed again",
                 node.index + 1)
    node.blocked = True
    while node.parent is not None and node.armed:
        node.armed = False
        node = node.parent
        if any(c.armed for c in node.children.values()):
            break
    STATE.armed = any(c.armed for c in STATE.root.children.values())


def materialize_region(reg: Region, why: str) -> None:
    """Run the region's recorded ops eagerly, each result becoming its pending tensor; the
    region goes on eagerly."""
    STATS["fallbacks"] += 1
    config.debug(1, "capture: falls back to eager after %d ops (the last: %s): %s",
                 len(reg.tensors), reg.cursor.entry and reg.cursor.entry[1], why)
    if config.debug_level() >= 3:
        import traceback
        traceback.print_stack(limit=8)
    reg.lazy = False
    path = _path(reg.cursor)
    # (counted from here on as a recorded region is: its fingerprint so far, which a pending
    # region did not keep, so that a step that falls back at the same op each time is armed
    # on its own path)
    fp = ops = 0
    for node in path:
        kind = node.entry[0]
        if kind != "m":   # (not counted: the op that made its outputs was)
            fp = hash((fp, "detach" if kind == "d" else node.entry[1]))
            ops += 1
    reg.fp, reg.ops = fp, ops
    tensors = reg.tensors
    # An external whose array others hold was copied when first used (``_external``): the
    # ops read that copy, the values of their time, as the compiled step would.
    copied = [(t, _VALUE.__get__(t, Tensor), a) for t, a in zip(reg.ext, reg.arrays)
              if a is not _VALUE.__get__(t, Tensor)]
    with paused():
        try:
            for t, _, a in copied:
                _VALUE.__set__(t, a)
            for node, t in zip(path, tensors):
                real = run_entry(node.entry, tensors, reg.ext)
                if real is None:   # (an "m" entry: no tensor)
                    continue
                if t is None:   # (an op of a skipped composite's body: no one holds it)
                    tensors[node.index] = t = real
                else:
                    become(t, real)
                reg.ids[id(t)] = (node.index, _weakref(t))
        except BaseException:
            STATE.region = None     # (what is left pending says so when used)
            raise
        finally:
            for t, v, _ in copied:
                _VALUE.__set__(t, v)
    checked(reg)


def check(ok: Tensor, error) -> bool:
    """Whether a validation (``ok``, a bool tensor: raise ``error()`` unless it is True) is left
    to the open captured step, where ``ok`` is pending: the step computes it, and raises the
    error when it runs (its ``backward()``) or falls back, not at the validation's line (a
    distribution's argument check, which would otherwise read a value every step). False:
    the caller checks now."""
    reg = STATE.region
    if type(ok) is not PendingTensor or reg is None or not reg.lazy:
        return False
    if reg.checks is None:
        reg.checks = []
    reg.checks.append((ok, error))
    return True


def checked(reg: Region) -> None:
    """Raise the first failed validation left to ``reg`` (its values computed)."""
    checks, reg.checks = reg.checks, None
    for ok, error in checks or ():
        if not bool(ok):
            raise error()


def _path(node: TrieNode) -> list:
    path = []
    while node.parent is not None:
        path.append(node)
        node = node.parent
    path.reverse()
    return path


def _forget(why: str | None) -> None:
    if why is not None:
        config.debug(1, "capture: %s: starting again", why)
    STATE.root = TrieNode(None, None, None)
    STATE.nodes = 0
    STATE.compiled.clear()
    STATE.seen.clear()
    STATE.grants.clear()
    STATE.budget, STATE.armed, STATE.granted = 0, False, None


pending_mod.MATERIALIZE[0] = materialize
applying.RECORDER[0] = applied
applying.ATTACHER[0] = attached
WATCH[0] = SETTINGS["enabled"]
