"""Repeated blocks in a kernel list: where they are, and each block's exact signature.

Layer: lower (for ``outline``). Input: a placed program's kernels, in execution order.
Output: ``find_runs``: the runs of at least ``MIN_REPS`` consecutive blocks that do the same
thing on other data, each block with its ``Signature``: its structure with names abstracted,
what a call must pass for it, and its kernels renamed over the parameters (``renamed``).

1. each kernel gets a token: its structure with buffers, offsets and scalar names left out
   (``_token``); only cold kernels (function-scope statements, loops of at most
   ``HOT_ELEMENTS`` elements) get one that can match;
2. candidate periods are the most common distances between equal tokens, each taken often
   enough to make a block of at least ``MIN_BLOCK`` kernels; for each, the longest stretch
   where ``token[i] == token[i + period]`` (NumPy) gives blocks, until none is left;
3. each block of such a stretch gets its exact ``Signature``: the kernels with each buffer
   numbered in order of first use (a pointer parameter: the address its first view starts
   at; the other views are relative to it), each scalar read from outside the block
   numbered likewise (a value parameter), each scalar defined in the block named by its
   position; literals by their exact text (``-0.0 == 0.0`` and ``1 == True`` in Python);
   consecutive blocks with equal signatures form a run. Which defined scalars later code
   reads is not part of the signature: a run's body writes out those of all its blocks.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from ..ir.periods import periods, stretches
from .loopir import (HOT_ELEMENTS, Buffer, ElementStmt, Expr, Literal, LoopKernel, Program,
                     Scalar, ScalarStmt, Stmt, Store, View)

# A block is at least MIN_BLOCK kernels (a shorter period is taken several times over), a run at
# least MIN_REPS blocks. Large blocks make few calls: each costs its row's loads and the
# function's entry (measured per call of an unrolled 400-step RK4's gradient, medians of 7 x 500
# calls against the unrolled build's 43.7/49.5/46.2/43.2 us, in alternating runs: blocks of at
# least 8 kernels 46-49 us, of 128 42.1/42.4/42.1/43.4 us, of 256 no better).
MIN_BLOCK = 128
MIN_REPS = 4
# Periods longer than this are not looked for; the candidates tried per round.
MAX_PERIOD = 1024
CANDIDATES = 24


def find_runs(kernels: list) -> list:
    """[(index of the first kernel, block size, [Signature per block])] of the runs."""
    tokens = _tokens(kernels)
    last_read = _last_reads(kernels)
    runs = []
    candidates = periods(tokens, MIN_BLOCK, MIN_REPS, MAX_PERIOD, CANDIDATES)
    for start, blocks, period in stretches(tokens, candidates, MIN_REPS):
        runs += _runs(kernels, start, blocks, period, last_read)
    return runs


# ------------------------------------------------------------------- step 1: tokens

def _tokens(kernels: list) -> np.ndarray:
    """Per kernel, a number equal for kernels of the same structure (buffers, offsets and
    scalar names left out); a negative number, unique, for a kernel that cannot be outlined."""
    ids: dict = {}
    out = np.empty(len(kernels), np.int64)
    for i, k in enumerate(kernels):
        key = _token(k)
        out[i] = -1 - i if key is None else ids.setdefault(key, len(ids))
    return out


def _token(k):
    kind = type(k)
    if kind is ScalarStmt:
        return ("S", k.expr, tuple(map(_loose, k.args)), k.loc)
    if kind is ElementStmt:
        return ("E", _loose(k.target), _loose(k.value), k.accumulate, k.op, k.loc)
    if kind is LoopKernel and _cold_loop(k):
        return ("L", k.shape, tuple(map(_loose, k.loads)), len(k.body), len(k.stores),
                k.reduce_axes, k.stores[0].loc if k.stores else None)
    return None


def _cold_loop(k: LoopKernel) -> bool:
    """A small loop that cannot fail: an outlined block is a function with no status to
    return (a loop with gathers, like an index kernel, stays in the caller)."""
    return all(type(s) is int for s in k.shape) and math.prod(k.shape) <= HOT_ELEMENTS and \
        not k.gathers


def _loose(a):
    if isinstance(a, View):
        return (a.buffer.dtype, a.shape, a.strides)
    if type(a) is Scalar:
        return a.dtype
    return a if isinstance(a, (str, tuple)) else _literal(a)


def _literal(a):
    """A Literal's key: its exact text (``-0.0 == 0.0`` and ``1 == 1.0 == True`` in Python)."""
    if type(a) is Literal:
        return ("lit", type(a.value).__name__, repr(a.value), a.dtype)
    return ("?", type(a).__name__, repr(a))


