"""``out=``: the checks of caller-provided output arrays, generated and general.

Layer: runtime. The C gets one contiguous buffer per input and output and declares them
``restrict``: ``call_into`` refuses outputs that are not writeable, aligned, C-contiguous arrays
of exactly the output's shape and dtype, and outputs that overlap each other or an input.
Buffers passed to C as they are compare as address ranges [p, p + n) of their memory (exact,
~0.05 us a pair); an input that is copied first is compared, as the caller's array, with
``np.shares_memory`` before the copy. ``OutChecks`` gives the generated call path its lines and
the functions that raise, naming the leaf (``out[1][0]``) and what was expected.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count

import numpy as np

from ..pytree import TreeDef, flatten, unflatten

# Up to this many (output, output) and (input, output) pairs, call_into compares buffers pair
# by pair in generated code (~0.05 us a pair); above it, one call sorts their byte ranges.
MAX_PAIRWISE_OVERLAP_CHECKS = 64

try:
    _TooHardError = np.exceptions.TooHardError
except AttributeError:  # NumPy < 1.25
    _TooHardError = np.TooHardError


class OutChecks:
    """The out= checks of one signature (``art``: a ``runtime.Artifact``): its name for
    messages, the inputs' specs and (NumPy dtype, bytes) pairs, the outputs' (NumPy dtype,
    shape, bytes), the result structure, the module (``codegen.backend.Module``: buffer
    addresses), and ``convert(i, value, dtype)``, the call path's
    conversion of input ``i``."""

    def __init__(self, art, module, convert) -> None:
        self.name = art.name
        self.in_specs = in_specs = art.in_specs
        self.in_shapes = [s.shape for s in in_specs]
        # (NumPy dtype, bytes) per input; (NumPy dtype, shape, bytes) per output
        self.in_dtypes = [(s.dtype.np, s.dtype.np.itemsize * int(np.prod(s.shape)))
                          for s in in_specs]
        self.out_specs = [(dt, shape, np.dtype(dt).itemsize * int(np.prod(shape)))
                          for dt, shape, _ in art.out_specs]
        self.out_tree = out_tree = art.out_tree
        self.address = module.address
        self.convert = convert
        self.paths = leaf_paths(out_tree)

    def sizes(self) -> tuple[list[int], list[int]]:
        return ([int(np.prod(s)) for s in self.in_shapes],
                [int(np.prod(shape)) for _, shape, _ in self.out_specs])

    def checked_inputs(self, flat: bool) -> list[int]:
        """Inputs that may hold array memory: not a Python-number input (always a fresh copy),
        unless called through ``run``, which has no signature lookup to vouch for that."""
        return [i for i, s in enumerate(self.in_specs) if flat or s.python is None]

    def many_pairs(self, flat: bool) -> bool:
        n_in, n_out = self.sizes()
        k_out = sum(1 for n in n_out if n)
        k_in = sum(1 for i in self.checked_inputs(flat) if n_in[i])
        return k_out * (k_out - 1) // 2 + k_in * k_out > MAX_PAIRWISE_OVERLAP_CHECKS

    def out_check_lines(self, flat: bool) -> list[str]:
        """Generated lines binding ``o0..`` to the leaves of the caller's ``out``, checking each
        one, making its pointer ``q{j}`` and checking that no two outputs overlap."""
        n_out = len(self.out_specs)
        outs = [f"o{j}" for j in range(n_out)]
        flat_target = "".join(f"{o}, " for o in outs)
        if flat:
            cond, target = "type(out) is list or type(out) is tuple", flat_target or "_"
            if not n_out:
                cond = f"({cond}) and len(out) == 0"
        else:
            cond, target = unpacker(self.out_tree)
        walk = f"{flat_target}= out_leaves(out)" if n_out else "out_leaves(out)"
        if cond is None:                       # dicts, namedtuples: the general walk
            lines = [walk]
        elif not cond:                         # a single array
            lines = [f"{target} = out"]
        else:  # unpacking checks the lengths; then the container types
            lines = ["try:", f"    {target} = out", "except (TypeError, ValueError):",
                     f"    {walk}", f"if not ({cond}):", f"    {walk}"]
        for j in range(n_out):
            lines += [(f"if not (type(o{j}) is ndarray and ((d := o{j}.dtype) is odt{j} or "
                       f"d == odt{j}) and o{j}.shape == oshape{j} and o{j}.flags.carray):"),
                      f"    check_out({j}, o{j})",
                      f"q{j} = address(o{j})"]
        if self.many_pairs(flat):
            return lines
        _, sizes = self.sizes()
        live = [j for j in range(n_out) if sizes[j]]
        lines += [f"e{j} = q{j} + {self.out_specs[j][2]}" for j in live]
        for x, j in enumerate(live):
            for k in live[x + 1:]:
                lines += [f"if q{j} < e{k} and q{k} < e{j}:", f"    out_overlap({j}, {k})"]
        return lines

    def in_overlap_lines(self, flat: bool) -> list[str]:
        """Generated lines checking the input pointers ``p{i}`` against the outputs'."""
        n_in = len(self.in_dtypes)
        n_out = len(self.out_specs)
        if self.many_pairs(flat):
            ins = "".join(f"p{i}, " for i in range(n_in))
            outs = "".join(f"q{j}, " for j in range(n_out))
            return [f"check_overlaps(({ins}), ({outs}))"]
        in_sizes, sizes = self.sizes()
        live = [j for j in range(n_out) if sizes[j]]
        lines = []
        for i in self.checked_inputs(flat):
            if not in_sizes[i] or not live:
                continue
            lines += [f"r{i} = address(p{i})", f"f{i} = r{i} + {self.in_dtypes[i][1]}"]
            for j in live:
                lines += [f"if r{i} < e{j} and q{j} < f{i}:", f"    in_overlap({i}, {j})"]
        return lines

    def check_overlaps(self, paths: list, in_ptrs: tuple, out_ptrs: tuple) -> None:
        """Many buffers: sort the byte ranges, report the first overlap with an output."""
        address = self.address
        in_sizes, out_sizes = self.sizes()
        spans = []
        for j, (q, n) in enumerate(zip(out_ptrs, out_sizes)):
            if n:
                lo = q     # (an address already)
                spans.append((lo, lo + n * self.out_specs[j][0].itemsize, -1 - j))
        for i, (p, n) in enumerate(zip(in_ptrs, in_sizes)):
            if n:
                lo = address(p)
                spans.append((lo, lo + n * self.in_dtypes[i][0].itemsize, i))
        spans.sort()
        active: list = []
        for lo, hi, who in spans:
            active = [s for s in active if s[1] > lo]
            for _, _, other in active:
                if who < 0 and other < 0:
                    self.out_overlap(paths, *sorted((-1 - who, -1 - other)))
                elif who < 0 or other < 0:
                    i, j = (other, -1 - who) if who < 0 else (who, -1 - other)
                    self.in_overlap(paths, i, j)
            active.append((lo, hi, who))

    def convert_into(self, paths: list, i: int, value, dt, outs: tuple) -> np.ndarray:
        """``_convert`` for call_into: the caller's array must not overlap an output either."""
        if isinstance(value, np.ndarray):
            _, sizes = self.sizes()
            for j, o in enumerate(outs):
                if sizes[j] and np.may_share_memory(value, o) and _shares_memory(value, o):
                    self.in_overlap(paths, i, j, value)
        return self.convert(i, value, dt)

    def out_leaves(self, out) -> list:
        """The leaves of ``out`` if it has the result's structure; else a TypeError naming the
        first place where it differs."""
        want = self.out_tree
        leaves, got = flatten(out)
        if got == want:
            return leaves
        where = _tree_mismatch(want, got, out, "out")
        raise TypeError(f"{self.name}: out must have the structure of the result, "
                        f"{_kind(want)}; {where}")

    def flat_out_leaves(self, out) -> list:
        n = len(self.out_specs)
        if isinstance(out, (list, tuple)) and len(out) == n:
            return list(out)
        got = f"a {type(out).__name__} of {len(out)}" if isinstance(out, (list, tuple)) \
            else f"a {type(out).__name__}"
        raise TypeError(f"{self.name}: out must be a list of the {n} flat outputs, got {got}")

    def check_out(self, paths: list, j: int, o) -> None:
        """Raise unless ``o`` can receive output ``j``; returns for an ndarray subclass that can."""
        dt, shape, _ = self.out_specs[j]
        path = paths[j]
        want = f"expected an ndarray of shape {shape} and dtype {dt}"
        if not isinstance(o, np.ndarray):
            raise TypeError(f"{self.name}: {path} must be a NumPy ndarray: {want}, got "
                            f"{type(o).__module__}.{type(o).__qualname__}"
                            .replace("builtins.", ""))
        got = f"got shape {o.shape} and dtype {o.dtype}"
        if o.dtype != dt:
            raise TypeError(f"{self.name}: {path} has the wrong dtype: {want}, {got}")
        if o.shape != shape:
            raise ValueError(f"{self.name}: {path} has the wrong shape: {want}, {got}")
        flags = o.flags
        if not flags.c_contiguous:
            raise ValueError(f"{self.name}: {path} is not C-contiguous (strides {o.strides}): "
                             f"{want}, C-contiguous, {got}")
        if not flags.writeable:
            raise ValueError(f"{self.name}: {path} is read-only: {want}, writeable, {got}")
        if not flags.aligned:
            raise ValueError(f"{self.name}: {path} is not aligned for {dt}: {want}, aligned, "
                             f"{got}")

    def out_overlap(self, paths: list, j: int, k: int) -> None:
        (_, sj, _), (_, sk, _) = self.out_specs[j], self.out_specs[k]
        raise ValueError(f"{self.name}: {paths[j]} and {paths[k]} share "
                         f"memory (shapes {sj} and {sk}); each output needs a buffer of its own")

    def in_overlap(self, paths: list, i: int, j: int, value=None) -> None:
        spec = self.in_specs[i]
        dt, shape, _ = self.out_specs[j]
        got = f"shape {value.shape}, dtype {value.dtype}" if value is not None else \
            f"shape {spec.shape}, dtype {spec.dtype.name}"
        raise ValueError(f"{self.name}: {paths[j]} (shape {shape}, dtype {dt}) shares "
                         f"memory with argument {spec.name} ({got}); an output buffer must not "
                         f"overlap an input: the compiled code assumes no aliasing")


