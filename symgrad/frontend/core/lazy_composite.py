"""Capture of whole composites (a pure composite's body skipped on a captured step's path),
of the nodes of ops of several outputs, and of ``detach()``.

Layer: front end, beside ``lazy`` (the recorder), below the functions that make composites
(``functions.basic.composite`` calls ``composed`` for a composite it marks pure). Input: a
composite about to run its body (log_softmax, a loss, a normalization: 5 to 20 ops of
Python). Output: its result, as ``composite`` makes it; on an armed path, a pending tensor
made without running the body's Python at all.

How: a composite is keyed as an op is (``lazy.applied``): its backward name and flags, its
inputs as operands, and its body and rule as *function specs* (code and closure values, as
``lazy_ops`` keys a rule). When the body runs on a step being recorded, its ops are recorded
one by one as usual; if it added no external tensor (no factory, no random draw: every
operand was the composite's inputs, its closure's tensors or the body's own results) and its
result is the last op's, the trie node where it started gets a *jump*: this key leads to
that last op's node. On an armed path, a composite whose key has a jump returns that node's
pending result at once; the body's ops stay on the path (the compiled step computes them;
a fallback applies them eagerly), their pending results are never made (nothing of the
program can hold them: a body's intermediates are its own).

Why only composites marked pure: skipping a body skips its Python, so it must do nothing
but apply ops whose operands and attributes follow from its key: read no tensor's values
(an ``item()`` deciding an attribute would be a stale constant), draw no random numbers,
change nothing outside. A body reading an external's values could not be told from one
that does not, so the composite's author says so (``composite(..., pure=True)``).
"""

from __future__ import annotations

from ... import dtypes
from . import grad_mode, sources
from .lazy import (_MAIN, STATE, STATS, WATCH, TrieNode, _external, _get_ident, _next,
                   _noted, _open, _operand, _requiring, close, external_meta, keyed,
                   leave, local_index, paused)
from .lazy_ops import ATTACH_OUTPUTS, Uncapturable, function_spec
from .pending import pending
from .tensor import Tensor

_GRAD = grad_mode._local
_RECORDING = sources._local


def composed(run, torch_name: str, body, inputs, rule, flags: tuple):
    """The composite ``run()`` makes (``flags``: its saves, uses_out, holomorphic, shown),
    skipped on an armed path that has a jump for it."""
    reg = STATE.region
    if _get_ident() != _MAIN or _RECORDING.recording is not None:
        return run()
    if reg is None:   # (a region starts here if the composite records a node: ``applied``)
        if not (_GRAD.enabled and _requiring(inputs)):
            return run()
        reg = _open()
    if reg.counting:
        return run()
    new: list = []   # the tensors the key names that are not the region's yet
    try:
        operand = _Operands(reg, new)
        key = ("C", torch_name, flags, tuple([operand(t) for t in inputs]),
               function_spec(operand, body),
               None if rule is None else function_spec(operand, rule),
               _GRAD.enabled, dtypes.DEFAULT_FLOAT, tuple([external_meta(t) for t in new]))
    except (Uncapturable, TypeError) as e:
        close(f"{torch_name}: {e}")
        return run()
    start = reg.cursor
    jump = start.jumps.get(key) if start.jumps is not None else None
    if jump is not None and reg.lazy and _armed(jump[0], start):
        return _skip(reg, start, jump, new)
    n_ext = len(reg.ext)
    out = run()
    if jump is None and STATE.region is reg:
        _note_jump(reg, start, key, out, new, n_ext)
    return out


class _Operands:
    """A composite's tensors as its key names them: a region's result by number, an
    external by slot, a tensor new to the region by ``("new", k)``, its metadata in the key
    (a body registers its externals in its own order: the jump notes it)."""

    __slots__ = ("reg", "new")

    def __init__(self, reg, new: list):
        self.reg, self.new = reg, new

    def __call__(self, t):
        if not isinstance(t, Tensor):
            return _operand(self.reg, t)
        index = local_index(self.reg, t)
        if index is not None:
            return index
        slot = self.reg.ext_ids.get(id(t))
        if slot is not None:
            return -1 - slot
        for k, u in enumerate(self.new):
            if u is t:
                return ("new", k)
        self.new.append(t)
        return ("new", len(self.new) - 1)


