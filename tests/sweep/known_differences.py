"""What the sweep does not hold against symgrad: (a) what torch itself leaves undefined, each
rule with its reason, and (b) symgrad's open differences from torch, one line per sample
pattern: the team's to-do list, which only shrinks.

Input: a sample and its differences (``compare.differences``). Output: ``split_undefined``
(the differences kept, the ones (a) excludes) and ``open_differences()`` (pattern -> the
aspects (b) lists). ``test_sweep`` fails on a difference (b) does not list and on a listed one
that matches now: delete its line (or run ``python tests/sweep/store.py --known`` to rewrite
(b) from a full run with torch).
"""

from __future__ import annotations

import fnmatch
import functools

import numpy as np

from . import accuracy
from .spec import T, salt_of

# ---------------------------------------------------------------- (a) undefined in torch


def ties(sample, diffs=None) -> bool:
    """The first tensor argument holds a repeated value (NaNs count): where sort-like ops pick
    an index torch does not specify."""
    for position, arg in enumerate(sample.args, 1):
        if isinstance(arg, T):
            data = arg.data(salt_of(f"{position}:{arg.render()}")).ravel()
            data = data.astype(np.complex128 if data.dtype.kind == "c" else np.float64)
            nans = np.isnan(data).sum()
            return nans > 1 or len(np.unique(data[~np.isnan(data)])) < data.size - nans
    return False


def holds_nan(sample, diffs=None) -> bool:
    """The first tensor argument holds a NaN."""
    for position, arg in enumerate(sample.args, 1):
        if isinstance(arg, T):
            data = arg.data(salt_of(f"{position}:{arg.render()}"))
            return data.dtype.kind in "fc" and bool(np.isnan(data).any())
    return False


def half_with_inf(sample, diffs=None) -> bool:
    """The first tensor argument is float16 and holds +infinity."""
    for position, arg in enumerate(sample.args, 1):
        if isinstance(arg, T):
            data = arg.data(salt_of(f"{position}:{arg.render()}"))
            return data.dtype == np.float16 and bool(np.isposinf(data).any())
    return False


HIDDEN_INDEX = ("torch.msort", "torch.quantile", "torch.nanquantile", "Tensor.msort",
                "Tensor.quantile", "Tensor.nanquantile")


def tie_gradient(sample, diffs) -> bool:
    """Ties, and the index that picks which repeated value gets the gradient is one torch does
    not specify: it differs (``value[1]``), or the op sorts internally and returns none."""
    return ties(sample) and ("value[1]" in diffs or sample.op in HIDDEN_INDEX)


def to_integer(sample, diffs=None) -> bool:
    """A cast of NaN, infinity or an out-of-range float to an integer dtype (C leaves it
    undefined; torch gives whatever the CPU's conversion gives)."""
    text = sample.pattern
    return ":e" in text and any(k in text for k in (
        "long", "int", "short", "char", "byte", "int64", "int32", "uint8", "LongTensor"))


def singular(sample, diffs=None) -> bool:
    """A ``sing`` matrix argument: singular in exact arithmetic (rank one), so its LU pivots
    and trailing singular values are rounding noise."""
    return any(isinstance(arg, T) and arg.kind == "sing" for arg in sample.args)


LOGDETS = ("torch.slogdet", "torch.logdet", "linalg.slogdet", "Tensor.slogdet", "Tensor.logdet")
INVERSES = ("torch.inverse", "linalg.inv", "Tensor.inverse", "linalg.matrix_power",
            "torch.matrix_power", "Tensor.matrix_power", "linalg.solve")
NULL_SPACE = ("linalg.svdvals", "linalg.matrix_norm", "linalg.norm", "torch.norm", "Tensor.norm")
SVDS = ("linalg.svd", "torch.svd", "Tensor.svd")
EIGS = ("linalg.eig", "linalg.eigvals")
LU_PIVOTS = ("linalg.lu_factor", "linalg.lu_factor_ex", "linalg.lu", "torch.lu", "Tensor.lu",
             "linalg.inv_ex", "linalg.solve_ex", "torch.geqrf", "Tensor.geqrf", "torch.qr",
             "Tensor.qr", "linalg.ldl_factor", "linalg.ldl_factor_ex")
MATRIX_EXPS = ("linalg.matrix_exp", "torch.matrix_exp", "Tensor.matrix_exp")

