"""torch's complex-number functions: complex, polar, real, imag, conj, angle, view_as_real,
view_as_complex, is_complex, and the ``.real``/``.imag`` attributes.

Layer: front end, above ``basic``. Input: tensors. Output: tensors built from the primitives
of ``ops/complex.py`` (whose rules follow torch's convention for gradients with respect to
complex values, see ``dtypes``), with torch's grad_fn names and errors. One difference: torch's
``real``, ``imag``, ``conj`` and ``view_as_real`` are views of their operand's memory, so an
in-place change of one shows in the other; here they are new tensors (``x.real = v`` and
``x.imag = v`` do update ``x`` in place).
"""

from __future__ import annotations

from ... import dtypes
from ..core.apply import apply, full, register_view
from ..core.arguments import tensor_arg, tensors_only
from ..core.tensor import Tensor
from ..core import grad_mode
from ..core.engine import run_backward
from .basic import composite, eq, isnan, where
from .lanes import by_lanes
from .inplace import update
from .shapes import reshape


def is_complex(input) -> bool:  # noqa: A002
    return tensor_arg(input).dtype.is_complex


def complex(real, imag) -> Tensor:  # noqa: A001  (torch's name)
    """``real + i imag`` of two floating tensors of one dtype."""
    tensors_only("complex", real=real, imag=imag)
    re, im = tensor_arg(real), tensor_arg(imag)
    if not (re.dtype.is_floating and im.dtype.is_floating):
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{re.dtype.scalar_type} and {im.dtype.scalar_type}")
    if re.dtype is not im.dtype:
        raise RuntimeError(f"Expected object of scalar type {re.dtype.scalar_type} but got "
                           f"scalar type {im.dtype.scalar_type} for second argument")
    if re.dtype is dtypes.float16:
        raise no_complex_half("torch.complex")
    return apply("complex", re, im)


def no_complex_half(name: str) -> TypeError:
    """torch makes complex32 (ComplexHalf) of float16 parts; symgrad has no such dtype."""
    return TypeError(f"{name}: float16 parts would make a complex32 (ComplexHalf) tensor, "
                     f"which symgrad does not support")


def polar(abs, angle) -> Tensor:  # noqa: A002
    """``abs * (cos(angle) + i sin(angle))``."""
    tensors_only("polar", abs=abs, angle=angle)
    r, theta = tensor_arg(abs), tensor_arg(angle)
    if r.dtype is not theta.dtype or not r.dtype.is_floating:
        complex(r, theta)   # torch's errors
    def rule(g, out, ins):
        # torch's polar_backward: Re(conj(g) sgn(out)), Re(conj(g) i out) (its abs part
        # takes abs >= 0: for a negative abs it has the other sign)
        g_conj = apply("conj", g)
        i_out = apply("complex", -apply("imag", out), apply("real", out))
        return (apply("real", g_conj * apply("sgn", out)), apply("real", g_conj * i_out))
    return composite("PolarBackward0", lambda a, t: apply(
        "complex", a * apply("cos", t), a * apply("sin", t)), [r, theta], rule,
        holomorphic=False)


def real(input) -> Tensor:  # noqa: A002
    """The real parts of a complex tensor; a real tensor itself."""
    x = tensor_arg(input)
    return _part_view(x, "real") if x.dtype.is_complex else x


def imag(input) -> Tensor:  # noqa: A002
    tensors_only("imag", input=input)
    x = tensor_arg(input)
    if not x.dtype.is_complex:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return _part_view(x, "imag")


def _part_view(z: Tensor, part: str) -> Tensor:
    """``z.real``/``z.imag`` as torch's: a view (writing it writes ``z``, ``z``'s updates show
    in it; ``inplace.VALUE_VIEWS``), strides in real units."""
    out = apply(part, z)
    register_view(out, z, part, {})
    return out


def conj(input) -> Tensor:  # noqa: A002
    """The complex conjugate; a real tensor itself."""
    x = tensor_arg(input)
    return apply("conj", x) if x.dtype.is_complex else x


def conj_physical(input) -> Tensor:  # noqa: A002
    x = tensor_arg(input)
    return apply("conj", x, _torch_name="ConjPhysicalBackward0") if x.dtype.is_complex else x