def _skip(reg, start: TrieNode, jump: tuple, new: list):
    """The skipped composite's pending result: the body's externals made the region's in its
    order, its ops' results never made."""
    end, order = jump
    for k in order:
        _external(reg, new[k])
    t = pending(end.meta, end.index, end.view)
    reg.tensors.extend([None] * (end.index - start.index - 1))
    reg.tensors.append(t)
    reg.cursor = end
    STATS["skipped"] += 1
    return t


def _note_jump(reg, start: TrieNode, key: tuple, out, new: list, n_ext: int) -> None:
    """Give ``start`` a jump for ``key`` to the node of ``out``, the body's last op, if the
    body's externals were all tensors the key names."""
    end = reg.cursor
    # (a view would be kept as its base, a body's op: its tensor is never made)
    if end is start or end.view or local_index(reg, out) != end.index:
        return
    order = []
    for t in reg.ext[n_ext:]:
        k = next((k for k, u in enumerate(new) if u is t), None)
        if k is None:   # a tensor the body made, or found elsewhere: run it every time
            return
        order.append(k)
    if start.jumps is None:
        start.jumps = {}
    start.jumps[key] = (end, tuple(order))


def _armed(node: TrieNode, start: TrieNode) -> bool:
    """Whether the ops from ``start`` to ``node`` are all on an armed path (an op whose
    result its key did not decide is disarmed alone)."""
    while node is not start:
        if not node.armed:
            return False
        node = node.parent
    return True


# ---------------------------------------------------------------- ops of several outputs

def multi_attached(torch_name: str, rule, inputs, saves: bool, outs: list,
                   multi_views: bool) -> bool:
    """The node of an op of several outputs (split, unbind, chunk: ``named_outputs``) while
    capture is on: recorded as an ``"m"`` entry of the region, and on an armed path only
    marked on the pending outputs (their ``requires_grad`` and multi-view mark, what the
    node changes of them). False: not recorded, the caller attaches the node."""
    reg = STATE.region
    if reg is None or reg.counting or _get_ident() != _MAIN or \
            _RECORDING.recording is not None:
        return False
    def entry():
        specs = tuple([_operand(reg, o) for o in outs])
        if any(type(s) is not int or s < 0 for s in specs):
            raise Uncapturable("an output that is not the step's")
        return ("m", torch_name, saves, multi_views, specs,
                tuple([_operand(reg, t) for t in inputs]),
                function_spec(lambda t: _operand(reg, t), rule))
    found = keyed(reg, torch_name, entry)
    if found is None:
        return False
    entry, key, child = found
    if reg.lazy:
        if child is not None and child.armed:
            reg.tensors.append(None)
            reg.cursor = child
            for o in outs:
                if o.dtype.is_differentiable:
                    o._requires_grad = True
                    if multi_views:
                        o._creation = "multi"
            return True
        leave(reg, f"{torch_name} is not on the captured path")
    with paused():
        ATTACH_OUTPUTS[0](torch_name, rule, list(inputs), saves, outs, multi_views)
    if STATE.region is reg and not reg.counting:
        if child is None:
            child = reg.cursor.children[key] = TrieNode(reg.cursor, entry, None)
            STATE.nodes += 1
        reg.cursor = child
    return True


# ---------------------------------------------------------------- detach()

def detached(t: Tensor) -> Tensor:
    """``t.detach()`` in an open region (``methods._detach`` calls this)."""
    reg = STATE.region
    if _get_ident() != _MAIN or _RECORDING.recording is not None:
        return _detach(t)
    if not reg.lazy:
        reg.fp = hash((reg.fp, "detach"))
        reg.ops += 1
        if reg.counting:
            return _detach(t)
    found = keyed(reg, "detach", lambda: ("d", _operand(reg, t)))
    if found is None:
        return _detach(t)
    entry, key, child = found
    out = _next(reg, child, "detach")
    if out is not None:
        return out
    return _noted(reg, key, child, _detach(t), lambda: entry)


def _detach(t: Tensor) -> Tensor:
    WATCH[0] = False
    try:
        return t.detach()
    finally:
        WATCH[0] = True
