"""A compiled specialization: the loaded C of one signature and the thin call path that feeds
it NumPy arrays.

Layer: runtime, above the pipeline. Input: an ``Artifact`` (and its loaded module; the
``pipeline.Compiled`` it came from, when this process compiled it). Output: ``call(args)``,
``call_into(args, out)`` and ``run(leaves, out=None)``: validate and convert the flat argument
leaves, take or check the outputs, call C, check its status. The call path is hot: everything
that can be decided once is decided when the specialization is made (``callgen``).

``call_into(args, out)`` writes into caller-provided output arrays instead of allocating them:
``out`` must have the result's structure, each leaf a writeable, aligned, C-contiguous ndarray
of exactly the output's shape and dtype, sharing no memory with another output or an input
array (the C declares its pointers ``restrict``); anything else raises, naming ``out[i][j]``.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import numpy as np

from .. import config
from ..codegen.backend import GUARD_STATUS, INTERRUPT_STATUS, MEMORY_STATUS
from ..errors import LinAlgError
from ..ir import format_graph
from ..pytree import unflattener
from .artifact import Artifact
from .callgen import make_call
from .captured import Captured
from .interrupt import Poll
from .outputs import OutChecks
from .paths import GuardFailure
from .pool import OutputPool

NOTHING = Captured()

if TYPE_CHECKING:   # (the pipeline, and the compiler behind it, load only when compiling)
    from ..codegen.backend import Module
    from ..pipeline import Compiled


class Specialization:
    def __init__(self, art: Artifact, module: Module | None,
                 compiled: Compiled | None = None, captured: Captured = NOTHING):
        self.name = art.name
        # What it reads besides its arguments, live here (runtime.captured); the C takes
        # the captured values after the arguments.
        self.captured = captured
        if len(captured.objects) != len(art.captures):
            raise ValueError(f"{art.name}: the compiled code takes {len(art.captures)} "
                             f"captured values, {len(captured.objects)} were given")
        self.artifact = art
        self.module = module
        self.compiled = compiled      # the stages' results (None once unpickled)
        self.workspace_bytes = max(art.source.workspace_bytes, 1)
        self.local = threading.local()   # one workspace per thread: C calls drop the GIL
        self.pools = {j: OutputPool(shape, dt) for j, (dt, shape, _) in enumerate(art.out_specs)
                      if np.dtype(dt).itemsize * int(np.prod(shape)) >= OutputPool.MIN_BYTES}
        self._errors = dict(art.errors)
        # The outcome of each guard this path took, and where in the user's code it was.
        self.outcomes = tuple(outcome for outcome, _ in art.guards)
        self.guard_sites = tuple(site for _, site in art.guards)
        if module is None:        # traced and generated only (symgrad.inspect without a build)
            return
        # (the backend's module: ``codegen.backend.Module``; its handles are opaque here)
        self.fn, self.fn_lead = module.entry(art.source.entry)
        # (passed by address: kept alive here, contiguous and aligned as the C reads them)
        self.const_arrays = [np.require(c, requirements=("C", "A")) for _, c in art.consts]
        self.const_ptrs = [module.address(c) for c in self.const_arrays]
        self.poll = Poll(module) if art.source.interrupt else None
        self.checks = OutChecks(art, module, self.convert)
        self._calls()

    def _calls(self) -> None:
        """The generated call paths (for the current captured objects, if any):
        ``call(args)`` returns the result structure; ``run(leaves)`` the flat outputs;
        ``call_into(args, out)`` and ``run(leaves, out)`` write into the caller's arrays."""
        if self.module is None:
            return
        build_outputs = unflattener(self.artifact.out_tree)
        self.call = make_call(self, build_outputs)
        self.call_into = make_call(self, build_outputs, into=True)
        self.run = make_call(self, list, into="optional", flat=True)

    def rebind(self, captured: Captured | None) -> bool:
        """Read these captured objects from now on (the same captures, found again where
        they were: ``api.state.rebound``); False if ``captured`` is None (it cannot)."""
        if captured is None:
            return False
        if captured is not self.captured:
            self.captured = captured
            self._calls()
        return True

    @classmethod
    def of(cls, compiled: Compiled, captured: Captured = NOTHING) -> Specialization:
        return cls(Artifact.of(compiled), compiled.module, compiled, captured)

    @classmethod
    def from_artifact(cls, art: Artifact, captured: Captured = NOTHING) -> Specialization:
        """A specialization from its artifact alone (no graph: ``symgrad.inspect`` traces the
        function again) and, if its C takes captured values, those objects (found again by
        their paths: ``api.state``); the module comes from the cache, or is rebuilt from the
        C text."""
        from .. import pipeline   # (loads the backend's toolchain only when unpickling)
        module = pipeline.load(art.source, art.name)
        if module.key != art.key:   # another compiler, CPU or symgrad: a build of its own
            config.debug(1, "%s: the pickled build %s is %s here (another toolchain)",
                         art.name, art.key[:16], module.key[:16])
        return cls(art, module, None, captured)

    def __reduce__(self):
        if self.artifact.captures:
            raise TypeError(f"{self.name}: a specialization that reads captured state "
                            f"({', '.join(c[2] for c in self.artifact.captures)}) cannot be "
                            f"pickled alone; pickle its compiled function")
        return (Specialization.from_artifact, (self.artifact,))

    @property
    def in_specs(self) -> tuple:
        return self.artifact.in_specs

    @property
    def source(self):
        """The backend's source object (``codegen.backend.Source``; the C backend's
        ``CSource``): its text and what its build needs."""
        return self.artifact.source

    @property
    def c_source(self) -> str:
        return self.artifact.source.text

    @property
    def stages(self) -> list[tuple[str, str]]:
        """The IR after each pass that changed it: (title with node counts, text)."""
        if self.compiled is None:
            return []
        return [(title, format_graph(g)) for title, g in self.compiled.stages]

    @property
    def workspace(self) -> np.ndarray | None:
        """This thread's workspace (allocated at its first call, then reused), or None."""
        return getattr(self.local, "array", None)

    def new_workspace(self):
        """Allocated once per thread and specialization, reused by every call after."""
        self.local.array = np.zeros(self.workspace_bytes, dtype=np.uint8)
        self.local.work = self.module.address(self.local.array)   # (kept alive by local)
        return self.local.work

    def convert(self, i: int, value, dt) -> np.ndarray:
        """Python numbers, losslessly castable dtypes, strided or misaligned data: a private
        contiguous, aligned copy (never a view into the caller's memory)."""
        spec = self.artifact.in_specs[i]
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

    def fail(self, status: int):
        """Raise the error of a kernel's nonzero status, naming the op and the user's line: a
        negative status is a failed matrix decomposition (``codegen.c.decomp``), one from
        ``MEMORY_STATUS`` up a failed allocation (``codegen.backend``); a failed guard raises
        ``GuardFailure`` (``paths.Paths`` runs the path the arguments take); an interrupted
        loop (Ctrl-C, ``runtime.interrupt``) KeyboardInterrupt."""
        if status == INTERRUPT_STATUS:
            # On the main thread the interpreter has run the SIGINT handler as this function
            # began (default_int_handler raised KeyboardInterrupt): this is for other threads.
            raise KeyboardInterrupt
        if status >= GUARD_STATUS:
            raise GuardFailure(status - GUARD_STATUS)
        kind = LinAlgError if status < 0 else MemoryError if status >= MEMORY_STATUS else \
            IndexError
        raise kind(self._errors.get(status,
                                    f"{self.name}: the compiled code reported error {status}"))
