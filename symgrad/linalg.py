"""symgrad.linalg: the torch.linalg mirror, for real float32 and float64 tensors.

Layer: front end. Input: tensors, eager or traced, with any leading batch dims. Output:
tensors (named tuples where torch returns them), differentiable to any order, eagerly and
inside ``symgrad.compile``. The functions live in ``frontend.functions.decompositions``
(solvers and decompositions, on the primitives of ``ops.decomp``), ``frontend.functions.norms``
(norms and singular values) and ``frontend.functions.linalg_products``; this module is their
torch-named namespace, with torch's keyword spellings (``input=``, ``out=``).
"""

from .errors import LinAlgError
from .frontend.functions.decompositions import (cholesky, det, eigh, eigvalsh, inv, qr, slogdet,
                                                solve, solve_triangular)
from .frontend.functions.dtype_checks import guard
from .frontend.functions.keywords import wrap_namespace
from .frontend.functions.linalg_products import (cross, diagonal, lstsq, matmul, matrix_power,
                                                 multi_dot, vecdot)
from .frontend.functions.matrix_exp import matrix_exp
from .frontend.functions.eig import eig, eigvals
from .frontend.functions.householder import householder_product
from .frontend.functions.ldl import ldl_factor, ldl_factor_ex, ldl_solve
from .frontend.functions.lu import lu, lu_factor, lu_factor_ex, lu_solve
from .frontend.functions.linalg_wrappers import (cholesky_ex, inv_ex, solve_ex, tensorinv,
                                                 tensorsolve, vander)
from .frontend.functions.svd import linalg_svd as svd
from .frontend.functions.norms import (cond, matrix_norm, matrix_rank, norm, pinv, svdvals,
                                       vector_norm)

__all__ = ["LinAlgError", "cholesky", "cond", "cross", "det", "diagonal", "eigh", "eigvalsh",
           "inv", "lstsq", "matmul", "matrix_norm", "matrix_power", "matrix_rank", "multi_dot",
           "norm", "pinv", "qr", "slogdet", "solve", "solve_triangular", "svdvals", "vecdot",
           "vector_norm", "matrix_exp", "svd", "lu", "lu_factor", "lu_factor_ex", "lu_solve",
           "cholesky_ex", "inv_ex", "solve_ex", "tensorinv", "tensorsolve", "vander", "eig",
           "eigvals", "householder_product", "ldl_factor", "ldl_factor_ex", "ldl_solve"]

wrap_namespace(globals())
guard(globals(), "linalg")