SORTLIKE = ("torch.sort", "torch.argsort", "torch.msort", "torch.topk", "torch.kthvalue",
            "torch.median", "torch.nanmedian", "torch.mode", "torch.cummax", "torch.cummin",
            "torch.quantile", "torch.nanquantile", "Tensor.sort", "Tensor.argsort",
            "Tensor.msort", "Tensor.topk", "Tensor.kthvalue", "Tensor.median",
            "Tensor.nanmedian", "Tensor.mode", "Tensor.cummax", "Tensor.cummin",
            "Tensor.quantile", "Tensor.nanquantile")

# torch.special's polynomials whose recurrence returns an uninitialised variable where x is
# NaN (the loop stops before its first step): all but chebyshev_polynomial_t and Hermite's.
UNINITIALISED_AT_NAN = tuple(
    [f"special.chebyshev_polynomial_{k}" for k in "uvw"]
    + [f"special.shifted_chebyshev_polynomial_{k}" for k in "tuvw"]
    + ["special.laguerre_polynomial_l", "special.legendre_polynomial_p"])


HOUSEHOLDER = ("linalg.householder_product", "torch.orgqr", "Tensor.orgqr", "torch.ormqr",
               "Tensor.ormqr")


def as_accurate(sample, diffs, aspect=None, records=None) -> bool:
    """A float32 or complex64 sample whose differing ``aspect`` symgrad computes at least as
    accurately as torch, both against torch in float64 on the same values (``accuracy``;
    ``records``: symgrad's, torch's and that reference record). Without records: whether the
    sample is one this judges (a float32 or complex64 tensor argument)."""
    if records is None:
        return accuracy.narrow_tensors(sample)
    return "symgrad" in records and accuracy.at_least_as_accurate(
        aspect, records["symgrad"], records["torch"], records.get("reference"))


as_accurate.judges_records = True
ACCURACY_OPS = HOUSEHOLDER + ("special.ndtri",)


