"""Fusion planning: which graph nodes share a loop, and in what order the kernels run.

Layer: lower. Input: a graph's nodes in topological order, their consumers, and its outputs.
Output: the slots of the kernel sequence (a loop group, or one node's own kernel), the group of
every loop node, and the loop nodes whose values must be stored to memory. Only decisions:
lowering.py turns the plan into buffers, views and kernels. It must not know about memory or C.
"""

from __future__ import annotations

import itertools
import math

from ..ir import Node
from ..ops import get
from ..ops.registry import ELEMENTWISE, REDUCE

# Nodes are visited from the outputs backwards (reverse topological order), so every node's
# consumers are placed before the node is. Each kernel has a position (new ones go before all
# existing ones); an edge u -> v needs pos(u) < pos(v), or u and v in the same loop group with
# v reading u directly as a local. A loop node (elementwise of rank >= 1, or a reduction over
# its input's shape: the group's "space") joins the group of the consumers that read it as a
# local, or, failing that, any group over the same space early enough for all its consumers
# ("horizontal" fusion: siblings that share loads run in one pass); else it opens a group.
# Groups are convex by construction: a group's inputs all come from earlier positions. A node
# is stored to memory only if something outside its group (or the caller) reads it. A gather
# is a loop node too (over its index's shape): its index is an operand like any other (an
# index in memory is checked by a kernel before the loop, ``lower.index.IndexCheck``; one the
# loop computes, in the loop), its source is read where the index points, so it is in memory
# before the loop.

MAX_GROUP = 256          # nodes per loop: past this, register pressure beats fusion
HORIZONTAL_SEARCH = 4    # same-space groups looked at for horizontal fusion

# A node that loops other than its own read as it is is computed again in each of them,
# rather than stored by its loop and loaded by theirs, when it is one of these operations on
# values in memory anyway (inputs, constants, views, stored values) and each of those loops
# runs over its shape: a store and a load stream saved for an operation
# per element. The RK4 stages of GradBench's ode (k = x * cat([1, s[:-1]]), read by the next
# stage's loop and by the step's sum): a C harness of its four loops in strips, 100 -> 97 us
# per 10 steps at n = 10,000 and 1.98 -> 1.23 ms at n = 100,000 (fewer arrays written back
# to memory).
RECOMPUTED = frozenset(("add", "sub", "mul", "neg"))


class Group:
    __slots__ = ("axes", "members", "pos", "space")

    def __init__(self, pos: int, space: tuple):
        self.pos = pos
        self.space = space
        self.axes = None          # the reduced axes, once a reduction joined
        self.members: list = []


_OUTPUT = object()               # the caller, as a consumer


def is_view_op(node: Node) -> bool:
    """Ops lowered to views (no kernel of their own, made on first use)."""
    return get(node.op).view


def _loop_space(node: Node):
    kind = get(node.op).kind
    if kind == ELEMENTWISE or node.op == "gather":
        return node.shape if node.shape else None
    if kind == REDUCE:
        return node.inputs[0].shape
    return None


def _view_op_names(nodes: list) -> set:
    """The names of the ops among ``nodes`` that ``is_view_op`` holds for (asked once per op
    rather than once per node)."""
    return {op for op in {n.op for n in nodes} if get(op).view}


def _effective_consumers(nodes: list, users: dict, outputs: set) -> dict:
    """node -> [(consumer, reads_directly)], looking through views (movement ops): a consumer
    behind a view needs the node in memory; one that reads it directly may take a local."""
    eff: dict = {}
    views = _view_op_names(nodes)
    no_users = ()
    for n in reversed(nodes):
        if n.op in ("input", "const"):
            continue
        out = [(_OUTPUT, False)] if n in outputs else []
        readers = users.get(n, no_users)
        for c in (dict.fromkeys(readers) if len(readers) > 1 else readers):
            if c.op in views:
                out.extend((cc, False) for cc, _ in eff.get(c, ()))
            else:
                out.append((c, not _indexed_by(c, n)))
        eff[n] = out
    return eff


def _indexed_by(c: Node, n: Node) -> bool:
    """Whether ``c`` reads ``n`` at other positions than its own (a gather's source, read
    where the index points): ``n`` must be in memory before ``c``'s loop."""
    return c.op == "gather" and c.inputs[0] is n


