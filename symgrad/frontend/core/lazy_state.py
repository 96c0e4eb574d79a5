"""The state of eager capture: the trie of recorded steps, their ends, the open region.

Layer: front end, below the recorder (``lazy``), which owns the only ``STATE``; the step's
backward (``lazy_backward``) and the composites' capture (``lazy_composite``) read it through
it. Plain data: what each object holds is said where it is made.
"""

from __future__ import annotations

from ...ops import OPS
from ...ops.registry import MOVEMENT


class TrieNode:
    """One op of a region's structure: its entry (how to apply it again), its result's
    metadata, the ops that followed it, and the backward()s that ended regions here."""

    __slots__ = ("children", "entry", "meta", "parent", "index", "ends", "armed", "view",
                 "jumps", "falls", "blocked")

    def __init__(self, parent, entry, meta):
        self.children: dict = {}
        self.entry, self.meta, self.parent = entry, meta, parent
        # whether its result shows another tensor's data (a movement op, detach)
        self.view = entry is not None and (entry[0] == "d" or entry[0] == "a"
                                           and OPS[entry[1]].kind == MOVEMENT)
        self.index = -1 if parent is None else parent.index + 1
        self.ends = None
        self.armed = False
        self.jumps: dict | None = None   # composites skipped from here (``lazy_composite``)
        # pending regions that fell back here in a row, with nothing replayed between them
        # (a value read, an update in place): (how many, STATS["replayed"] at the last);
        # ``blocked``: a path through here is never armed again (``lazy._fell_back``)
        self.falls: tuple = (0, -1)
        self.blocked = False


class End:
    """A backward() that ended regions at one trie node: its visits, their eager time, and
    its compiled code per set of results still referenced."""

    __slots__ = ("count", "runners", "failed")

    def __init__(self):
        self.count, self.runners, self.failed = 0, {}, None


class Region:
    """The open region: where its path is in the trie (``cursor``), whether its ops are
    pending, recorded or only counted (``lazy._open``), its results and its external
    tensors."""

    __slots__ = ("cursor", "lazy", "tensors", "ids", "ext", "ext_ids", "arrays", "ext_meta",
                 "counting", "hot", "fp", "ops", "checks")

    def __init__(self, root: TrieNode, lazy: bool, counting: bool, hot: bool):
        self.cursor, self.lazy = root, lazy
        self.counting = counting    # only counted, not recorded (``lazy._open``)
        self.hot = hot              # recorded because a structure reached ``min_ops`` ops
        self.fp, self.ops = 0, 0    # a fingerprint of its ops' names, and how many
        self.tensors: list = []     # the pending tensors (lazy), in order
        self.ids: dict = {}         # id -> (number, weak reference) of eager results
        self.ext: list = []         # the external tensors, in order of first use
        self.ext_ids: dict = {}
        self.arrays: list = []      # their values when first used (copied if shared)
        self.ext_meta: list = []    # their metadata (part of the keys)
        self.checks: list | None = None   # (pending bool, error) left to it (``lazy.check``)


class _State:
    root = TrieNode(None, None, None)
    nodes = 0
    region: Region | None = None
    compiled: dict = {}   # (End, alive) -> None, in use order (the LRU)
    seen: dict = {}       # a region's fingerprint -> the ops its regions applied in all
    grants: dict = {}     # a fingerprint -> how many times its recorded regions armed nothing
    granted = None        # the fingerprint whose count asked for the regions recorded now
    budget = 0            # how many regions to record before only counting again
    armed = False         # whether a path is armed (then every region is recorded)


STATE = _State()
# What happened so far (tests and ``SYMGRAD_DEBUG`` read them): steps run compiled, steps
# compiled, regions that fell back to eager, composite bodies skipped (``lazy_composite``),
# regions recorded because a structure's count asked for them (``lazy._open``).
STATS = {"replayed": 0, "compiled": 0, "fallbacks": 0, "skipped": 0, "recorded": 0}
