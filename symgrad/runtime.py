"""A compiled specialization: traced graph -> passes -> loop IR -> C -> loaded module, and the
thin call path that feeds it NumPy arrays.

Input: a ``Traced`` function. Output: ``Specialization`` objects whose ``run(leaves)`` validates
and converts the flat argument leaves, allocates outputs, calls C and checks its status. The
call path is hot: every decision that can be made once is made in ``__init__``.

``call_into(args, out)`` writes into caller-provided output arrays instead of allocating them:
``out`` must have the result's structure, each leaf a writeable, aligned, C-contiguous ndarray
of exactly the output's shape and dtype, sharing no memory with another output or an input
array (the C declares its pointers ``restrict``); anything else raises, naming ``out[i][j]``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from functools import partial
from itertools import count

import numpy as np

from . import config
from .codegen import CSource, generate
from .compiler import build_module, has_vector_math
from .ir import format_graph
from .lower import lower
from .passes import run_pipeline
from .pytree import TreeDef, flatten, unflatten, unflattener
from .trace import Traced

# Up to this many (output, output) and (input, output) pairs, call_into compares buffers pair
# by pair in generated code (~0.05 us a pair); above it, one call sorts their byte ranges.
MAX_PAIRWISE_OVERLAP_CHECKS = 64

try:
    _TooHardError = np.exceptions.TooHardError
except AttributeError:  # NumPy < 1.25
    _TooHardError = np.TooHardError


class _Lease(np.ndarray):
    """Owner of a pooled output block while any array returned to the caller views it."""

    def __del__(self):
        pool = self.__dict__.get("pool")
        if pool is not None:
            pool.give_back(self.base)


class OutputPool:
    """Large output arrays whose memory is recycled once the caller drops them.

    A fresh ``np.empty`` of a large array is new pages from the OS: the kernel zero-fills each
    one on first touch (measured here: 600 us for two 800 KB outputs, more than the gradient
    itself). The pool hands out plain ndarrays viewing a block; when the last view dies, the
    block comes back and the next call writes into warm pages. Arrays the caller keeps are
    never reused; at most ``KEEP`` idle blocks are held per output.
    """

    MIN_BYTES = 1 << 16
    KEEP = 2

    def __init__(self, shape: tuple, dtype) -> None:
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)
        self.nbytes = max(self.dtype.itemsize * int(np.prod(shape)), 1)
        self.idle: list = []

    def __call__(self) -> np.ndarray:
        try:
            block = self.idle.pop()
        except IndexError:
            try:
                block = bytearray(self.nbytes)
            except MemoryError:   # bytearray's own MemoryError has no message
                raise MemoryError(f"cannot allocate {self.nbytes} bytes for an output of "
                                  f"shape {self.shape} and dtype {self.dtype}") from None
        lease = np.ndarray.__new__(_Lease, self.shape, self.dtype, buffer=block)
        lease.pool = self
        # A plain ndarray for the caller; its base is the lease (a different type, so NumPy
        # does not collapse the chain past it to the bytearray).
        return lease.view(np.ndarray)

    def give_back(self, block) -> None:
        if len(self.idle) < self.KEEP:
            self.idle.append(block)


@dataclass(frozen=True)
class Artifact:
    """What a specialization needs to run, without its graph: the C (whose text is also its
    cache key's main ingredient), the signature, the constants, the output layout and the
    messages of the runtime errors its kernels can report. A pickled ``Specialization`` is
    its artifact; unpickling reloads the module from the disk cache or rebuilds it from
    ``source`` (``Specialization.from_artifact``)."""

    name: str
    source: CSource
    key: str
    in_specs: tuple
    out_tree: TreeDef
    consts: tuple        # (C element type, ndarray) per constant buffer
    out_specs: tuple     # (NumPy dtype, shape, cffi array type) per output
    errors: tuple = ()   # (status, message) of each kernel that can fail


class Specialization:
    def __init__(self, traced: Traced, name: str, passes=None, build: bool = True):
        self.traced = traced
        self.name = name
        self._stages: list = []     # (title, graph): printed only when inspected

        def on_change(pass_name, before, after):
            self._stages.append((f"after {pass_name} ({len(before.nodes())} -> "
                                 f"{len(after.nodes())} nodes)", after))
            if config.debug_level() >= 2:
                config.debug(2, "IR after %s:\n%s", pass_name, format_graph(after))
        self.graph = run_pipeline(traced.graph, passes, on_change)
        self.program = prog = lower(self.graph)
        self.source = generate(prog, name, title=f"{name}: compiled by symgrad",
                               vector_math=has_vector_math())
        config.debug(2, "C for %s:\n%s", name, self.source.text)
        module = build_module(self.source.text, self.source.cdef, name_hint=name) \
            if build else None
        self._errors = {i + 1: k for i, k in enumerate(prog.kernels)}
        self._bind(Artifact(
            name, self.source, module.key if module is not None else "",
            tuple(traced.in_specs), traced.out_tree,
            tuple((b.dtype.ctype, np.ascontiguousarray(v, dtype=b.dtype.np))
                  for b, v in prog.consts),
            tuple((b.dtype.np, n.shape, f"{b.dtype.ctype}[]")
                  for b, n in zip(prog.outputs, self.graph.outputs))), module)

    @classmethod
    def from_artifact(cls, art: Artifact) -> Specialization:
        """A specialization from its artifact alone (no graph: ``stages`` is empty and
        ``symgrad.inspect`` needs the original function); the module comes from the cache,
        or is rebuilt from the C text."""
        self = cls.__new__(cls)
        self.traced = Traced(None, list(art.in_specs), art.out_tree)
        self.name, self._stages = art.name, []
        self.graph = self.program = None
        self.source = art.source
        self._errors = {}
        module = build_module(art.source.text, art.source.cdef, name_hint=art.name)
        if module.key != art.key:   # another compiler, CPU or symgrad: a build of its own
            config.debug(1, "%s: the pickled build %s is %s here (another toolchain)",
                         art.name, art.key[:16], module.key[:16])
        self._bind(art, module)
        return self

    def __reduce__(self):
        art = self._artifact
        if self.program is not None:   # the messages need the graph: write them out now
            art = replace(art, errors=tuple((s, self._error_text(s)) for s in self._errors))
        return (Specialization.from_artifact, (art,))

    def _bind(self, art: Artifact, module) -> None:
        """Set up the call path from the artifact: everything per call is decided here."""
        self._artifact, self.module = art, module
        self._in_dtypes = [(s.dtype.np, f"{s.dtype.ctype}[]") for s in art.in_specs]
        self._in_shapes = [s.shape for s in art.in_specs]
        self._consts = [c for _, c in art.consts]
        self._out_specs = list(art.out_specs)
        self._workspace_bytes = max(art.source.workspace_bytes, 1)
        self._local = threading.local()   # one workspace per thread: C calls drop the GIL
        if self.module is not None:
            ffi = self.module.ffi
            self._fn = getattr(self.module.lib, art.source.entry)
            self._from_buffer = ffi.from_buffer
            self._const_ptrs = [ffi.from_buffer(f"{ct}[]", c) for ct, c in art.consts]
        self.build_outputs = unflattener(art.out_tree)
        self._pools = {j: OutputPool(shape, dt) for j, (dt, shape, _) in
                       enumerate(self._out_specs)
                       if np.dtype(dt).itemsize * int(np.prod(shape)) >= OutputPool.MIN_BYTES}
        self._out_paths = _leaf_paths(art.out_tree)
        if self.module is not None:
            # ``call(args)`` returns the result structure; ``run(leaves)`` the flat outputs.
            # ``call_into(args, out)`` and ``run(leaves, out)`` write into the caller's arrays.
            self.call = self._compile_call(self.build_outputs)
            self.call_into = self._compile_call(self.build_outputs, into=True)
            self.run = self._compile_call(list, into="optional", flat=True)

    @property
    def stages(self) -> list[tuple[str, str]]:
        """The IR after each pass that changed it: (title with node counts, text)."""
        return [(title, format_graph(g)) for title, g in self._stages]

    @property
    def c_source(self) -> str:
        return self._artifact.source.text

    def _compile_call(self, build, into: bool | str = False, flat: bool = False):
        """A straight-line Python function for this signature: check and pass each argument,
        allocate each output, call C, build the result structure. Generated from the signature
        alone (names and shapes, never user data), it is the whole per-call cost above C.

        ``into=True``: ``call(args, out)`` checks the caller's ``out`` arrays, writes into them
        and returns ``out``; ``into="optional"``: ``call(args, out=None)`` does either. ``flat``:
        the outputs are a flat list (``run``), and each input array's shape is checked too
        (``run`` gets leaves that no signature lookup has matched)."""
        n_in, n_out = len(self._in_dtypes), len(self._out_specs)
        lines = ["def call(args, out):" if into is True else
                 "def call(args, out=None):" if into else "def call(args):"]
        if into == "optional":
            lines += ["    if out is not None:", "        return into(args, out)"]
        lines.append(f"    {''.join(f'a{i}, ' for i in range(n_in))}= args" if n_in else
                     "    pass")
        if into is True:
            lines += ["    " + ln for ln in self._out_check_lines(flat)]
        outs = "(" + "".join(f"o{j}, " for j in range(n_out)) + ")"
        for i in range(n_in):
            same_shape = f" and a{i}.shape == ishape{i}" if flat else ""
            # In call_into, an input that gets copied is first checked against the outputs
            # (np.shares_memory); one passed as it is, by its pointer (below).
            conv = f"convert_into({i}, a{i}, dt{i}, {outs})" if into is True and \
                i in self._checked_inputs(flat) else f"convert({i}, a{i}, dt{i})"
            lines += [(f"    if type(a{i}) is ndarray and a{i}.dtype == dt{i} and "
                       f"a{i}.flags.aligned{same_shape}:"),
                      "        try:",
                      f"            p{i} = fb(ct{i}, a{i})",
                      "        except ValueError:",
                      f"            p{i} = fb(ct{i}, {conv})",
                      "    else:",
                      f"        p{i} = fb(ct{i}, {conv})"]
        if into is True:
            lines += ["    " + ln for ln in self._in_overlap_lines(flat)]
            out_ptrs = [f"q{j}" for j in range(n_out)]
        else:
            lines += [f"    o{j} = pool{j}()" if j in self._pools else
                      f"    o{j} = empty(oshape{j}, odt{j})" for j in range(n_out)]
            out_ptrs = [f"fb(oct{j}, o{j})" for j in range(n_out)]
        ptrs = [f"p{i}" for i in range(n_in)] + ["*consts"] + out_ptrs + \
            ["w", "settings.num_threads"]
        lines += ["    try:", "        w = local.work", "    except AttributeError:",
                  "        w = new_workspace()",
                  f"    status = fn({', '.join(ptrs)})",
                  "    if status:", "        fail(status)",
                  "    return out" if into is True else
                  f"    return build([{', '.join(f'o{j}' for j in range(n_out))}])"]
        env = {"ndarray": np.ndarray, "fb": self._from_buffer, "convert": self._convert,
               "empty": np.empty, "local": self._local, "new_workspace": self._new_workspace,
               "fn": self._fn, "consts": tuple(self._const_ptrs), "fail": self._raise,
               "settings": config.settings, "build": build}
        if into is True:
            paths = [f"out[{j}]" for j in range(n_out)] if flat else self._out_paths
            env.update({k: partial(m, paths) for k, m in (
                ("check_out", self._check_out), ("out_overlap", self._out_overlap),
                ("in_overlap", self._in_overlap), ("convert_into", self._convert_into),
                ("check_overlaps", self._check_overlaps))},
                out_leaves=self._flat_out_leaves if flat else self._out_leaves)
        elif into:
            env["into"] = self._compile_call(build, True, flat)
        for i, (dt, ct) in enumerate(self._in_dtypes):
            env[f"dt{i}"], env[f"ct{i}"] = dt, ct
            env[f"ishape{i}"] = self._in_shapes[i]
        for j, (dt, shape, ct) in enumerate(self._out_specs):
            env[f"odt{j}"], env[f"oshape{j}"], env[f"oct{j}"] = dt, shape, ct
        for j, pool in self._pools.items():
            env[f"pool{j}"] = pool
        exec("\n".join(lines), env)  # noqa: S102  (source built from the signature only)
        return env["call"]

    # ------------------------------------------------------------------ out=: checks
    # The C gets one contiguous buffer per input and output and declares them `restrict`:
    # call_into refuses outputs that overlap each other or an input. Buffers passed to C as they
    # are compare as cffi pointer ranges [p, p + n) (exact, ~0.05 us a pair); an input that is
    # copied first is compared, as the caller's array, with np.shares_memory before the copy.

    def _sizes(self) -> tuple[list[int], list[int]]:
        return ([int(np.prod(s)) for s in self._in_shapes],
                [int(np.prod(shape)) for _, shape, _ in self._out_specs])

    def _checked_inputs(self, flat: bool) -> list[int]:
        """Inputs that may hold array memory: not a Python-number input (always a fresh copy),
        unless called through ``run``, which has no signature lookup to vouch for that."""
        return [i for i, s in enumerate(self.traced.in_specs) if flat or s.python is None]

    def _many_pairs(self, flat: bool) -> bool:
        n_in, n_out = self._sizes()
        k_out = sum(1 for n in n_out if n)
        k_in = sum(1 for i in self._checked_inputs(flat) if n_in[i])
        return k_out * (k_out - 1) // 2 + k_in * k_out > MAX_PAIRWISE_OVERLAP_CHECKS

    def _out_check_lines(self, flat: bool) -> list[str]:
        """Generated lines binding ``o0..`` to the leaves of the caller's ``out``, checking each
        one, making its pointer ``q{j}`` and checking that no two outputs overlap."""
        n_out = len(self._out_specs)
        outs = [f"o{j}" for j in range(n_out)]
        flat_target = "".join(f"{o}, " for o in outs)
        if flat:
            cond, target = "type(out) is list or type(out) is tuple", flat_target or "_"
            if not n_out:
                cond = f"({cond}) and len(out) == 0"
        else:
            cond, target = _unpacker(self.traced.out_tree)
        walk = f"{flat_target}= out_leaves(out)" if n_out else "out_leaves(out)"
        if cond is None:                       # dicts, namedtuples: the general walk
            lines = [walk]
        elif not cond:                         # a single array
            lines = [f"{target} = out"]
        else:  # unpacking checks the lengths; then the container types
            lines = ["try:", f"    {target} = out", "except (TypeError, ValueError):",
                     f"    {walk}", f"if not ({cond}):", f"    {walk}"]
        for j in range(n_out):
            lines += [(f"if not (type(o{j}) is ndarray and o{j}.dtype == odt{j} and "
                       f"o{j}.shape == oshape{j} and o{j}.flags.carray):"),
                      f"    check_out({j}, o{j})",
                      f"q{j} = fb(oct{j}, o{j})"]
        if self._many_pairs(flat):
            return lines
        _, sizes = self._sizes()
        live = [j for j in range(n_out) if sizes[j]]
        lines += [f"e{j} = q{j} + {sizes[j]}" for j in live]
        for x, j in enumerate(live):
            for k in live[x + 1:]:
                lines += [f"if q{j} < e{k} and q{k} < e{j}:", f"    out_overlap({j}, {k})"]
        return lines

    def _in_overlap_lines(self, flat: bool) -> list[str]:
        """Generated lines checking the input pointers ``p{i}`` against the outputs'."""
        n_in = len(self._in_dtypes)
        n_out = len(self._out_specs)
        if self._many_pairs(flat):
            ins = "".join(f"p{i}, " for i in range(n_in))
            outs = "".join(f"q{j}, " for j in range(n_out))
            return [f"check_overlaps(({ins}), ({outs}))"]
        in_sizes, sizes = self._sizes()
        live = [j for j in range(n_out) if sizes[j]]
        lines = []
        for i in self._checked_inputs(flat):
            if not in_sizes[i] or not live:
                continue
            lines.append(f"f{i} = p{i} + {in_sizes[i]}")
            for j in live:
                lines += [f"if p{i} < e{j} and q{j} < f{i}:", f"    in_overlap({i}, {j})"]
        return lines

    def _check_overlaps(self, paths: list, in_ptrs: tuple, out_ptrs: tuple) -> None:
        """Many buffers: sort the byte ranges, report the first overlap with an output."""
        cast = self.module.ffi.cast
        in_sizes, out_sizes = self._sizes()
        spans = []
        for j, (q, n) in enumerate(zip(out_ptrs, out_sizes)):
            if n:
                lo = int(cast("uintptr_t", q))
                spans.append((lo, lo + n * self._out_specs[j][0].itemsize, -1 - j))
        for i, (p, n) in enumerate(zip(in_ptrs, in_sizes)):
            if n:
                lo = int(cast("uintptr_t", p))
                spans.append((lo, lo + n * self._in_dtypes[i][0].itemsize, i))
        spans.sort()
        active: list = []
        for lo, hi, who in spans:
            active = [s for s in active if s[1] > lo]
            for _, _, other in active:
                if who < 0 and other < 0:
                    self._out_overlap(paths, *sorted((-1 - who, -1 - other)))
                elif who < 0 or other < 0:
                    i, j = (other, -1 - who) if who < 0 else (who, -1 - other)
                    self._in_overlap(paths, i, j)
            active.append((lo, hi, who))

    def _convert_into(self, paths: list, i: int, value, dt, outs: tuple) -> np.ndarray:
        """``_convert`` for call_into: the caller's array must not overlap an output either."""
        if isinstance(value, np.ndarray):
            _, sizes = self._sizes()
            for j, o in enumerate(outs):
                if sizes[j] and np.may_share_memory(value, o) and _shares_memory(value, o):
                    self._in_overlap(paths, i, j, value)
        return self._convert(i, value, dt)

    # ------------------------------------------------------------------ out= errors
    def _out_leaves(self, out) -> list:
        """The leaves of ``out`` if it has the result's structure; else a TypeError naming the
        first place where it differs."""
        want = self.traced.out_tree
        leaves, got = flatten(out)
        if got == want:
            return leaves
        where = _tree_mismatch(want, got, out, "out")
        raise TypeError(f"{self.name}: out must have the structure of the result, "
                        f"{_kind(want)}; {where}")

    def _flat_out_leaves(self, out) -> list:
        n = len(self._out_specs)
        if isinstance(out, (list, tuple)) and len(out) == n:
            return list(out)
        got = f"a {type(out).__name__} of {len(out)}" if isinstance(out, (list, tuple)) \
            else f"a {type(out).__name__}"
        raise TypeError(f"{self.name}: out must be a list of the {n} flat outputs, got {got}")

    def _check_out(self, paths: list, j: int, o) -> None:
        """Raise unless ``o`` can receive output ``j``; returns for an ndarray subclass that can."""
        dt, shape, _ = self._out_specs[j]
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

    def _out_overlap(self, paths: list, j: int, k: int) -> None:
        (_, sj, _), (_, sk, _) = self._out_specs[j], self._out_specs[k]
        raise ValueError(f"{self.name}: {paths[j]} and {paths[k]} share "
                         f"memory (shapes {sj} and {sk}); each output needs a buffer of its own")

    def _in_overlap(self, paths: list, i: int, j: int, value=None) -> None:
        spec = self.traced.in_specs[i]
        dt, shape, _ = self._out_specs[j]
        got = f"shape {value.shape}, dtype {value.dtype}" if value is not None else \
            f"shape {spec.shape}, dtype {spec.dtype.name}"
        raise ValueError(f"{self.name}: {paths[j]} (shape {shape}, dtype {dt}) shares "
                         f"memory with argument {spec.name} ({got}); an output buffer must not "
                         f"overlap an input: the compiled code assumes no aliasing")

    def _new_workspace(self):
        """Allocated once per thread and specialization, reused by every call after."""
        self._local.array = np.zeros(self._workspace_bytes, dtype=np.uint8)
        self._local.work = self._from_buffer("unsigned char[]", self._local.array)
        return self._local.work

    def _convert(self, i: int, value, dt) -> np.ndarray:
        """Python numbers, losslessly castable dtypes, strided or misaligned data: a private
        contiguous, aligned copy (never a view into the caller's memory)."""
        spec = self.traced.in_specs[i]
        try:
            arr = np.array(value, dtype=dt, order="C", copy=True)
        except (OverflowError, ValueError, TypeError) as e:
            raise TypeError(f"{self.name}: argument {spec.name} cannot be converted to "
                            f"{spec.dtype.name}: {e}") from None
        except MemoryError as e:   # e.g. a broadcast view far larger than its memory
            raise MemoryError(f"{self.name}: argument {spec.name} (shape {spec.shape}) needs "
                              f"a contiguous {spec.dtype.name} copy: {e}") from None
        if arr.shape != spec.shape:  # only reachable through Specialization.run directly
            raise ValueError(f"{self.name}: argument {spec.name} has shape {arr.shape}, "
                             f"expected {spec.shape}")
        return arr

    def _error_text(self, status: int) -> str:
        """The message of a kernel's nonzero status, naming the op and the user's line."""
        if status not in self._errors:
            return dict(self._artifact.errors).get(
                status, f"{self.name}: the compiled code reported error {status}")
        node = getattr(self._errors[status], "node", None)
        loc = self.graph.locs.get(node) if node is not None else None
        where = f" (from {loc}: {loc.text})" if loc else ""
        op = node.op if node is not None else "kernel"
        return f"{self.name}: an index passed to {op} is out of range{where}"

    def _raise(self, status: int):
        raise IndexError(self._error_text(status))


# ------------------------------------------------------------------ out= helpers

def _leaf_paths(tree: TreeDef) -> list[str]:
    """``out[1][0]``-style paths of a result structure's leaves."""
    paths: list = []
    flatten(unflatten(tree, [object() for _ in range(_count_leaves(tree))]), "out", paths)
    return paths


def _count_leaves(tree: TreeDef) -> int:
    return 1 if tree.kind == "leaf" else sum(_count_leaves(c) for c in tree.children)


def _unpacker(tree: TreeDef) -> tuple[str | None, str]:
    """For a tree of tuples, lists, None and leaves: an assignment target unpacking ``out``'s
    leaves to ``o0, o1, ..`` (which checks every length), and a condition, valid once that
    succeeded, that holds exactly when ``out`` has this structure; (None, "") for other trees."""
    conds: list[str] = []
    leaf = count()

    def rec(t: TreeDef, expr: str) -> str | None:
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
        kids = [rec(c, f"{expr}[{i}]") for i, c in enumerate(t.children)]
        if any(k is None for k in kids):
            return None
        return "(" + "".join(f"{k}, " for k in kids) + ")" if kids else "_"

    target = rec(tree, "out")
    if target is None:
        return None, ""
    return " and ".join(conds), target


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