# (step 2, the periods: ``ir.periods``)


# ------------------------------------------------------------------- step 3: exact blocks

def _runs(kernels: list, start: int, blocks: int, size: int, last_read: dict) -> list:
    """[(index of the first kernel, size, [Signature per block])] of the runs of at least
    MIN_REPS consecutive blocks with equal signatures among ``blocks`` blocks of ``size``."""
    runs, current = [], []
    for b in range(blocks + 1):
        sig = None
        if b < blocks:
            lo = start + b * size
            sig = Signature(kernels, lo, lo + size, last_read)
        if current and (sig is None or sig.key != current[0].key):
            if len(current) >= MIN_REPS:
                runs.append((start + (b - len(current)) * size, size, current))
            current = []
        if sig is not None:
            current.append(sig)
    return runs


class Signature:
    """One block's structure with its names abstracted (``key``), and what a call of the body
    passes for it: ``pointers`` ((buffer, offset) per pointer parameter), ``inputs`` (the
    Scalars read from outside), ``escaping`` (the positions of the defined scalars read after
    the block; for a run, those of any of its blocks)."""

    def __init__(self, kernels: list, lo: int, hi: int, last_read: dict):
        self.kernels = kernels[lo:hi]
        self.params: dict = {}        # id(buffer) -> parameter number
        self.pointers: list = []      # (buffer, the offset of the first view of it)
        self.base: dict = {}          # id(buffer) -> that offset
        self.inputs: list = []
        self._input_at: dict = {}
        self.defined: dict = {}       # scalar name -> position
        self.names: list = []         # scalar names defined, in order
        self.dtypes: list = []        # ... and their dtypes
        parts = [self._kernel(k) for k in self.kernels]
        self.escaping = tuple(j for j, name in enumerate(self.names)
                              if last_read.get(name, -1) >= hi)
        # per pointer parameter, whether the block may write it (not an input or a constant)
        self.writable = [b.role not in ("input", "const") for b, _ in self.pointers]
        kinds = tuple((b.dtype, w) for (b, _), w in zip(self.pointers, self.writable))
        self.key = (tuple(parts), kinds, tuple(s.dtype for s in self.inputs))

    def outputs(self) -> list:
        """The Scalars later kernels read (``escaping``), in order."""
        return [Scalar(self.names[j], self.dtypes[j]) for j in self.escaping]

    # -- the key
    def _kernel(self, k) -> tuple:
        kind = type(k)
        if kind is ScalarStmt:
            part = ("S", _expr(k.expr), tuple(map(self._arg, k.args)), k.loc)
            self.defined[k.name] = len(self.names)
            self.names.append(k.name)
            self.dtypes.append(k.expr.dtype)
            return part
        if kind is ElementStmt:
            return ("E", self._arg(k.target), self._arg(k.value), k.accumulate, k.op, k.loc)
        return ("L", k.shape, tuple(map(self._arg, k.loads)),
                tuple((s.local, _expr(s.expr), tuple(map(self._arg, s.args)), s.loc)
                      for s in k.body),
                tuple((self._arg(s.value), self._arg(s.out), s.op, s.size, s.reduce,
                       s.accumulate, s.loc) for s in k.stores), k.reduce_axes)

    def _arg(self, a):
        if isinstance(a, View):
            key = id(a.buffer)
            j = self.params.get(key)
            if j is None:      # a new pointer parameter: the address of this view's start
                j = self.params[key] = len(self.pointers)
                self.base[key] = a.offset
                self.pointers.append((a.buffer, a.offset))
            return ("V", j, a.offset - self.base[key], a.layout())
        if type(a) is Scalar:
            j = self.defined.get(a.name)
            if j is not None:
                return ("v", j)
            j = self._input_at.get(a.name)
            if j is None:
                j = self._input_at[a.name] = len(self.inputs)
                self.inputs.append(a)
            return ("a", j, a.dtype)
        return a if isinstance(a, (str, tuple)) else _literal(a)

    # -- the body
    def renamed(self) -> tuple:
        """(kernels, params, writable, inputs, results): the block's kernels over the
        parameters (``p<k>`` buffers, ``a<k>`` and ``v<k>`` scalars), per param whether the
        block may write it (not an input), the ``a<k>``, the ``v<k>`` written out."""
        params = [Buffer("param", j, b.dtype, 0) for j, (b, _) in enumerate(self.pointers)]
        inputs = [Scalar(f"a{j}", s.dtype) for j, s in enumerate(self.inputs)]
        rename = _Renaming(self, params, inputs)
        kernels = [rename.kernel(k) for k in self.kernels]
        results = [Scalar(f"v{j}", s.dtype) for j, s in zip(self.escaping, self.outputs())]
        return kernels, params, self.writable, inputs, results


