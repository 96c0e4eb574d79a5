"""Tensor methods of the linear algebra beyond ``decompositions``: svd, matrix_exp, qr,
pinverse, lu, lu_solve, triangular_solve... gathered in one table.

Layer: front end, below ``methods`` (which installs them). Input: the modules implementing
them. Output: ``METHODS``, method name -> function.
"""

from __future__ import annotations

from .matrix_exp import METHODS as MATRIX_EXP
from .svd import METHODS as SVD
from .lu import METHODS as LU
from .linalg_wrappers import METHODS as WRAPPERS
from .householder import METHODS as HOUSEHOLDER
from .removed_linalg import METHODS as REMOVED

METHODS = {**MATRIX_EXP, **SVD, **LU, **WRAPPERS, **HOUSEHOLDER, **REMOVED}
