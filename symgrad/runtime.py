"""A compiled specialization: traced graph -> passes -> loop IR -> C -> loaded module, and the
thin call path that feeds it NumPy arrays.

Input: a ``Traced`` function. Output: ``Specialization`` objects whose ``run(leaves)`` validates
and converts the flat argument leaves, allocates outputs, calls C and checks its status. The
call path is hot: every decision that can be made once is made in ``__init__``.
"""

from __future__ import annotations

import threading

import numpy as np

from . import config
from .codegen import generate
from .compiler import build_module, has_vector_math
from .ir import format_graph
from .lower import lower
from .passes import run_pipeline
from .pytree import unflattener
from .trace import Traced


class Specialization:
    def __init__(self, traced: Traced, name: str, passes=None, build: bool = True):
        self.traced = traced
        self.name = name
        self.stages: list[tuple[str, str]] = []

        def on_change(pass_name, before, after):
            self.stages.append((f"after {pass_name} ({len(before.nodes())} -> "
                                f"{len(after.nodes())} nodes)", format_graph(after)))
            config.debug(2, "IR after %s:\n%s", pass_name, format_graph(after))
        self.graph = run_pipeline(traced.graph, passes, on_change)
        self.program = lower(self.graph)
        self.source = generate(self.program, name, title=f"{name}: compiled by symgrad",
                               vector_math=has_vector_math())
        config.debug(2, "C for %s:\n%s", name, self.source.text)
        self.module = build_module(self.source.text, self.source.cdef, name_hint=name) \
            if build else None
        prog = self.program
        self._in_dtypes = [(s.dtype.np, f"{s.dtype.ctype}[]") for s in traced.in_specs]
        self._in_shapes = [s.shape for s in traced.in_specs]
        self._consts = [np.ascontiguousarray(v, dtype=b.dtype.np) for b, v in prog.consts]
        self._out_specs = [(b.dtype.np, n.shape, f"{b.dtype.ctype}[]")
                           for b, n in zip(prog.outputs, self.graph.outputs)]
        self._workspace_bytes = max(self.source.workspace_bytes, 1)
        self._local = threading.local()   # one workspace per thread: C calls drop the GIL
        if self.module is not None:
            ffi = self.module.ffi
            self._fn = getattr(self.module.lib, self.source.entry)
            self._from_buffer = ffi.from_buffer
            self._const_ptrs = [ffi.from_buffer(f"{b.dtype.ctype}[]", c)
                                for (b, _), c in zip(prog.consts, self._consts)]
        self._errors = {i + 1: k for i, k in enumerate(prog.kernels)}
        self.build_outputs = unflattener(traced.out_tree)
        if self.module is not None:
            # ``call(args)`` returns the result structure; ``run(leaves)`` the flat outputs.
            self.call = self._compile_call(self.build_outputs)
            self.run = self._compile_call(list)

    @property
    def c_source(self) -> str:
        return self.source.text

    def _compile_call(self, build):
        """A straight-line Python function for this signature: check and pass each argument,
        allocate each output, call C, build the result structure. Generated from the signature
        alone (names and shapes, never user data), it is the whole per-call cost above C."""
        n_in, n_out = len(self._in_dtypes), len(self._out_specs)
        lines = ["def call(args):"]
        lines.append(f"    {''.join(f'a{i}, ' for i in range(n_in))}= args" if n_in else
                     "    pass")
        for i in range(n_in):
            lines += [f"    if type(a{i}) is ndarray and a{i}.dtype == dt{i} and a{i}.flags.aligned:",
                      "        try:",
                      f"            p{i} = fb(ct{i}, a{i})",
                      "        except ValueError:",
                      f"            p{i} = fb(ct{i}, convert({i}, a{i}, dt{i}))",
                      "    else:",
                      f"        p{i} = fb(ct{i}, convert({i}, a{i}, dt{i}))"]
        for j in range(n_out):
            lines.append(f"    o{j} = empty(oshape{j}, odt{j})")
        lines += ["    try:", "        w = local.work", "    except AttributeError:",
                  "        w = new_workspace()"]
        ptrs = [f"p{i}" for i in range(n_in)] + ["*consts"] + \
            [f"fb(oct{j}, o{j})" for j in range(n_out)] + ["w"]
        lines += [f"    status = fn({', '.join(ptrs)})",
                  "    if status:", "        fail(status)",
                  f"    return build([{', '.join(f'o{j}' for j in range(n_out))}])"]
        env = {"ndarray": np.ndarray, "fb": self._from_buffer, "convert": self._convert,
               "empty": np.empty, "local": self._local, "new_workspace": self._new_workspace,
               "fn": self._fn, "consts": tuple(self._const_ptrs), "fail": self._raise,
               "build": build}
        for i, (dt, ct) in enumerate(self._in_dtypes):
            env[f"dt{i}"], env[f"ct{i}"] = dt, ct
        for j, (dt, shape, ct) in enumerate(self._out_specs):
            env[f"odt{j}"], env[f"oshape{j}"], env[f"oct{j}"] = dt, shape, ct
        exec("\n".join(lines), env)  # noqa: S102  (source built from the signature only)
        return env["call"]

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
        if arr.shape != spec.shape:  # only reachable through Specialization.run directly
            raise ValueError(f"{self.name}: argument {spec.name} has shape {arr.shape}, "
                             f"expected {spec.shape}")
        return arr

    def _raise(self, status: int):
        kernel = self._errors.get(status)
        node = getattr(kernel, "node", None)
        loc = self.graph.locs.get(node) if node is not None else None
        where = f" (from {loc}: {loc.text})" if loc else ""
        op = node.op if node is not None else "kernel"
        raise IndexError(f"{self.name}: an index passed to {op} is out of range{where}")
