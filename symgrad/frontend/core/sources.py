"""Which line of the user's code made each traced value: the recording of one trace.

Layer: front end (its bottom: imports only ``ir.Loc``). Input: nodes as the front end creates
them while a function is traced. Output: ``Recording.locs``, the side table node -> ``Loc``
that becomes the graph's ``locs`` (and the C's comments). ``tracing.py`` opens a recording
around the user's function (``recording``); ``apply`` records every node it makes (``record``:
the innermost stack frame outside this package, the first one wins); the autograd engine
attributes what a VJP rule builds to the forward op's line, noted ``(backward of ...)``
(``attributed_to``).

Why a thread-local context rather than an argument: the nodes are made by Python operators on
tensors (``g * x`` inside a rule, ``a + b`` in the user's code), which take no extra argument;
the recording is the trace's, and is active exactly while the trace runs (JAX keeps its source
info the same way). Nothing else is kept here.
"""

from __future__ import annotations

import linecache
import os
import sys
import threading
from contextlib import contextmanager
from collections.abc import Iterator

from ...config import PACKAGE_DIR
from ...ir.graph import Loc
from ...ir.provenance import Values



class Recording:
    """The side table of one trace: node -> Loc, and the Loc that new nodes are attributed to
    while a backward rule runs (None: the user's own line)."""

    __slots__ = ("locs", "attribution", "interned", "body", "guards", "root", "captures",
                 "consts", "notes", "values", "applied", "repeats")

    def __init__(self) -> None:
        self.locs: dict = {}
        self.attribution: Loc | None = None
        # One Loc per distinct (code, line) or (loc, note): a loop's line makes one object,
        # not one per node (a large trace has 10^5 nodes from a few dozen lines).
        self.interned: dict = {}
        # While a control-flow body is traced: its scope (``frontend.bodies.BodyScope``),
        # which lifts the tensors from outside the body that its ops read into body inputs.
        self.body = None
        # A trace that knows its arguments' values: ``frontend.guards.GuardState``, which
        # decides Python control flow on traced values (None: such uses are errors).
        self.guards = None
        # The recording of the enclosing trace, for a body's (None: this one is a trace's):
        # what tells a tensor made during this trace from one made before it (``_trace``).
        self.root = None
        # A compile trace's captured state (``frontend.capture.Captures``; None otherwise).
        self.captures = None
        # id(eager tensor) -> (tensor, version, storage, its constant node), made once per
        # value and trace (``Tensor.node``).
        self.consts: dict = {}
        # (id(loc), backward function class) -> (loc, the interned Loc of its backward's
        # nodes): ``noted``'s fast path, which hashes no Loc (a dataclass's __hash__ is Python).
        self.notes: dict = {}
        # Equal values of data movement, one node each (``ir.provenance.Values``).
        self.values = Values()
        # (op, attributes' key, operand nodes) -> the node their application made in this
        # trace, outside bodies (``apply``: a recomputed value is a lookup).
        self.applied: dict = {}
        self.repeats = 0   # how many applications were found there (``rolling.rolled``)

    def child(self, body) -> Recording:
        """The recording of a body traced inside this trace: the same side tables, its own
        identity (tensors made in the body are the body's) and scope."""
        rec = Recording()
        rec.locs, rec.interned, rec.attribution, rec.body = \
            self.locs, self.interned, self.attribution, body
        rec.root, rec.captures = self.root or self, self.captures   # (not guards: _guards_of)
        rec.consts, rec.notes, rec.values = self.consts, self.notes, self.values
        return rec


# How many compile traces run in this process, in any thread (``frontend.core.capture``): while it
# is 0, the front end's hooks for captured state cost one test.
CAPTURING = [0]


class _Local(threading.local):
    recording: Recording | None = None


_local = _Local()


def current() -> Recording | None:
    """The recording of the trace running in this thread (None: eager)."""
    return _local.recording


@contextmanager
def recording(rec: Recording) -> Iterator[Recording]:
    """Make ``rec`` this thread's active recording for the block."""
    prev, _local.recording = _local.recording, rec
    try:
        yield rec
    finally:
        _local.recording = prev


class attributed_to:
    """Inside the block, nodes made in the active trace are attributed to ``loc`` (the line
    of the op whose backward rule runs), with ``note`` (None: ``loc``'s own, for a graph
    replayed); no-op when eager or without a loc. (A class, not a generator: the engine
    enters it once per backward function.)"""

    __slots__ = ("loc", "note", "rec", "prev")

    def __init__(self, loc: Loc | None, note: str | None) -> None:
        self.loc, self.note = loc, note

    def __enter__(self) -> None:
        rec = self.rec = _local.recording
        if rec is not None and self.loc is not None:
            note = self.loc.note if self.note is None else self.note
            self.prev, rec.attribution = rec.attribution, _with_note(rec, self.loc, note)

    def __exit__(self, *exc) -> bool:
        if self.rec is not None and self.loc is not None:
            self.rec.attribution = self.prev
        return False


def noted(rec: Recording, loc: Loc, fn) -> Loc:
    """The Loc the nodes built by backward function ``fn``'s rule get in ``rec``: ``loc``
    (the forward op's line) noted ``(backward of <fn's class name>)``, interned as
    ``attributed_to`` interns it. What the autograd engine sets once per function."""
    key = (id(loc), type(fn))
    found = rec.notes.get(key)
    if found is not None and found[0] is loc:
        return found[1]
    # (the note names the class: the same for all its functions)
    result = _with_note(rec, loc, f"(backward of {fn.name()})")
    rec.notes[key] = (loc, result)    # (holding loc: its id stays its own)
    return result


def _with_note(rec: Recording, loc: Loc, note: str) -> Loc:
    """``loc`` with ``note``, interned in ``rec`` (one Loc object per line and note)."""
    key = (loc, note)
    found = rec.interned.get(key)
    if found is None:
        found = rec.interned[key] = Loc(loc.file, loc.line, loc.text, note)
    return found


def user_stacklevel() -> int:
    """The ``stacklevel`` that points a warning issued by its caller at the first frame
    outside symgrad (the user's line)."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_code.co_filename.startswith(PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    return level


def user_loc(interned: dict | None = None) -> Loc | None:
    """The innermost stack frame outside the symgrad package (the user's line); with
    ``interned`` (a recording's table), one Loc object per code object and line."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(PACKAGE_DIR):
        frame = frame.f_back
    if frame is None:
        return None
    key = (frame.f_code, frame.f_lineno)
    loc = interned.get(key) if interned is not None else None
    if loc is None:
        path = frame.f_code.co_filename
        text = linecache.getline(path, frame.f_lineno).strip()
        loc = Loc(os.path.basename(path), frame.f_lineno, text)
        if interned is not None:
            interned[key] = loc
    return loc


def record(node) -> Loc | None:
    """Give ``node`` a source location in the active recording (the first one wins)."""
    rec = _local.recording
    if rec is None:
        return None
    loc = rec.attribution or rec.locs.get(node) or user_loc(rec.interned)
    rec.locs.setdefault(node, loc)
    return loc
