"""The table of torch's refusals by dtype: which public function refuses which dtypes, and how.

Layer: front end (functions), data only. Input: nothing. Output: ``ROWS``, read by
``dtype_checks`` (which wraps the functions named here): one row per refusal, in the order
torch checks them. Rows were read off torch 2.13 on the CPU by calling each function with each
dtype (bool, uint8, int8..int64, float16, bfloat16, float32, float64, complex64, complex128):

- ``kernel(names, dtypes, k, operands, when)``: torch's CPU kernel ``k`` has no instance for
  the tested dtype: ``NotImplementedError: "k" not implemented for 'Long'``. The tested dtype
  is the first operand's (``operands=1``; ``-1``: ``dtype=`` if given), the common dtype of
  the first ``operands`` operands, (``0``) of two tensor operands only (a Python number
  operand takes another kernel), or the argument at a place (``(2, "index")``). ``when``
  names a condition (``dtype_checks.WHEN``) where torch picks the kernel by the arguments
  (softmax's last dim or not, round's decimals).
- ``refuse(...)``: the same with a message of its own (``trunc is not supported for complex
  inputs``); ``{T}`` is the tested dtype's ScalarType name, ``{cT}`` its C++ name.
- ``same(names, places, message)``: the tensors at ``places`` (positions, keywords, or both
  as a pair) must share a dtype; ``{T0}``, ``{T1}``... are theirs.
- ``out(names, expected, message)``: ``out=`` must have the input's dtype (``"input"``), the
  common dtype of the operands (``"result"``), a given one, or the input's complex dtype
  (``"complex"``); ``{O}`` is out's, ``{T}`` the one expected, ``{I}`` the input's.
- ``nograd(names, place, dtypes, message)``: an operand that requires grad (in grad mode)
  refuses, in ``dtypes`` (its own or ``dtype=``'s) or always (None).
- ``("narrowing", names, message)``: ``dtype=`` may not narrow the input's dtype (norms);
  ``("params", names, places)``: a normalization's parameters in the input's dtype.
"""

from __future__ import annotations

BOOL = ("bool",)
INTS = ("uint8", "int8", "int16", "int32", "int64")
COMPLEX = ("complex64", "complex128")
HALF = ("float16", "bfloat16")
INTEGRAL = INTS + BOOL
NOT_FLOAT = INTEGRAL + COMPLEX
ALL = NOT_FLOAT + HALF + ("float32", "float64")
N, R = NotImplementedError, RuntimeError


def ALL_BUT(*names: str) -> tuple:  # noqa: N802  (a dtype group, like the constants)
    return tuple(d for d in ALL if d not in names)


def kernel(names, dtypes, k: str, operands: int = 1, when: str | None = None) -> tuple:
    return ("kernel", names, dtypes, N, f'"{k}" not implemented for \'{{T}}\'', operands, when)


def refuse(names, dtypes, error, message: str, operands: int = 1, when: str | None = None):
    return ("kernel", names, dtypes, error, message, operands, when)


def same(names, places: tuple, message: str) -> tuple:
    return ("same", names, places, R, message)


def out(names, expected: str, message: str) -> tuple:
    return ("out", names, expected, R, message)


def nograd(names, place, dtypes, message: str) -> tuple:
    return ("nograd", names, place, dtypes, R, message)


def ops(*names: str, inplace: bool = False) -> tuple:
    """``torch.x`` and ``Tensor.x`` for each name (and ``Tensor.x_`` if ``inplace``)."""
    found = []
    for n in names:
        found += [f"torch.{n}", f"Tensor.{n}"] + ([f"Tensor.{n}_"] if inplace else [])
    return tuple(found)


def methods(*names: str) -> tuple:
    return tuple(f"Tensor.{n}" for n in names)


def not_differentiable(function: str, argument: str) -> str:
    return (f"The function '{function}' is not differentiable with respect to argument "
            f"'{argument}'. This input cannot have requires_grad True.")


