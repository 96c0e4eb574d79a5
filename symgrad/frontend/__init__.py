"""The torch-like front end: tensors, eager or traced, with torch's autograd.

Layer: front end, above the op registry and the IR. Importing the package installs the
operators and methods on ``Tensor`` (``methods``). Modules, bottom to top: ``grad_mode`` and
``sources`` (thread-local mode and the trace's source recording), ``tensor`` (the class),
``function`` (the recorded backward graph), ``apply`` (ops on tensors, the VJP ``Builder``),
``autograd`` (the engine), ``shapes``, ``functional``, ``inplace``, ``creation``,
``printing``, ``methods``.
"""

from . import methods  # noqa: F401  (installs Tensor's methods)