def resolve_conj(input) -> Tensor:  # noqa: A002
    return tensor_arg(input)   # conj() is computed at once here: nothing to resolve


def is_conj(input) -> bool:  # noqa: A002
    return False


def angle(input) -> Tensor:  # noqa: A002
    """The argument of each element (of a real one: 0, or pi where negative)."""
    x = tensor_arg(input)
    if not x.dtype.is_differentiable:
        x = x.to(dtypes.get_default_dtype())
    if x.dtype.is_complex:
        return apply("angle", x)
    return composite("AngleBackward0", lambda a: where(isnan(a), a, apply("angle", a)), [x],
                     lambda g, out, ins: (full(ins[0], 0.0),), uses_out=False)


def view_as_real(input) -> Tensor:  # noqa: A002
    """A complex tensor as real pairs: shape ``(..., 2)``."""
    x = tensor_arg(input)
    if not x.dtype.is_complex:
        raise RuntimeError("view_as_real is only supported for complex tensors")

    def pairs(z):
        parts = [reshape(apply(name, z), tuple(z.shape) + (1,)) for name in ("real", "imag")]
        return apply("cat", *parts, axis=z.ndim)

    def rule(g, out, ins):   # torch's: the pairs' cotangent as complex numbers (reads nothing
        lead = (slice(None),) * (g.ndim - 1)   # saved: a write through the view is fine)
        return (apply("complex", g[lead + (0,)], g[lead + (1,)]),)
    out = composite("ViewAsRealBackward0", pairs, [x], rule, saves=False, uses_out=False,
                    holomorphic=False)
    register_view(out, x, "view_as_real", {})
    return out


def view_as_complex(input) -> Tensor:  # noqa: A002
    """Real pairs (last dim of size 2) as a complex tensor."""
    x = tensor_arg(input)
    if not x.dtype.is_floating or x.dtype is dtypes.bfloat16:
        raise RuntimeError(f"view_as_complex is only supported for half, float and double "
                           f"tensors, but got a tensor of scalar type: {x.dtype.scalar_type}")
    if not x.ndim or x.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if x.dtype is dtypes.float16:
        raise no_complex_half("torch.view_as_complex")

    def joined(p):
        lead = (slice(None),) * (p.ndim - 1)
        return apply("complex", p[lead + (0,)], p[lead + (1,)])
    return composite("ViewAsComplexBackward0", joined, [x])


def _set_real(self: Tensor, value) -> None:
    update(self, lambda z: complex(tensor_arg(value).to(z.dtype.real_dtype).expand(z.shape),
                                   imag(z)), "real.copy_")


def _set_imag(self: Tensor, value) -> None:
    update(self, lambda z: complex(real(z), tensor_arg(value).to(z.dtype.real_dtype)
                                   .expand(z.shape)), "imag.copy_")


__all__ = ["is_complex", "complex", "polar", "real", "imag", "conj", "conj_physical",
           "resolve_conj", "is_conj", "angle", "view_as_real", "view_as_complex"]
METHODS = {name: globals()[name] for name in ("is_complex", "conj", "conj_physical",
                                              "resolve_conj", "is_conj", "angle")}
METHODS["cfloat"] = lambda self: self.to(dtypes.complex64)
METHODS["cdouble"] = lambda self: self.to(dtypes.complex128)
PROPERTIES = {"real": (real, _set_real), "imag": (imag, _set_imag)}


def complex_sgn(z: Tensor) -> Tensor:
    """z / |z| (0 at 0) with ``SgnBackward0``. torch's vector loop divides the two parts by
    |z| apart, so an infinite z gives NaN in its infinite parts and a signed 0 in its finite
    ones; its scalar loop divides complex numbers (NaN in both parts)."""
    def body(a):
        scalar = apply("sgn", a)
        size = apply("abs", a)
        parts = apply("complex", apply("real", a) / size, apply("imag", a) / size)
        return by_lanes(a, 2, where(eq(size, float("inf")), parts, scalar), scalar)

    def rule(g, out, ins):   # the primitive's own
        create = grad_mode.is_grad_enabled()
        with grad_mode.enable_grad():
            again = apply("sgn", ins[0])
        return run_backward([(again, g)], retain_graph=create, create_graph=create,
                            inputs=list(ins), input_hooks=False)
    return composite("SgnBackward0", body, [z], rule, holomorphic=False)