SOFTMAX = ops("softmax") + ("F.softmax", "special.softmax")
LOG_SOFTMAX = ops("log_softmax") + ("F.log_softmax", "special.log_softmax")
CLAMPS = ops("clamp", "clip", "clamp_min", "clamp_max", inplace=True)
RELU = ops("relu", inplace=True) + ("F.relu", "F.relu_")
ABS = ops("abs", "absolute", inplace=True) + ("Tensor.__abs__",)
UNARY_OUT = ("ceil", "floor", "trunc", "fix", "round", "neg", "negative", "abs", "absolute",
             "sign", "sgn", "frac", "conj_physical", "clamp", "clip", "clamp_min", "clamp_max")
MEAN_INTEGRAL = ("mean(): could not infer output dtype. Input dtype must be either a floating "
                 "point or complex dtype. Got: {T}")
VECTOR_NORM = "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {T}"

SPECIAL_FLOAT_ONLY = (
    "erfcx", "log_ndtr", "ndtri", "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
    "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
    "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0")
POLYNOMIALS = tuple(f"{s}chebyshev_polynomial_{k}" for s in ("", "shifted_") for k in "tuvw") + (
    "hermite_polynomial_h", "hermite_polynomial_he", "laguerre_polynomial_l",
    "legendre_polynomial_p")