# (ops, which samples, which aspects, why): fnmatch patterns (a tuple of ops: any of them),
# or a predicate of the sample and its differences (``as_accurate``: and of the aspect and
# the records).
UNDEFINED = [
    (("torch.empty", "torch.empty_like", "Tensor.new_empty", "torch.empty_strided"), "*",
     "value[[]*",
     "uninitialised memory (symgrad zero-fills it, on purpose)"),
    (("Tensor.new",), "Tensor.new(*, [0-9]*", "value[[]*",
     "Tensor.new(*sizes) is uninitialised memory"),
    ("torch.*Tensor", "torch.*Tensor([0-9(]*", "value[[]*",
     "torch.FloatTensor(*sizes) and the other legacy types: uninitialised memory"),
    (SORTLIKE, ties, "value[[]1]", "the index of a repeated value is unspecified "
                                   "(sort with stable=False, topk, kthvalue, median, mode...)"),
    (SORTLIKE, tie_gradient, "grad[[]*", "the gradient goes to the unspecified index of a "
                                         "repeated value"),
    (("torch.argsort", "Tensor.argsort"), ties, "value[[]0]",
     "argsort's order of repeated values is unspecified without stable=True"),
    (("torch.topk", "Tensor.topk"), "*sorted=False*", "value[[]*",
     "topk(sorted=False) returns the k values in an unspecified order"),
    (("torch.topk", "Tensor.topk"), "*sorted=False*", "grad[[]*",
     "topk(sorted=False): the gradient's order follows the unspecified one"),
    (("torch.unique", "Tensor.unique"), "*sorted=False*", "value[[]*",
     "unique(sorted=False) returns the values in an unspecified order"),
    ("*", "*#dup*", "value[[]*", "repeated indices in a scatter or an index write: torch keeps "
                                 "an unspecified one of the written values"),
    ("*", "*#dup*", "grad[[]*", "repeated indices: the gradient follows the unspecified winner"),
    *[(("torch.native_dropout",), "*[[]0], *", aspect, "native_dropout of an empty tensor: "
       "torch returns the input itself and its autograd then gives that leaf a grad_fn (a leaf "
       "'moved into the graph interior', whose backward raises): a torch bug; symgrad returns "
       "the input unchanged") for aspect in ("grad:error", "grad_fn[[]0]")],
    (("linalg.eigh",), "*", "value[[]1]", "eigenvectors are defined up to sign"),
    (("linalg.eigh",), "*", "grad[[]*", "the gradient through eigenvectors depends on their "
                                        "sign"),
    (("torch.mode", "Tensor.mode"), holds_nan, "value[[]*",
     "mode of a row holding NaN: torch's CPU kernel std::sorts (value, index) pairs with `<`, "
     "which is no strict weak order with NaN (undefined behaviour in C++): where the NaN ends "
     "up, and so which value is the first of the longest runs, is libstdc++'s sort's accident"),
    (("torch.mode", "Tensor.mode"), holds_nan, "grad[[]*",
     "mode of a row holding NaN: the gradient goes to the element the undefined sort picked"),
    ("*", to_integer, "value[[]*", "casting NaN, infinity or out-of-range floats to an integer "
                                   "is undefined (C); torch gives the CPU's conversion"),
    (("torch.take_along_dim", "Tensor.take_along_dim"), "*(f64[[]2,3], i64[[]2,2]:idx4, 1)*",
     "error:extra", "an index past the dim's size: torch's take_along_dim does not check it "
                    "(what it reads is unspecified: it wraps here); symgrad raises gather's "
                    "IndexError"),
    *[(LOGDETS, singular, aspect, "at a matrix singular in exact arithmetic log|det| and its "
       "sign are the rounding noise of LU pivots (torch's MKL LU, with fused multiply-adds, "
       "leaves pivots of 1e-17 where NumPy's OpenBLAS LU gives exact zeros), and the gradient "
       "A^-T of order 1e16 is noise too") for aspect in ("value[[]*", "grad[[]*")],
    *[(INVERSES, singular, aspect, "at a matrix singular in exact arithmetic whether an LU "
       "pivot rounds to exactly zero (torch raises) or to noise (torch returns an inverse of "
       "order 1e16, itself noise) depends on the LAPACK's rounding")
      for aspect in ("error:extra", "error:missing", "value[[]*", "grad[[]*")],
    *[(("linalg.cond",), singular, aspect, "sigma_max / sigma_min with sigma_min the rounding "
       "noise of a singular matrix: the value and its gradient are noise")
      for aspect in ("value[[]*", "grad[[]*")],
    (("linalg.qr",), singular, "grad[[]*", "the backward divides by R's diagonal, rounding "
     "noise where A is rank-deficient"),
    (("linalg.qr",), singular, "value[[]0]", "Q of a rank-one matrix: its columns past the "
     "first are any orthonormal basis of the complement, picked by the rounding noise (1e-17) "
     "the first Householder reflection leaves below it; torch's MKL geqrf rounds that noise "
     "by the CPU (on an AMD EPYC it is exactly zero, no second reflection, Q symmetric; on "
     "the CPU that stored the records, and in symgrad's LAPACK, another reflection)"),
    (("F.gelu",), half_with_inf, "value[[]*", "torch's float16 gelu(+inf) depends on the CPU: "
     "NaN on the CPU that stored the records, +inf on an AMD EPYC (AVX-512; ATEN_CPU_CAPABILITY "
     "avx2 or default does not change it); symgrad gives NaN, as torch's vectorized float32 "
     "gelu of +inf does on that EPYC too (its scalar path, for one element, gives +inf)"),
    (UNINITIALISED_AT_NAN, holds_nan, "value[[]*", "at x = NaN and n >= 2 torch's "
     "recurrence loop (which stops at NaN) never runs and it returns an uninitialised "
     "variable (0, inf: whatever the register held); symgrad gives NaN"),
    (NULL_SPACE, singular, "grad[[]*", "the singular vectors of a repeated (zero) singular "
     "value are any bases of the null spaces: U diag(g) V^T depends on which the SVD picks"),
    *[(SVDS, singular, aspect, "the singular vectors of a repeated (zero) singular value are "
       "any bases of the null spaces (torch documents U and V as not unique); the gradient "
       "through them divides by the zero gaps") for aspect in ("value[[]0]", "value[[]2]",
                                                               "grad[[]*")],
    *[(SVDS, "*", aspect, "singular vectors are unique up to sign (torch documents U and V as "
       "not unique): torch's are MKL's gesdd's, symgrad's NumPy's LAPACK's, which flip some "
       "columns (of wide matrices mostly); a loss of U or V then has another gradient. "
       "tests/linalg/test_linalg_svd_lu.py checks them with sign-invariant losses")
      for aspect in ("value[[]0]", "value[[]2]", "grad[[]*")],
    *[(EIGS, singular, aspect, "a rank-one matrix's eigenvalue 0 is repeated: its eigenvectors "
       "are any basis of the null space (LAPACK's rounding picks one), the eigenvalues' gradient "
       "V^-H diag(g) V^H depends on it") for aspect in ("value[[]1]", "grad[[]*")],
    *[(LU_PIVOTS, singular, aspect, "at a matrix singular in exact arithmetic the last LU pivot "
       "(or Householder diagonal) is rounding noise: torch's MKL leaves 1e-17 where the "
       "unblocked LAPACK algorithm gives an exact zero, so whether it raises or returns values "
       "of order 1e16, and which, depends on the LAPACK's rounding")
      for aspect in ("error:extra", "error:missing", "value[[]*", "grad[[]*")],
    (("torch.det", "linalg.det", "Tensor.det"), "*(c64[[]*:hpd)", "value[[]0]", "the "
     "determinant of a Hermitian matrix is real: its imaginary part in complex64 is the "
     "rounding noise of the complex LU pivots' product (1.4e-5 at |det| 1.6e3, below one "
     "float32 ulp of |det|, in torch's MKL; 4e-15 in NumPy's LAPACK)"),
    *[(MATRIX_EXPS, "*f16[[]*", aspect, "torch's float16 matrix_exp reads its float64 table "
       "of polynomial coefficients as float16 (from_blob with the input's dtype): its values "
       "are garbage, not a rounding of exp(A)") for aspect in ("value[[]*", "grad[[]*")],
    *[(HOUSEHOLDER, as_accurate, aspect, "torch's float32 and complex64 Householder products "
       "and their gradients (LAPACK's orgqr/ormqr, then the backward's chain of small "
       "matmuls) round in the order of MKL's blocking and fused multiply-adds, which symgrad "
       "does not reproduce; symgrad computes them in float64 and rounds once, and a result "
       "differing from torch's counts as torch's when it is at least as accurate, measured "
       "against torch in float64 on the same values") for aspect in ("value[[]*", "grad[[]*")],
    (("special.ndtri",), as_accurate, "grad[[]*", "torch's float32 ndtri evaluates Cephes's "
     "rational approximations in float32 (its value is not always the correctly rounded "
     "one: 1 ulp off at p = 1e-8), and the gradient sqrt(2 pi) exp(x^2 / 2) amplifies that "
     "last bit x^2 times (30 at x = -5.6); symgrad's value is correctly rounded: its gradient "
     "counts as torch's when it is at least as accurate, measured against torch in float64"),
]


