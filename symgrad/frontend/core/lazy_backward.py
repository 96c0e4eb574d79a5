"""A captured step's backward: run compiled, or counted towards arming.

Layer: front end, above ``lazy`` (the recorder), ``lazy_ops`` and ``lazy_graph``; the engine calls
``backward`` first, and the compiler is ``COMPILER[0]`` (``api.replay.compile_step``: an
interface passed down). Input: the open region at a ``backward()``. Output: True when the
step ran as one compiled call -- the results the program still holds get their values
(``pending.replayed``), the leaves' gradients accumulate as the engine's do -- else False,
and the engine runs on the region, materialized.

Which results the program holds is read from reference counts when the backward starts: the
region's list holds each pending tensor once, so any other reference is the program's (a
local variable, a list, a closure). The compiled function returns those values and the
gradients, nothing else; the set is part of what it was compiled for. A kept result's
``grad_fn`` is made when first used (``lazy_graph``): the step's graph, made again eagerly
and released, as the backward that computed it would have left it.
"""

from __future__ import annotations

import sys
import weakref

from ... import config
from . import grad_mode
from .lazy import (_DTYPES, _MAIN, STATE, STATS, SETTINGS, End, Region, TrieNode, _get_ident,
                   _path, checked, close, local_index, paused, wasted)
from .lazy_graph import Record
from .lazy_ops import run_entry
from .pending import RAW, ReplayedTensor, become, replayed
from .tensor import Tensor

COMPILER: list = [None]      # api.replay.compile_step
ACCUMULATE: list = [None]    # engine._accumulate (the engine is above this module)
GRAD_LAYOUT: list = [None]   # engine.grad_layout
_getrefcount = sys.getrefcount
_GET_GRAD = RAW["_grad"].__get__


def backward(tensors, grad_tensors, retain_graph, create_graph, inputs) -> bool:
    """``backward()`` while capture is on: True if the region ran compiled (the gradients are
    accumulated); False: the engine runs as usual (the region has ended, materialized)."""
    reg = STATE.region
    if reg is None:
        return False
    if (_get_ident() != _MAIN or len(tensors) != 1 or retain_graph or create_graph
            or inputs is not None or (grad_tensors is not None and grad_tensors[0] is not None)):
        close("a backward() with arguments the capture does not run")
        return False
    root = tensors[0]
    if not root._requires_grad or root.dtype not in _DTYPES or \
            any(n != 1 for n in root.shape):
        close("a backward() the engine refuses or seeds otherwise")
        return False
    if reg.counting:
        _seen(reg)
        STATE.region = None
        return False
    index = local_index(reg, root)
    if index is None:
        close("a backward() of a tensor made before the region")
        return False
    node = reg.cursor
    if node.ends is None:
        node.ends = {}
    end = node.ends.get(index)
    if end is None:
        end = node.ends[index] = End()
    if not reg.lazy:
        # (a step it could not run compiled is not counted)
        countable = _unreplayable(reg) is None and _as_recorded(reg, node)
        end.count += countable
        # (a hot region: recorded because its counted structure reached min_ops -- which
        # recording may have split where an op cannot be captured: its own count is less)
        if (_seen(reg) or reg.hot) and end.failed is None and \
                end.count >= SETTINGS["repeats"] and not node.armed and _arm(node, end):
            STATE.grants.pop(reg.fp, None)
            STATE.granted = None
        elif reg.hot and (not countable or end.failed is not None):
            wasted()   # (recording more of it arms nothing)
        STATE.region = None
        return False
    return _replay(reg, node, end, index)


def _seen(reg: Region) -> bool:
    """Count a region's ops under its fingerprint; whether its structure has now applied
    enough ops to be worth compiling. A counted region that has makes the next few regions
    recorded (then the structure is known exactly, and ``repeats`` visits arm it)."""
    seen = STATE.seen
    if len(seen) >= SETTINGS["max_nodes"]:
        seen.clear()
        STATE.grants.clear()
        STATE.granted = None
    fp = reg.fp
    total = seen[fp] = seen.get(fp, 0) + reg.ops
    granted = STATE.grants.get(fp, 0)
    enough = total >= SETTINGS["min_ops"] << granted
    if enough and reg.counting:
        # Record the next few regions. ``granted``: how many times recorded regions of this
        # structure armed nothing (``lazy.wasted``; or all of them ended, as now, without
        # arming: steps that differ each time, a number that changes every step): a
        # structure whose recorded steps never arm is recorded ever more rarely, not every
        # step at ~3 us an op.
        if STATE.granted == fp:
            STATE.grants[fp] = granted = granted + 1
            if total < SETTINGS["min_ops"] << granted:
                STATE.granted = None
                return False
        STATE.budget = 4 * SETTINGS["repeats"] + 4
        STATE.granted = fp
    return enough


def _arm(node: TrieNode, end: End) -> bool:
    """Arm the path to ``node`` (ending at ``end``), unless a node of it is blocked (steps fell
    back there each time: ``lazy._fell_back``); then its end never is. Whether it armed."""
    path = _path(node)
    if any(n.blocked for n in path):
        end.failed = "its steps fell back each time (a value read or an update mid-step)"
        return False
    config.debug(1, "capture: a step of %d ops seen %d times: armed", node.index + 1,
                 end.count)
    STATE.armed = True
    for n in path:
        n.armed = True
    return True