@dataclass
class _Renaming:
    """A block's kernels with its buffers, offsets and scalars replaced by the parameters'."""

    sig: Signature
    params: list
    inputs: list

    def kernel(self, k):
        kind = type(k)
        if kind is ScalarStmt:
            return ScalarStmt(f"v{self.sig.defined[k.name]}", k.expr,
                              [self.arg(a) for a in k.args], k.loc)
        if kind is ElementStmt:
            return ElementStmt(self.arg(k.target), self.arg(k.value), k.accumulate, k.op,
                               k.loc)
        return LoopKernel(k.shape, [self.arg(v) for v in k.loads],
                          [Stmt(s.local, s.expr, [self.arg(a) for a in s.args], s.loc)
                           for s in k.body],
                          [Store(self.arg(s.value), self.arg(s.out), s.op, s.size, s.reduce,
                                 s.loc, s.accumulate) for s in k.stores], k.reduce_axes)

    def arg(self, a):
        if isinstance(a, View):
            key = id(a.buffer)
            return a.rebased(self.params[self.sig.params[key]], a.offset - self.sig.base[key])
        if type(a) is Scalar:
            j = self.sig.defined.get(a.name)
            if j is not None:
                return Scalar(f"v{j}", a.dtype)
            return self.inputs[self.sig._input_at[a.name]]
        return a


def _expr(e: Expr) -> tuple:
    return (e.op, e.dtype, e.operand, None if e.exponent is None else repr(e.exponent))


# ------------------------------------------------------------------- reads

def _last_reads(kernels: list) -> dict:
    """Scalar name -> the index of the last kernel that reads it."""
    last: dict = {}
    for i, k in enumerate(kernels):
        for name in scalars_read(k):
            last[name] = i
    return last


def scalars_read(k) -> list:
    kind = type(k)
    if kind is ScalarStmt:
        return [a.name for a in k.args if type(a) is Scalar]
    if kind is ElementStmt:
        return [k.value.name] if type(k.value) is Scalar else []
    if kind is LoopKernel:
        return [s.name for s in k.scalars()]
    if kind.family in ("rows", "strips"):      # (loops run together: their loops' scalars)
        return [n for inner in k.kernels for n in scalars_read(inner)]
    return [s.name for s in _found_scalars(k, 0)]


def _found_scalars(value, depth: int) -> list:
    """Every Scalar in a kernel of another family (its fields, lists and tuples: kernels are
    records, ``loopir``), not inside the programs of its bodies (their scalars are their own
    functions' locals)."""
    if type(value) is Scalar:
        return [value]
    if depth > 4:
        return []
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _found_scalars(v, depth + 1)]
    if dataclasses.is_dataclass(value) and not isinstance(value, (type, Program)):
        return _found_scalars([getattr(value, f.name) for f in dataclasses.fields(value)],
                              depth + 1)
    return []
