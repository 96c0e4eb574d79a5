"""GradBench/ADBench problems for ``make bench-gradbench`` (``benchmarks/gradbench.py``).

Each problem is one module of this package, written three times: torch eager autograd,
``jax.jit`` and symgrad, each the way a user of that system would write it, in float64, NumPy
in and NumPy out (conversions inside the call). The definitions come from GradBench
(github.com/gradbench/gradbench: ``evals/<name>/README.md``, the eval's input generator
``python/gradbench/gradbench/evals/<name>/run.py`` and its reference tools), restated in
our own words in each module's docstring.

The interface every problem module follows::

  \"\"\"<the eval in words: functions, inputs, sizes, where the definition comes from>\"\"\"
  NAME = "lse"
  FUNCTIONS = ("primal", "gradient")          # the eval's function names
  def configs(full: bool) -> list[tuple[str, dict]]:
      \"\"\"(label, size parameters). Default: a representative subset of the eval's default
      sizes (smallest, a middle one, the largest that runs in reasonable time); full=True:
      all the eval's defaults that fit in memory.\"\"\"
  def inputs(**size) -> dict:                  # deterministic NumPy inputs (the eval's generator)
  def torch_impl(inp: dict) -> dict:           # function name -> zero-arg callable returning NumPy
  def jax_impl(inp: dict) -> dict:             # same
  def symgrad_impl(inp: dict) -> dict:         # same

A callable returns a NumPy array, a Python/NumPy number, or a dict/tuple/list of them; the
runner compares every leaf with torch's. Optional module attributes the runner reads:

- ``TOLERANCE`` (a relative error; default 1e-8) or ``TOLERANCES`` (function -> relative
  error), with the reason written beside it;
- ``EXPECTED`` (function -> the eval's expected output): the reference where torch does not
  run, and a check of torch's result where it does;
- ``DEFAULT_SKIP`` (system -> why): systems left out of the default run (too slow), run
  with ``--full``;
- ``WORKAROUNDS`` (function -> what and why): symgrad's spelling is not the natural one
  because the natural one fails; the row is marked in the table;
- ``NOTES`` (function -> text): printed under the table.
"""

import numpy as np


def replayed(sizes, draw, wanted):
    """An eval's input at size ``wanted``, as its generator makes it: ``np.random.seed(31337)``,
    then ``draw(size)`` for each of ``sizes`` in the eval's order (a size's data depends on
    the sizes drawn before it) up to ``wanted``."""
    np.random.seed(31337)
    for size in sizes:
        value = draw(size)
        if size == wanted:
            return value
    raise ValueError(f"{wanted} is not one of the eval's sizes")