ROWS = (
    # ------------------------------------------------------------ activations
    kernel(("F.elu", "F.elu_", "F.celu", "F.celu_", "F.selu", "F.selu_"), NOT_FLOAT,
           "elu_cpu"),
    kernel(("F.gelu",), NOT_FLOAT, "GeluKernelImpl"),
    kernel(("F.silu",), INTEGRAL, "silu_cpu"),
    refuse(("F.silu",), COMPLEX, R, "silu does not support automatic differentiation for "
                                    "outputs with complex dtype."),
    kernel(("F.softplus",), NOT_FLOAT, "softplus_cpu"),
    kernel(("F.leaky_relu", "F.leaky_relu_"), NOT_FLOAT, "leaky_relu_cpu"),
    kernel(("F.threshold", "F.threshold_"), BOOL + COMPLEX, "threshold_cpu"),
    refuse(("F.hardtanh", "F.hardtanh_", "F.relu6"), BOOL, R,
           "{T} inputs not supported for hardtanh"),
    refuse(("F.hardtanh", "F.hardtanh_", "F.relu6"), COMPLEX, N,
           "clamp is not supported for complex types"),
    refuse(RELU, BOOL, R, "Boolean inputs not supported for relu"),
    refuse(RELU + CLAMPS, COMPLEX, N, "clamp is not supported for complex types"),
    kernel(("F.softsign",), BOOL, "abs_cpu"),
    kernel(("F.hardswish", "F.hardswish_"), NOT_FLOAT, "hardswish_cpu"),
    kernel(("F.hardsigmoid", "F.hardsigmoid_"), NOT_FLOAT, "hardsigmoid_cpu"),
    kernel(("F.mish", "F.mish_"), NOT_FLOAT, "mish_cpu"),
    kernel(("F.hardshrink",) + ops("hardshrink"), NOT_FLOAT, "hardshrink_cpu"),
    kernel(("F.softshrink",), NOT_FLOAT, "softshrink_check"),
    kernel(("F.glu",), NOT_FLOAT, "glu_cpu"),
    kernel(("F.logsigmoid",), NOT_FLOAT, "log_sigmoid_cpu"),
    kernel(SOFTMAX, NOT_FLOAT, "softmax_lastdim_kernel_impl", -1, "last_dim"),
    kernel(SOFTMAX, NOT_FLOAT, "softmax_kernel_impl", -1, "other_dim"),
    kernel(("F.softmin",), INTS + COMPLEX, "softmax_lastdim_kernel_impl", -1, "last_dim"),
    kernel(("F.softmin",), INTS + COMPLEX, "softmax_kernel_impl", -1, "other_dim"),
    kernel(LOG_SOFTMAX, NOT_FLOAT, "log_softmax_lastdim_kernel_impl", -1, "last_dim"),
    kernel(LOG_SOFTMAX, NOT_FLOAT, "log_softmax_kernel_impl", -1, "other_dim"),
    # ------------------------------------------------------------ losses
    nograd(("F.cross_entropy", "F.nll_loss"), (2, "weight"), None,
           not_differentiable("nll_loss_forward", "weight")),
    kernel(("F.cross_entropy",), NOT_FLOAT, "log_softmax_lastdim_kernel_impl", 1, "classes"),
    kernel(("F.nll_loss",), NOT_FLOAT, "nll_loss_out_frame", 1, "classes"),
    nograd(("F.binary_cross_entropy",), (2, "weight"), None,
           not_differentiable("binary_cross_entropy", "weight")),
    kernel(("F.binary_cross_entropy",), NOT_FLOAT, "binary_cross_entropy"),
    nograd(("F.binary_cross_entropy_with_logits",), (2, "weight"), None,
           not_differentiable("binary_cross_entropy_with_logits", "weight")),
    nograd(("F.binary_cross_entropy_with_logits",), "pos_weight", None,
           not_differentiable("binary_cross_entropy_with_logits", "pos_weight")),
    kernel(("F.smooth_l1_loss",), NOT_FLOAT, "smooth_l1_cpu", 2),
    kernel(("F.huber_loss",), NOT_FLOAT, "huber_cpu", 2),
    kernel(("F.mse_loss",), NOT_FLOAT, "mse_cpu", 2),
    nograd(("F.multi_margin_loss",), (4, "weight"), None,
           not_differentiable("multi_margin_loss", "weight")),
    kernel(("F.multi_margin_loss",), NOT_FLOAT + ("float16",), "multi_margin_loss_cpu_kernel"),
    refuse(("F.kl_div",), INTEGRAL, R, "kl_div: Integral inputs not supported."),
    refuse(("F.kl_div",), COMPLEX, R, "kl_div: Complex inputs not supported."),
    refuse(("F.hinge_embedding_loss",), INTS, R, MEAN_INTEGRAL, when="loss_mean"),
    # ------------------------------------------------------------ distances and norms
    refuse(("F.pdist",), NOT_FLOAT, R, "pdist only supports floating-point dtypes"),
    kernel(("F.pdist",), ("float16",), "pdist"),
    same(("torch.cdist",), (0, 1), "expected scalar type {T0} but found {T1}"),
    refuse(("torch.cdist",), NOT_FLOAT, R,
           "cdist only supports floating-point dtypes, X1 got: {T}"),
    kernel(("torch.cdist",), HALF, "cdist"),
    refuse(("F.cosine_similarity",), NOT_FLOAT, R,
           "expected common dtype to be floating point, yet common dtype is {T}", 2),
    refuse(("F.normalize", "linalg.vector_norm", "linalg.norm") + ops("norm", "renorm"),
           INTEGRAL, R, VECTOR_NORM),
    refuse(("linalg.vecdot",), INTEGRAL, R,
           "linalg.vecdot: Expected a floating point or complex tensor as input. Got {T}"),
    refuse(ops("dist"), INTS, R,
           "norm(): input dtype should be either floating point or complex. Got {T} instead.", 2),
    # ------------------------------------------------------------ rounding and signs
    out(tuple(f"torch.{n}" for n in UNARY_OUT), "result", "Found dtype {O} but expected {T}"),
    kernel(ops("trunc", "fix", inplace=True), BOOL, "trunc_vml_cpu"),
    refuse(ops("trunc", "fix", inplace=True), COMPLEX, N,
           "trunc is not supported for complex inputs"),
    kernel(ops("ceil", inplace=True), BOOL, "ceil_vml_cpu"),
    refuse(ops("ceil", inplace=True), COMPLEX, N, "ceil is not supported for complex inputs"),
    kernel(ops("floor", inplace=True), BOOL, "floor_vml_cpu"),
    refuse(ops("floor", inplace=True), COMPLEX, N, "floor is not supported for complex inputs"),
    kernel(ops("round", inplace=True) + ("special.round",), NOT_FLOAT, "round_cpu", 1,
           "decimals"),
    kernel(ops("round", inplace=True), NOT_FLOAT, "round_vml_cpu", 1, "decimals_zero"),
    kernel(ops("round", inplace=True), BOOL + COMPLEX, "round_vml_cpu"),
    kernel(("special.round",), NOT_FLOAT, "round_vml_cpu", 1, "no_decimals"),
    refuse(ops("sign", inplace=True), COMPLEX, N,
           "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
           "torch.sgn instead."),
    refuse(ops("deg2rad", inplace=True), COMPLEX, R,
           "deg2rad is not supported for complex tensors."),
    refuse(ops("rad2deg", inplace=True), COMPLEX, R,
           "rad2deg is not supported for complex tensors."),
    out(("torch.isposinf",), "bool", "isposinf does not support non-boolean outputs."),
    out(("torch.isneginf",), "bool", "isneginf does not support non-boolean outputs."),
    out(("torch.signbit",), "bool", "signbit does not support non-boolean outputs."),
    refuse(ops("isposinf"), COMPLEX, R, "isposinf does not support complex inputs."),
    refuse(ops("isneginf"), COMPLEX, R, "isneginf does not support complex inputs."),
    refuse(ops("signbit"), COMPLEX, N, "signbit is not implemented for complex tensors."),
    kernel(ops("frac", inplace=True), NOT_FLOAT, "frac_cpu"),
    kernel(ABS, BOOL, "abs_cpu"),
    refuse(methods("abs_", "absolute_"), COMPLEX, R,
           "In-place abs is not supported for complex tensors."),
    out(("torch.float_power",), "double", "the output given to float_power has dtype {O} but "
                                          "the operation's result requires dtype {T}"),
    out(("torch.nan_to_num",), "input",
        "nan_to_num: dtype of out: {O} should be same as input: {I}"),
    nograd(ops("nan_to_num"), 0, COMPLEX,
           "nan_to_num does not support automatic differentiation for outputs with complex "
           "dtype."),
    nograd(("torch.native_dropout",), 0, COMPLEX,
           "native_dropout does not support automatic differentiation for outputs with complex "
           "dtype."),
    # ------------------------------------------------------------ pointwise math
    kernel(ops("logit", inplace=True) + ("special.logit",), COMPLEX, "logit_cpu"),
    kernel(ops("erf", inplace=True) + ("special.erf",), COMPLEX, "erf_vml_cpu"),
    kernel(ops("erfc", inplace=True) + ("special.erfc",), COMPLEX, "erfc_vml_cpu"),
    kernel(ops("erfinv", inplace=True) + ("special.erfinv",), COMPLEX, "erfinv_vml_cpu"),
    kernel(ops("lgamma", inplace=True) + ("special.gammaln",), COMPLEX, "lgamma_vml_cpu"),
    kernel(ops("digamma", inplace=True) + ("special.digamma", "special.psi"), COMPLEX, "digamma"),
    kernel(ops("atan2", "arctan2", inplace=True), COMPLEX, "atan2_cpu", 0),
    kernel(ops("copysign", inplace=True), COMPLEX, "copysign_cpu", 2),
    kernel(ops("xlogy", inplace=True) + ("special.xlogy",), COMPLEX, "xlogy_cpu", 2),
    kernel(("special.xlog1py",), COMPLEX, "xlog1py_cpu", 2),
    kernel(("special.entr",), COMPLEX, "entr_cpu"),
    kernel(("special.ndtr",), COMPLEX, "erf_vml_cpu"),
    # torch.special's Bessel, Airy, erfcx... (special_functions): one kernel each
    kernel(ops("i0", inplace=True) + ("special.i0",), COMPLEX, "i0_vml_cpu"),
    *(kernel((f"special.{n}",), COMPLEX, f"{n}_cpu") for n in ("i0e", "i1", "i1e")),
    *(kernel((f"special.{n}",), HALF + COMPLEX, f"{n}_cpu") for n in SPECIAL_FLOAT_ONLY),
    *(kernel((f"special.{n}",), HALF + COMPLEX, f"{n}_cpu", 2) for n in POLYNOMIALS),
    kernel(ops("igamma", inplace=True) + ("special.gammainc",), NOT_FLOAT, "igamma_cpu", 0),
    kernel(ops("igammac", inplace=True) + ("special.gammaincc",), NOT_FLOAT, "igammac_cpu", 0),
    kernel(ops("gcd", inplace=True), ("bool", "float16", "float32", "float64") + COMPLEX,
           "gcd_cpu", 0),
    kernel(ops("lcm", inplace=True), ("bool", "float16", "float32", "float64") + COMPLEX,
           "lcm_cpu", 0),
    kernel(ops("bitwise_left_shift", inplace=True) + methods("__lshift__", "__rlshift__",
                                                            "__ilshift__"),
           ("bool", "float16", "float32", "float64") + COMPLEX, "lshift_cpu", 0),
    kernel(ops("bitwise_right_shift", inplace=True) + methods("__rshift__", "__rrshift__",
                                                             "__irshift__"),
           ("bool", "float16", "float32", "float64") + COMPLEX, "rshift_cpu", 0),
    kernel(ops("hypot", inplace=True), NOT_FLOAT, "hypot_cpu", 0),
    kernel(ops("logaddexp"), INTEGRAL, "logaddexp_cpu", 0),
    kernel(ops("logaddexp2"), NOT_FLOAT, "logaddexp2_cpu", 0),
    kernel(ops("nextafter", inplace=True), NOT_FLOAT, "nextafter_cpu", 0),
    kernel(ops("remainder", inplace=True) + methods("__mod__", "__rmod__", "__imod__"),
           BOOL + COMPLEX, "remainder_cpu", 2),
    kernel(ops("fmod", inplace=True), BOOL + COMPLEX, "fmod_cpu", 2),
    kernel(ops("floor_divide", inplace=True) + methods("__floordiv__", "__rfloordiv__",
                                                       "__ifloordiv__"),
           BOOL + COMPLEX, "div_floor_cpu", 2),
    kernel(ops("div", "divide", inplace=True), BOOL + COMPLEX, "div_floor_cpu", 2, "floor"),
    kernel(ops("div", "divide", inplace=True), BOOL + COMPLEX, "div_trunc_cpu", 2, "trunc"),
    kernel(ops("pow", inplace=True) + methods("__pow__", "__ipow__"), BOOL, "pow", 0),
    kernel(methods("__rpow__"), BOOL, "pow", 2),
    same(ops("lerp", inplace=True), (0, (1, "end")),
         "expected dtype {cT0} for `end` but got dtype {cT1}"),
    same(ops("lerp", inplace=True), (0, (2, "weight")),
         "expected dtype {cT0} for `weight` but got dtype {cT1}"),
    kernel(ops("lerp", inplace=True), INTEGRAL, "lerp_kernel_tensor", 1, "tensor_weight"),
    kernel(ops("lerp", inplace=True), INTEGRAL, "lerp_kernel_scalar", 1, "number_weight"),
    kernel(ops("addcmul", inplace=True), BOOL, "addcmul_cpu_out", 3),
    refuse(ops("heaviside", inplace=True), COMPLEX, R,
           "heaviside is not yet implemented for complex tensors.", 0),
    same(ops("heaviside", inplace=True), (0, (1, "values"), "out"),
         "heaviside is not yet implemented for tensors with different dtypes."),
    kernel(("special.zeta",), HALF + COMPLEX, "zeta_cpu", 2),
    kernel(("torch.polar",), ("float16",), "polar_cpu", 0),   # a number angle: a TypeError
    out(("torch.polar", "torch.complex"), "complex",
        "Expected object of scalar type {T} but got scalar type {O} for argument 'out'"),
    refuse(ops("mvlgamma", inplace=True) + ("special.multigammaln",), BOOL, R,
           "The input tensor may not be a boolean tensor."),
    refuse(ops("frexp"), NOT_FLOAT, R, "torch.frexp() only supports floating-point dtypes"),
    same(ops("isclose", "allclose"), (0, (1, "other")), "{T0} did not match {T1}"),
    refuse(("torch.where",), INTS[1:] + COMPLEX + HALF + ("float32", "float64"), R,
           "where expected condition to be a boolean tensor, but got a tensor with dtype {T}",
           1, "where"),
    # ------------------------------------------------------------ reductions and scans
    nograd(ops("sum", "prod", "nansum", "cumsum", "cumprod"), 0, INTEGRAL,
           "Autograd not support dtype: {T}"),
    refuse(ops("argmax"), BOOL, R, "argmax(): does not support bool input"),
    refuse(ops("argmax"), COMPLEX, R, "argmax(): does not support complex input"),
    refuse(ops("argmin"), BOOL, R, "argmin(): does not support bool input"),
    refuse(ops("argmin"), COMPLEX, R, "argmin(): does not support complex input"),
    out(("torch.argmax", "torch.argmin"), "int64",
        "Expected out tensor to have dtype long int, but got {cO} instead"),
    out(("torch.all",), "bool", "all only supports bool tensor for result, got: {O}"),
    out(("torch.any",), "bool", "any only supports bool tensor for result, got: {O}"),
    kernel(ops("max"), COMPLEX, "max_all", 1, "no_dim"),
    refuse(ops("max"), COMPLEX, R, "max(): does not support complex input", 1, "dim"),
    kernel(ops("min"), COMPLEX, "min_all", 1, "no_dim"),
    refuse(ops("min"), COMPLEX, R, "min(): does not support complex input", 1, "dim"),
    kernel(ops("amax"), COMPLEX, "max_values_cpu"),
    kernel(ops("amin"), COMPLEX, "min_values_cpu"),
    kernel(ops("aminmax"), COMPLEX, "aminmax_cpu"),
    refuse(ops("maximum", "max"), COMPLEX, R, "maximum not implemented for complex tensors.", 0),
    refuse(ops("minimum", "min"), COMPLEX, R, "minimum not implemented for complex tensors.", 0),
    refuse(ops("fmax"), COMPLEX, R, "fmax not implemented for complex tensors.", 0),
    refuse(ops("fmin"), COMPLEX, R, "fmin not implemented for complex tensors.", 0),
    kernel(ops("median", "nanmedian"), BOOL + COMPLEX, "median_cpu", 1, "no_dim"),
    kernel(ops("median", "nanmedian"), BOOL + COMPLEX, "median_out", 1, "dim"),
    kernel(ops("mode"), COMPLEX, "mode_cpu"),
    kernel(ops("kthvalue"), BOOL + COMPLEX, "kthvalue_cpu"),
    refuse(ops("topk"), BOOL, R, "topk does not support bool dtypes on CPU"),
    refuse(ops("topk"), COMPLEX, R, " topk does not support complex dtypes on CPU"),
    refuse(ops("sort", "msort", "argsort"), COMPLEX, R,
           " Sort does not support complex dtypes on CPU"),
    kernel(ops("cummax"), COMPLEX, "cummax_cpu"),
    kernel(ops("cummin"), COMPLEX, "cummin_cpu"),
    kernel(ops("logcumsumexp"), INTEGRAL, "logcumsumexp_out_cpu", -1),
    kernel(methods("cumsum_"), BOOL, "cumsum_out_cpu"),
    kernel(methods("cumprod_"), BOOL, "cumprod_out_cpu"),
    kernel(ops("searchsorted", "bucketize"), BOOL + COMPLEX, "searchsorted_out_cpu", 2),
    refuse(ops("cov", "corrcoef"), BOOL, R, "cov(): bool dtype is not supported for input"),
    refuse(ops("quantile", "nanquantile"), NOT_FLOAT + HALF, R,
           "quantile() input tensor must be either float or double dtype"),
    refuse(ops("nansum"), COMPLEX, R, "nansum on CPU does not support complex inputs"),
    refuse(ops("nanmean"), INTEGRAL, R,
           "nanmean(): expected input to have floating point or complex dtype but got {T}"),
    refuse(ops("nanmean"), COMPLEX, R, "nansum on CPU does not support complex inputs"),
    refuse(("torch.trapezoid", "torch.trapz"), BOOL, R,
           "trapezoid: received a bool input for `y`, but bool is not supported"),
    refuse(("torch.cumulative_trapezoid",), BOOL, R,
           "cumulative_trapezoid: received a bool input for `y`, but bool is not supported"),
    # ------------------------------------------------------------ products
    same(ops("mm"), (0, (1, "mat2")), "expected m1 and m2 to have the same dtype, but got: "
                                      "{cT0} != {cT1}"),
    same(ops("addmm", "addbmm", inplace=True), (0, (2, "mat2")),
         "self and mat2 must have the same dtype, but got {T0} and {T1}"),
    same(ops("addmm", inplace=True), ((1, "mat1"), (2, "mat2")),
         "mat1 and mat2 must have the same dtype, but got {T0} and {T1}"),
    same(("F.linear",), ((2, "bias"), 0), "self and mat2 must have the same dtype, but got "
                                          "{T0} and {T1}"),
    same(("F.linear",), (0, (1, "weight")), "expected m1 and m2 to have the same dtype, but got: "
                                            "{cT0} != {cT1}"),
    same(ops("addmv", inplace=True), (0, (1, "mat"), (2, "vec")),
         "addmv input tensors must have the same dtype, but got {T0}, {T1}, and {T2}"),
    same(ops("baddbmm", inplace=True), (0, (1, "batch1"), (2, "batch2")),
         "Input dtypes must be the same, got: input {cT0}, batch1: {cT1}, batch2: {cT2}"),
    same(ops("cross") + ("linalg.cross",), (0, (1, "other")),
         "expected scalar type {T0} but found {T1}"),
    same(ops("dot", "vdot", "inner"), (0, (1, "other")),
         "dot : expected both vectors to have same dtype, but found {T0} and {T1}"),
    kernel(ops("mm", "addmm", "addbmm", "tensordot", inplace=True) + ("F.linear",), BOOL,
           "addmm_impl_cpu_", 2),
    kernel(ops("matrix_power") + ("linalg.matrix_power",), BOOL, "addmm_impl_cpu_", 1, "square"),
    kernel(ops("bmm"), BOOL, "bmm", 2),
    kernel(ops("baddbmm", inplace=True), BOOL, "baddbmm", 3),
    kernel(ops("mv", "addmv", inplace=True), BOOL, "addmv_impl_cpu", 2),
    kernel(ops("dot", "vdot", "inner"), BOOL, "dot", 2),
    kernel(ops("trace"), BOOL, "trace"),
    kernel(ops("cholesky_inverse"), INTEGRAL + ("float16",), "cholesky_inverse_out_cpu"),
    kernel(("linalg.svd",) + ops("svd"), HALF, "linalg_svd_cpu"),
    kernel(("linalg.eig", "linalg.eigvals"), HALF, "linalg_eig_out_cpu"),
    refuse(("linalg.eig", "linalg.eigvals"), INTEGRAL, R, "Unknown Complex ScalarType for {T}"),
    kernel(("linalg.lu_factor", "linalg.lu_factor_ex", "linalg.lu") + ops("lu"), HALF, "lu_cpu"),
    kernel(ops("geqrf"), HALF, "geqrf_cpu"),
    kernel(("linalg.ldl_factor", "linalg.ldl_factor_ex"), HALF, "ldl_factor_kernel_cpu"),
    kernel(("linalg.cholesky_ex",), HALF, "cholesky_cpu"),
    refuse(("linalg.inv_ex",), HALF, R, "linalg.inv: Low precision dtypes not supported. Got {T}"),
    refuse(("linalg.vander",), HALF, R, "linalg.vander supports floating point, complex, and "
           "integer tensors, but got {T}"),
    same(("torch.meshgrid", "torch.cartesian_prod"), tuple(range(8)),
         "meshgrid expects all tensors to have the same dtype"),
    # ------------------------------------------------------------ indices and masks
    refuse(ops("index_fill", inplace=True), ALL_BUT("int64"), IndexError,
           "index_fill_(): Expected dtype int64 for index.", (2, "index")),
    refuse(ops("index_select"), ALL_BUT("int64", "int32"), R,
           "index_select(): Expected dtype int32 or int64 for index", (2, "index")),
    refuse(ops("index_copy", inplace=True), ALL_BUT("int64"), R,
           "index_copy_(): Expected a long tensor for index, but got {T}", (2, "index")),
    same(ops("index_copy", inplace=True), (0, (3, "source")),
         "index_copy_(): self and source expected to have the same dtype, but got (self) {T0} "
         "and (source) {T1}"),
    same(ops("index_add", inplace=True), (0, (3, "source")),
         "index_add_(): self ({T0}) and source ({T1}) must have the same scalar type"),
    same(ops("scatter", inplace=True), (0, (3, "src")),
         "scatter(): Expected self.dtype to be equal to src.dtype"),
    refuse(ops("masked_fill", inplace=True), ALL_BUT("bool"), R,
           "masked_fill_ only supports boolean masks, but got mask with dtype {cT}", (1, "mask")),
    refuse(ops("masked_select"), ALL_BUT("bool"), R, "masked_select: expected BoolTensor for mask",
           (1, "mask")),
    refuse(ops("take"), ALL_BUT("int64"), R,
           "take(): Expected a long tensor for index, but got {T}", (1, "index")),
    refuse(("F.one_hot",), ALL_BUT("int64"), R,
           "one_hot is only applicable to index tensor of type LongTensor."),
    same(methods("cumsum_", "cumprod_"), (0, "dtype"),
         "Bad in-place call: input tensor dtype {cT0} and output tensor dtype {cT1} should match"),
    ("narrowing", ("linalg.vector_norm", "linalg.norm") + ops("norm"),
     "linalg.vector_norm: the dtype of the input ({T0}) should be convertible without "
     "narrowing to the specified dtype ({T1})"),
    ("narrowing", ("linalg.matrix_norm",),
     "linalg.matrix_norm: the dtype of the input ({T0}) should be convertible without "
     "narrowing to the specified dtype ({T1})"),
    # ------------------------------------------------------------ layers
    kernel(("F.fold",), INTS, "col2im_out_cpu"),
    kernel(("F.unfold",), INTS, "im2col_out_cpu"),
    kernel(("F.max_pool1d",), NOT_FLOAT, "max_pool1d_impl", when="no_indices"),
    kernel(("F.max_pool2d",), BOOL + COMPLEX, "max_pool2d"),
    kernel(("F.avg_pool3d",), HALF, "avg_pool3d_out_frame"),
    kernel(("F.max_pool3d", "F.max_pool3d_with_indices"), BOOL + COMPLEX, "max_pool3d"),
    *(nograd((f"F.fractional_max_pool{d}d", f"F.fractional_max_pool{d}d_with_indices"),
             (5, "_random_samples"), None,
             not_differentiable(f"fractional_max_pool{d}d", "random_samples")) for d in (2, 3)),
    kernel(("F.layer_norm",), NOT_FLOAT, "LayerNormKernelImpl"),
    ("params", ("F.batch_norm",), (0, (1, "running_mean"), (2, "running_var"), (3, "weight"),
                                   (4, "bias"))),
    ("params", ("F.layer_norm",), (0, (2, "weight"), (3, "bias"))),
    ("params", ("F.group_norm",), (0, (2, "weight"), (3, "bias"))),
)
