"""The torch-like front end: tensors, eager or traced, with torch's autograd.

Layer: front end, above the op registry and the IR. Sub-packages, bottom to top: ``core``
(the ``Tensor``, ops applied to tensors, the autograd engine, grad mode, a trace's source
lines and captured state), ``random`` (torch's CPU random streams), ``functions`` (the
torch-named functions and ``Tensor``'s methods), ``control`` (loops, branches and guards on
traced values). Importing the package installs the operators and methods on ``Tensor``
(``functions.methods``).
"""

from .functions import methods  # noqa: F401  (installs Tensor's methods)
