"""Ctrl-C in compiled loops: which loops poll for an interrupt, and the C of the poll.

Layer: codegen. Input: loop IR (``ControlKernel``s and the ``Program``s of their bodies).
Output: decisions and C text: whether a loop checks for an interrupt on its back edge
(``polls``), whether a function takes the two interrupt parameters (``takes_params``), the
parameters, and the check itself. It must not decide anything about signals: the runtime owns
the SIGINT handler and the counter it increments (``runtime.interrupt``).

The protocol. A function that takes the parameters gets ``sg_sigint``, a pointer to a count
that the runtime's SIGINT handler increments, and ``sg_since``, the count when the call began.
A polling loop reads the count (one volatile load and a branch) at the end of each step of its
own serial loop, never inside an OpenMP-parallel or SIMD loop: when it changed, the loop frees
what it allocated and the function returns ``INTERRUPT_STATUS``, which every caller returns
in turn (a body's nonzero status always propagates), up to the entry point; the runtime then
raises KeyboardInterrupt. A count rather than a flag: nobody clears it, so several threads
running compiled code at once each stop when a SIGINT arrives after their own call began,
whatever the others do. Only the runtime's build passes these parameters: a standalone text
(``export_c``, ``c_function``) has no checks and keeps the signature it documents.

Which loops poll: every ``while`` (unbounded trip count, and the reverse loop over its tape,
as long as the forward loop was), and every scan whose steps times its step's work reaches
``POLL_WORK`` element-ops (or depends on a call-time size): a shorter scan ends within a
fraction of a millisecond, so its function keeps its signature and its call skips the cost of
preparing the handler (``runtime.interrupt``).
"""

from __future__ import annotations

import math

from ...dims import Dim, large
from ...lower.control import ControlKernel
from ...lower.loopir import LoopKernel, Program, ScalarStmt
from ...lower.matmul import MatmulKernel
from ..backend import INTERRUPT_STATUS


# A scan polls when its steps times its step's work reach this many element-ops (~0.1 ms or
# more): the per-call cost of preparing the handler (~0.4 us) is then well under 1% of it.
POLL_WORK = 100_000

PARAMS = ("const volatile int *sg_sigint", "int sg_since")
ARGS = ("sg_sigint", "sg_since")


def check(cleanup: str = "") -> str:
    """The back-edge check: return ``INTERRUPT_STATUS`` (after ``cleanup``, e.g. ``free(tape);``)
    once a SIGINT arrived since the call began."""
    done = f"{{ {cleanup} return {INTERRUPT_STATUS}; }}" if cleanup else \
        f"return {INTERRUPT_STATUS};"
    return f"if (*sg_sigint != sg_since) {done}  /* Ctrl-C: interrupted */"


def polls(k: ControlKernel) -> bool:
    """Whether the loop of ``k`` checks for an interrupt at the end of each step."""
    if k.kind == "cond":
        return False
    if k.kind != "scan":
        return True          # while loops: their trip count is unknown
    return large(_product(k.attrs["length"], max(_work(k.programs[0]), 1)), POLL_WORK)


def takes_params(program: Program) -> bool:
    """Whether ``program``'s function takes ``PARAMS``: one of its kernels uses them."""
    return any(uses_params(k) for k in program.kernels if isinstance(k, ControlKernel))


def uses_params(k) -> bool:
    """Whether kernel ``k`` reads ``ARGS``: its loop polls, or it calls a body that takes them."""
    return isinstance(k, ControlKernel) and \
        (polls(k) or any(takes_params(p) for p in k.programs))


def _work(program: Program):
    """Element-ops of one run of ``program`` (roughly: each kernel's elements; a matmul's
    multiply-adds; a loop's steps times its body's; a while loop counts as large)."""
    total = 0
    for k in program.kernels:
        if isinstance(k, ControlKernel):
            if k.kind == "scan":
                total += _product(k.attrs["length"], max(_work(k.programs[0]), 1))
            elif k.kind == "cond":
                total += max(_work(p) for p in k.programs)
            else:
                total += POLL_WORK
        elif isinstance(k, LoopKernel):
            total += _elements(math.prod(k.shape))
        elif isinstance(k, MatmulKernel):
            total += _product(math.prod(k.out.shape), k.a.shape[-1])
        elif isinstance(k, ScalarStmt):
            total += 1
        else:
            total += max([_elements(math.prod(v.shape)) for v in k.views()] + [1])
    return total


def _elements(n) -> int:
    """A count of elements as an int: a call-time size counts as large (``dims.large``)."""
    return n if not isinstance(n, Dim) else POLL_WORK if large(n, POLL_WORK) else 1


def _product(a, b) -> int:
    return _elements(a) * _elements(b)
