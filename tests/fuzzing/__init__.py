"""Differential fuzzing of symgrad: random well-typed programs, run every way and compared.

- ``model``: the program model (typed straight-line programs, their source, torch's typing
  rules written out independently of symgrad);
- ``generate``: the hypothesis strategy ``programs(Config(...))`` drawing them from the op
  families (elementwise math, broadcasting binary ops, where/comparisons, reductions, softmax,
  movement, indexing, matmul, cat/stack, casts, nn.functional losses, in-place updates of
  clones and through views, loops), over float32, float64 and int64 values;
- ``registry``: the family drawn from the op registry itself (every smooth elementwise op
  of ``symgrad.ops.OPS`` reachable as ``sg.<name>``, on a box where it is smooth);
- ``policy``: kinks, ties and tolerances (when two results count as the same);
- ``check``: ``check_forward`` / ``check_gradient`` run a program compiled, compiled without
  passes, interpreted and eagerly (and its gradient, or the gradient of its gradient along
  directions, against finite differences too) and raise ``Disagreement`` with a pasteable
  script of the program;
- ``complexes``: complex programs (complex leaves and ops, a real loss) and
  ``check_complex``: compiled against eager values and gradients, and against finite
  differences in the real and imaginary parts;
- ``transforms``: ``check_jvp`` (forward mode against reverse mode) and ``check_vmap`` (vmap of
  the program and of its gradient against loops over the examples).

tests/test_fuzz.py runs a fixed-seed sample; tests/fuzz_campaign.py runs long random campaigns.
"""

from .check import Disagreement, check_forward, check_gradient
from .generate import Config, programs
from .model import F32, F64, I64, Program
from .transforms import check_jvp, check_vmap

__all__ = ["F32", "F64", "I64", "Config", "Disagreement", "Program", "check_forward",
           "check_gradient", "check_jvp", "check_vmap", "programs"]
