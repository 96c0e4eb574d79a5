"""The linear algebra torch removed in 1.9 but still names: torch.lstsq, solve, eig, symeig,
matrix_rank and the methods Tensor.lstsq, solve, eig, symeig. Calling one raises torch's
RuntimeError, which says what replaces it.

Layer: front end (functions), data only. Input: any arguments. Output: none: each function
raises.
"""

from __future__ import annotations

REMOVED = "This function was deprecated since version 1.9 and is now removed. "

__all__ = ["lstsq", "solve", "eig", "symeig", "matrix_rank"]


def matrix_rank(input, tol=None, symmetric=False, *, out=None):  # noqa: A002
    raise RuntimeError(
        REMOVED.rstrip(" ") + "\nPlease use the `torch.linalg.matrix_rank` function instead. The "
        "parameter 'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'.")


def solve(input, A=None, *, out=None):  # noqa: A002
    raise RuntimeError(
        REMOVED + "`torch.solve` is deprecated in favor of `torch.linalg.solve`. "
        "`torch.linalg.solve` has its arguments reversed and does not return the LU "
        "factorization.\n\nTo get the LU factorization see `torch.lu`, which can be used with "
        "`torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A).solution should be "
        "replaced with:\nX = torch.linalg.solve(A, B)")


def lstsq(input, A=None, *, out=None):  # noqa: A002
    raise RuntimeError(
        REMOVED + "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n"
        "`torch.linalg.lstsq` has reversed arguments and does not return the QR decomposition "
        "in the returned tuple (although it returns other information about the problem).\n\n"
        "To get the QR decomposition consider using `torch.linalg.qr`.\n\nThe returned solution "
        "in `torch.lstsq` stored the residuals of the solution in the last m - n columns of the "
        "returned value whenever m > n. In torch.linalg.lstsq, the residuals are in the field "
        "'residuals' of the returned named tuple.\n\nThe unpacking of the solution, as in\n"
        "X, _ = torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced with:\n"
        "X = torch.linalg.lstsq(A, B).solution")


def symeig(input, eigenvectors=False, upper=True, *, out=None):  # noqa: A002
    raise RuntimeError(
        REMOVED + "The default behavior has changed from using the upper triangular portion of "
        "the matrix by default to using the lower triangular portion.\n\nL, _ = "
        "torch.symeig(A, upper=upper) should be replaced with:\nL = torch.linalg.eigvalsh(A, "
        "UPLO='U' if upper else 'L')\n\nand\n\nL, V = torch.symeig(A, eigenvectors=True) should "
        "be replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')")


def eig(self, eigenvectors=False, *, e=None, v=None):
    raise RuntimeError(
        REMOVED + "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` "
        "rather than real tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be "
        "replaced with:\nL_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, "
        "eigenvectors=True) should be replaced with:\nL_complex, V_complex = "
        "torch.linalg.eig(A)")


METHODS = {"lstsq": lstsq, "solve": solve, "eig": eig, "symeig": symeig}