def plan_fusion(nodes: list, users: dict, outputs: set, own: set = frozenset()):
    """Assign every kernel-producing node a slot. Returns (slots in execution order, the
    group of each loop node, the set of loop nodes that must be stored, the set of those
    that the loops reading them compute again instead, ``RECOMPUTED``). Nodes in ``own``
    (accumulation steps) get slots of their own, never a loop group's."""
    eff = _effective_consumers(nodes, users, outputs)
    views = _view_op_names(nodes)
    pos: dict = {}               # node -> its kernel's position
    group_of: dict = {}
    by_space: dict = {}
    slots: list = []             # (position, kind, payload)
    next_pos = 0
    for n in reversed(nodes):
        if n.op in ("input", "const") or n.op in views:
            continue
        kind = get(n.op).kind
        space = None if n in own else _loop_space(n)
        if space is None:        # its own kernel (or a function-scope scalar statement)
            next_pos -= 1
            pos[n] = next_pos
            slots.append((next_pos, "node", n))
            continue
        axes = n.attr("axes") if kind == REDUCE else None
        limit, local = math.inf, {}
        for c, direct in eff[n]:
            if c is _OUTPUT:
                continue
            g = group_of.get(c)
            if direct and kind != REDUCE and g is not None and g.space == space:
                local.setdefault(g, []).append(c)
            else:
                limit = min(limit, pos[c])
        # the group of most direct readers first, then recent same-space groups
        candidates = (sorted(local, key=lambda g: (-len(local[g]), -g.pos)) if len(local) > 1
                      else list(local)) + \
            list(reversed(by_space.get(space, [])[-HORIZONTAL_SEARCH:]))
        best = next((g for g in candidates if _fits(g, axes, limit, local)), None)
        if best is None:
            next_pos -= 1
            best = Group(next_pos, space)
            by_space.setdefault(space, []).append(best)
            slots.append((next_pos, "group", best))
        if axes is not None:
            best.axes = axes
        best.members.append(n)
        group_of[n] = best
        pos[n] = best.pos
    _merge_groups(slots, by_space, group_of, eff, pos)
    stored = set()
    for n, g in group_of.items():
        local = get(n.op).kind != REDUCE      # (asked once per node, not per reader)
        for c, direct in eff[n]:
            if not (direct and local and group_of.get(c) is g):
                stored.add(n)
                break
    recomputed = _recomputed(stored, group_of, eff)
    slots.sort(key=lambda s: s[0])
    return [(k, p) for _, k, p in slots], group_of, stored - recomputed, recomputed


def _recomputed(stored: set, group_of: dict, eff: dict) -> set:
    """The stored nodes that the loops reading them compute again instead (``RECOMPUTED``):
    each input is in memory (no loop's local: a stored one not computed again, or not a
    loop node at all)."""
    found = set()
    for n in stored:
        if n.op not in RECOMPUTED or any(i in group_of and i not in stored for i in n.inputs):
            continue
        shape = tuple(n.shape)
        if all(c is not _OUTPUT and direct and c in group_of and group_of[c].space == shape
               for c, direct in eff[n]):
            found.add(n)
    # (an input computed again too would be computed again for it: chains grow the loops)
    return {n for n in found if not any(i in found for i in n.inputs)}


def _fits(g: Group, axes, limit: float, local: dict) -> bool:
    """Whether a node may join ``g``: room left, compatible reduced axes, and ``g`` runs before
    every reader of the node that is not a direct local of ``g``."""
    if len(g.members) >= MAX_GROUP or (axes is not None and g.axes not in (None, axes)):
        return False
    return g.pos < min([limit] + [h.pos for h in local if h is not g])


def _merge_groups(slots: list, by_space: dict, group_of: dict, eff: dict, pos: dict) -> None:
    """Greedy placement can leave two groups over one space that could have been one loop
    (a forward group and a backward group, say). Move the earlier into the later when every
    reader of its results outside it comes after the later one, or reads them directly
    inside it; repeat while anything merges."""
    changed = True
    while changed:
        changed = False
        for groups in by_space.values():
            groups.sort(key=lambda g: g.pos)
            for a, b in itertools.pairwise(groups):
                if not (a.members and b.members):
                    continue
                if _can_move(a, b, group_of, eff, pos):
                    src, dst = a, b
                elif _can_move_back(b, a, group_of, pos):
                    src, dst = b, a
                else:
                    continue
                for m in src.members:
                    group_of[m] = dst
                    pos[m] = dst.pos
                dst.members.extend(src.members)
                if src.axes is not None:
                    dst.axes = src.axes
                src.members = []
                changed = True
            groups[:] = [g for g in groups if g.members]
    slots[:] = [s for s in slots if s[1] != "group" or s[2].members]


def _can_move(a: Group, b: Group, group_of: dict, eff: dict, pos: dict) -> bool:
    if len(a.members) + len(b.members) > MAX_GROUP:
        return False
    if a.axes is not None and b.axes is not None and a.axes != b.axes:
        return False
    for m in a.members:
        reduce = get(m.op).kind == REDUCE
        for c, direct in eff[m]:
            if c is _OUTPUT:
                continue
            g = group_of.get(c)
            if g is a:
                continue
            if g is b:
                if not direct or reduce:
                    return False
            elif pos[c] <= b.pos:
                return False
    return True


def _can_move_back(b: Group, a: Group, group_of: dict, pos: dict) -> bool:
    """Whether ``b``'s members can all run in the earlier ``a``: everything they read is
    computed before ``a``, or inside ``a`` (read directly, not a reduction), or in ``b``."""
    if len(a.members) + len(b.members) > MAX_GROUP:
        return False
    if a.axes is not None and b.axes is not None and a.axes != b.axes:
        return False
    for m in b.members:
        for i in m.inputs:
            direct = not _indexed_by(m, i)
            while is_view_op(i):
                i, direct = i.inputs[0], False
            if i.op in ("input", "const"):
                continue
            g = group_of.get(i)
            if g is b:
                continue
            if g is a:
                if not direct or get(i.op).kind == REDUCE:
                    return False
            elif pos[i] >= a.pos:
                return False
    return True