def leaf_paths(tree: TreeDef) -> list[str]:
    """``out[1][0]``-style paths of a result structure's leaves."""
    paths: list = []
    flatten(unflatten(tree, [object() for _ in range(_count_leaves(tree))]), "out", paths)
    return paths


def _count_leaves(tree: TreeDef) -> int:
    return 1 if tree.kind == "leaf" else sum(_count_leaves(c) for c in tree.children)


def unpacker(tree: TreeDef) -> tuple[str | None, str]:
    """For a tree of tuples, lists, None and leaves: an assignment target unpacking ``out``'s
    leaves to ``o0, o1, ..`` (which checks every length), and a condition, valid once that
    succeeded, that holds exactly when ``out`` has this structure; (None, "") for other trees."""
    conds: list[str] = []
    target = _unpack(tree, "out", conds, count())
    if target is None:
        return None, ""
    return " and ".join(conds), target


def _unpack(t: TreeDef, expr: str, conds: list, leaf: Iterator[int]) -> str | None:
    """``unpacker``'s walk (a module function: a recursive closure is a reference cycle)."""
    if t.kind == "leaf":
        return f"o{next(leaf)}"
    if t.kind == "none":
        conds.append(f"{expr} is None")
        return "_"
    if t.kind not in ("tuple", "list"):
        return None
    conds.append(f"type({expr}) is {t.kind}")
    if not t.children:
        conds.append(f"len({expr}) == 0")
    kids = [_unpack(c, f"{expr}[{i}]", conds, leaf) for i, c in enumerate(t.children)]
    if any(k is None for k in kids):
        return None
    return "(" + "".join(f"{k}, " for k in kids) + ")" if kids else "_"