def _replay(reg: Region, node: TrieNode, end: End, root: int) -> bool:
    tensors = reg.tensors
    why = _unreplayable(reg)
    # (referrers: the list, the call's argument; anything more is the program's)
    # (None: an op of a skipped composite's body, ``lazy_composite``)
    alive = tuple([i for i in range(len(tensors))
                   if tensors[i] is not None and _getrefcount(tensors[i]) > 2])
    runner = None if why else end.runners.get(alive)
    if runner is None and why is None:
        runner, why = _compiled(reg, node, end, root, alive)
    if runner is None:
        close(why)
        return False
    run, grad_slots, outs, views = runner
    lru, key = STATE.compiled, (id(end), alive)
    if next(reversed(lru), None) != key:   # (the most recently used last)
        lru.pop(key, None)
        lru[key] = end
    try:
        values, grads = run(reg.arrays)
    except Exception as e:   # noqa: BLE001  (the eager path raises it at its own op)
        close(f"the compiled step raised {type(e).__name__}: {e}")
        return False
    STATE.region = None
    STATS["replayed"] += 1
    record = None
    for i in alive:
        if tensors[i]._requires_grad:
            record = Record(node, reg.ext, outs + tuple([j for j, _ in views]), tensors)
            break
    for i, v in zip(outs, values):
        replayed(tensors[i], v, record)
    if views:
        _views_of(views, tensors, reg.ext, record)
    checked(reg)   # (a failed validation raises before any gradient is written)
    ext = reg.ext
    with paused():
        for slot, g in zip(grad_slots, grads):
            leaf = ext[slot]
            if _GET_GRAD(leaf, Tensor) is None:   # (the engine's first gradient, without
                grad = Tensor(g, None)              # its copy: ``g`` is new)
                if leaf._strides is not None or leaf._view is not None:   # (else row-major)
                    grad._strides = GRAD_LAYOUT[0](leaf)
                leaf._grad = grad
            else:
                ACCUMULATE[0](leaf, Tensor(g, None), False)
    return True


def _as_recorded(reg: Region, node: TrieNode) -> bool:
    """Whether the region's results still require grad as their ops made them: a custom
    Function turns its forward's result into its own output afterwards, which the capture
    cannot replay."""
    path = None
    for i, ref in reg.ids.values():
        t = ref()
        if t is not None:
            if path is None:
                path = _path(node)
            if t._requires_grad != path[i].meta[2]:
                return False
    return True


def _unreplayable(reg: Region) -> str | None:
    """Why the region cannot run compiled (None: it can)."""
    for t, meta in zip(reg.ext, reg.ext_meta):   # (a non-leaf is never one: ``lazy``)
        if meta[2]:
            acc = RAW["_accumulator"].__get__(t, Tensor)
            acc = acc() if type(acc) is weakref.ref else acc
            if acc is not None and (acc._hooks or acc._post_hooks):
                return "a hook on a leaf"
            if RAW["_grad"].__get__(t, Tensor) is not None and t._grad._requires_grad:
                return "a leaf's .grad is part of a graph"
    return None


def _compiled(reg: Region, node: TrieNode, end: End, root: int, alive: tuple):
    """Compile the region's path for these live results; (runner, None) or (None, why)."""
    if end.failed is not None:
        return None, end.failed
    path = _path(node)
    outs, views = _kept(path, alive)
    if outs is None:
        return None, "a kept view of something other than a tensor"
    for i in outs:
        if path[i].meta[1] not in _DTYPES:
            return None, f"a kept result of dtype {path[i].meta[1].name}"
    try:
        with paused():
            run, grad_slots = COMPILER[0]([n.entry for n in path], list(reg.ext_meta), root,
                                          outs)
        runner = (run, grad_slots, outs, tuple((i, path[i].entry) for i in views))
    except Exception as e:   # noqa: BLE001  (a step the compiler cannot take: eager)
        end.failed = f"compiling the step failed ({type(e).__name__}: {e})"
        config.debug(1, "capture: %s", end.failed)
        return None, end.failed
    config.debug(1, "capture: compiled a step of %d ops (%d results kept, %d gradients)",
                 len(path), len(alive), len(runner[1]))
    end.runners[alive] = runner
    STATS["compiled"] += 1
    while len(STATE.compiled) >= SETTINGS["max_compiled"]:
        (key, old) = next(iter(STATE.compiled.items()))
        del STATE.compiled[key]
        old.runners.pop(key[1], None)
    return runner, None


def _kept(path: list, alive: tuple) -> tuple:
    """``(outs, views)``: the results whose values the compiled step returns, and the views
    made from them (or from externals) after it, in order: a kept view must show its base's
    memory, as the eager one does (an update through either reaches the other), so the
    compiled code returns the base it views, through views of views, and the view is made
    of it by NumPy. ``(None, None)``: a view of something else."""
    outs, views = set(), set()
    for i in alive:
        j = i
        while path[j].view:
            views.add(j)
            entry = path[j].entry
            j = entry[1] if entry[0] == "d" else entry[3][0]
            if type(j) is not int:
                return None, None
            if j < 0:      # a view of an external
                break
        else:
            outs.add(j)
    return tuple(sorted(outs)), tuple(sorted(views))


def _views_of(views: tuple, tensors: list, ext: list, record) -> None:
    """Make the kept views of a compiled step of their (now computed) bases, eagerly, their
    links and version counters as the eager ops give them; their graph is made when read,
    as a replayed result's is."""
    with paused(), grad_mode.no_grad():
        for i, entry in views:
            t = tensors[i]
            become(t, run_entry(entry if entry[0] == "d" else entry[:6] + (False,), tensors,
                                ext))
            if t._requires_grad:
                t.__class__ = ReplayedTensor
                RAW["_trace"].__set__(t, record)