def applies(rule_part, value: str, sample, diffs, aspect=None, records=None) -> bool:
    if callable(rule_part):
        if getattr(rule_part, "judges_records", False) and aspect is not None:
            return bool(rule_part(sample, diffs, aspect, records or {}))
        return bool(rule_part(sample, diffs))
    if isinstance(rule_part, tuple):
        return value in rule_part
    return fnmatch.fnmatchcase(value, rule_part)


def split_undefined(sample, diffs: dict, records: dict | None = None) -> tuple:
    """(kept, excluded): the differences in what torch defines, and those (a) excludes
    (aspect -> reason). ``records``: symgrad's, torch's and the float64 reference record, for
    the rules that judge them (without: those rules exclude nothing)."""
    kept, excluded = {}, {}
    for aspect, detail in diffs.items():
        for ops, which, aspects, reason in UNDEFINED:
            if applies(ops, sample.op, sample, diffs) and fnmatch.fnmatchcase(aspect, aspects) \
                    and applies(which, sample.pattern, sample, diffs, aspect, records):
                excluded[aspect] = reason
                break
        else:
            kept[aspect] = detail
    return kept, excluded


# ---------------------------------------------------------------- (b) open in symgrad

BEGIN, END = "# --- open differences: begin", "# --- open differences: end"


@functools.cache
def open_differences() -> dict:
    """pattern -> the aspects ``OPEN`` lists for it."""
    out = {}
    for line in OPEN.strip().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        op, pattern, aspects = (part.strip() for part in line.split(" | ")[:3])
        out[pattern] = set(aspects.split())
    return out


# One line per sample: op | sample pattern | the aspects that differ | what differs (the
# first). Written by ``python tests/sweep/store.py --known`` from a full run against torch;
# delete a line when its sample matches torch.
# --- open differences: begin
OPEN = """

"""
# --- open differences: end