def _kind(t: TreeDef, obj=None) -> str:
    if t.kind == "leaf":
        return "an array" if obj is None else f"a {type(obj).__name__}"
    if t.kind == "none":
        return "None"
    if t.kind == "namedtuple":
        return f"a {t.meta.__name__} {t.describe()}"
    return f"a {t.kind} {t.describe()}"


def _tree_mismatch(want: TreeDef, got: TreeDef, obj, path: str) -> str:
    """Where the structure ``got`` of ``obj`` first differs from ``want``, as
    ``out[1]: expected ..., got ...``."""
    same_kind = want.kind == got.kind and (want.kind != "namedtuple" or want.meta is got.meta)
    if same_kind and want.kind in ("tuple", "list", "namedtuple", "dict") and \
            len(want.children) == len(got.children) and \
            (want.kind != "dict" or want.meta == got.meta):
        if want.kind == "namedtuple":
            names = [f".{f}" for f in want.meta._fields]
            kids = list(obj)
        elif want.kind == "dict":
            names = [f"[{k!r}]" for k in want.meta]
            kids = [obj[k] for k in want.meta]
        else:
            names = [f"[{i}]" for i in range(len(want.children))]
            kids = list(obj)
        for name, w, g, o in zip(names, want.children, got.children, kids):
            if w != g:
                return _tree_mismatch(w, g, o, path + name)
    return f"{path}: expected {_kind(want)}, got {_kind(got, obj)}"


def _shares_memory(a, b) -> bool:
    """Exact overlap test (the bounds test said maybe); too hard to decide counts as yes."""
    try:
        return bool(np.shares_memory(a, b, max_work=100_000))
    except _TooHardError:
        return True
