"""``symgrad.sparse``: sparse Jacobians and Hessians as ``scipy.sparse`` matrices.

Layer: package (public re-exports; see ``symgrad.api.sparse``). ``jacobian(f)(x)`` and
``hessian(f)(x)`` detect the pattern from the traced graph, color it and compute every
nonzero in one compiled function; the result is a CSR matrix whose pattern is the same at
every call (``out=`` refills one in place). Needs SciPy.
"""

from .api.sparse import SparseDerivative, hessian, jacobian  # noqa: F401

__all__ = ["SparseDerivative", "hessian", "jacobian"]
